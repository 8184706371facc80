// Fuzz: a conformance case file, played as `adjutant conform` plays it, in a
// scratch database. Nothing crashes; a case that cannot be played says why.
#include <filesystem>
#include <string>

#include "base/scratch.h"
#include "fuzz.h"
#include "replay/conform.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto buf = adjutant::schema::ParseJson("ConformanceCase", json, "case");
  if (!buf.ok()) return 0;
  auto dir = adjutant::ScratchDir("adjutant-fuzz-case-");
  if (!dir.ok()) FuzzFail("no scratch directory");
  auto r = adjutant::replay::RunCase(*flatbuffers::GetRoot<adjutant::fb::ConformanceCase>(buf->data()), *dir + "/db");
  std::error_code ec;
  std::filesystem::remove_all(*dir, ec);
  if (!r.ok() && r.status().message().empty()) FuzzFail("a case that cannot be played says nothing");
  return 0;
}
