// Fuzz: stored event buffers. The input is a sequence of events, each a
// 4-byte little-endian length and that many bytes. Each is copied to an
// aligned buffer and run through the Verifier; what passes is rendered and
// folded by every projection in order (a real log's events first make the
// projections live). Nothing that verifies may crash a projection.
#include <cstring>
#include <string>
#include <vector>

#include "fuzz.h"
#include "projections/projection.h"
#include "schema/codec.h"
#include "schema/event_generated.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto ps = adjutant::projections::AllProjections();
  for (auto& p : ps) p->Reset();
  size_t at = 0;
  uint64_t seq = 0;
  while (at + 4 <= size) {
    uint32_t n = 0;
    std::memcpy(&n, data + at, 4);
    at += 4;
    if (n > size - at) break;
    std::vector<uint64_t> aligned((n + 7) / 8 + 1);
    std::memcpy(aligned.data(), data + at, n);
    at += n;
    const auto* bytes = reinterpret_cast<const uint8_t*>(aligned.data());
    if (!adjutant::schema::VerifyEventBuffer(bytes, n)) continue;
    // An event that verifies may still not render (a union member this
    // schema does not know, as from a newer version): an error, not a crash.
    auto j = adjutant::schema::ToJson("Event", bytes);
    if (!j.ok() && j.status().message().empty()) FuzzFail("an event that does not render says nothing");
    const auto* ev = flatbuffers::GetRoot<adjutant::fb::Event>(bytes);
    (void)adjutant::schema::EventKind(*ev);
    adjutant::projections::Input in{++seq, ev, std::span<const uint8_t>(bytes, n)};
    for (auto& p : ps) p->Apply(in);
  }
  for (auto& p : ps) {
    // A projection's state survives its own encoding.
    const std::string enc = p->Encode();
    auto q = adjutant::projections::AllProjections();
    for (auto& r : q) {
      if (r->name() != p->name()) continue;
      if (!r->Decode(enc).ok()) FuzzFail("a projection cannot decode its own encoding");
      if (r->Encode() != enc) FuzzFail("a projection's encoding does not round-trip");
    }
  }
  return 0;
}
