// The battle view's D12.7 (a commander rides with the nearest of his units)
// on positions at the ends of int32, as a damaged or hostile stored event may
// hold them: the two inputs of the events fuzz corpus that place Talavera's
// Hill far off the table (fixtures/fuzz/events/d12-7-*, written by
// tests/fuzz/make_event_seeds). Each is folded by the battle projection; the
// distances are taken without overflow (in the ASan+UBSan pass, an int32
// difference or an int64 square that overflowed would stop the test), and
// the nearest unit is the one the arithmetic says.
#include <catch2/catch.hpp>

#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "support/build_paths.h"
#include "projections/battle.h"
#include "schema/codec.h"
#include "schema/event_generated.h"

using namespace adjutant;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// A corpus input (4-byte little-endian lengths and event bytes) folded by
// the battle projection alone.
projections::BattleState Folded(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string data = ss.str();
  REQUIRE(data.size() > 4);
  projections::Battle battle;
  battle.Reset();
  size_t at = 0;
  uint64_t seq = 0;
  while (at + 4 <= data.size()) {
    uint32_t n = 0;
    std::memcpy(&n, data.data() + at, 4);
    at += 4;
    REQUIRE(n <= data.size() - at);
    std::vector<uint64_t> aligned(n / 8 + 1);
    std::memcpy(aligned.data(), data.data() + at, n);
    at += n;
    const auto* bytes = reinterpret_cast<const uint8_t*>(aligned.data());
    REQUIRE(schema::VerifyEventBuffer(bytes, n));
    battle.Apply({++seq, flatbuffers::GetRoot<fb::Event>(bytes), std::span<const uint8_t>(bytes, n)});
  }
  return battle.state();
}

}  // namespace

TEST_CASE("battle view: D12.7's nearest unit from a commander near INT32_MIN (a difference past int32)",
          "[battle][fuzz-regression]") {
  const auto s = Folded(F + "/fuzz/events/d12-7-commander-near-int32-min");
  REQUIRE(s.active);
  const auto& hill = s.commanders.at("BR-HILL");
  CHECK(hill.x == INT32_MIN + 5);
  CHECK(hill.y == 350);
  // His units at x 960, 1350 and 1560: the first is the nearest.
  CHECK(hill.with == "BR-RA");
  // The others, on the table, as the scenario has them.
  CHECK(s.commanders.at("BR-STEWART").with == "BR-29");  // tied with BR-48-1: the first by id
}

TEST_CASE("battle view: D12.7's nearest unit from a commander at (INT32_MIN, INT32_MIN) to a unit at (INT32_MAX, "
          "INT32_MAX) (squares past int64)",
          "[battle][fuzz-regression]") {
  const auto s = Folded(F + "/fuzz/events/d12-7-commander-at-int32-ends");
  REQUIRE(s.active);
  const auto& hill = s.commanders.at("BR-HILL");
  CHECK(hill.x == INT32_MIN);
  CHECK(hill.y == INT32_MIN);
  CHECK(s.units.at("BR-RA").x == INT32_MAX);
  CHECK(s.units.at("BR-RA").y == INT32_MAX);
  // From (-2^31, -2^31): BR-66-2 at (1350, 450) is nearer than BR-23LD at
  // (1560, 330) (the sums differ by 2^32 x 90 and less), and BR-RA, 2^32 - 1
  // off on each axis, is the farthest.
  CHECK(hill.with == "BR-66-2");
}
