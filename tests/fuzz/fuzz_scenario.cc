// Fuzz: a scenario's JSON and the checks `adjutant new` applies to it (every
// ruleset's: sow, y1820, dog). Nothing crashes; a refusal names what it refuses.
#include <string>

#include "fuzz.h"
#include "replay/create.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto buf = adjutant::schema::ParseJson("Scenario", json, "scenario");
  if (!buf.ok()) {
    if (buf.status().message().empty()) FuzzFail("a refused scenario says nothing");
    return 0;
  }
  bool map_error = false;
  auto start = adjutant::replay::PrepareGame(*flatbuffers::GetRoot<adjutant::fb::Scenario>(buf->data()), std::nullopt,
                                             &map_error);
  if (!start.ok() && start.status().message().empty()) FuzzFail("a refused scenario says nothing");
  return 0;
}
