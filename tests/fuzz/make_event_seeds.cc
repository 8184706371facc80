// Writes seed inputs for the events fuzz target (fixtures/fuzz/events/):
// the logs of a Talavera battle after two moves and of an NWOL game after
// one turn, each as 4-byte little-endian lengths and event bytes — the
// whole log, and slices of it; and the created battle with a commander far
// off the table (D12.7's distances at the ends of int32).
//   make_event_seeds DIR
#include <climits>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/build_paths.h"
#include "base/scratch.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "projections/battle.h"
#include "projections/y1820.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"

using namespace adjutant;

namespace {

std::string Slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Write(const std::string& path, const std::vector<std::string>& events) {
  std::ofstream out(path, std::ios::binary);
  for (const auto& e : events) {
    const uint32_t n = static_cast<uint32_t>(e.size());
    out.write(reinterpret_cast<const char*>(&n), 4);
    out.write(e.data(), static_cast<std::streamsize>(e.size()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string out = argv[1];
  const std::string F = ADJUTANT_FIXTURES;
  auto dir = ScratchDir("adjutant-seeds-");
  auto db = std::move(ledger::Ledger::Open(*dir + "/db")).value();
  auto buf = *schema::ParseJson("Scenario", Slurp(F + "/dog/talavera-brigade.json"), "s");
  bool map_error = false;
  auto start = *replay::PrepareGame(*flatbuffers::GetRoot<fb::Scenario>(buf.data()), std::nullopt, &map_error);
  (void)db->CreateGame("t", 1809, buf, start.at, Actor{ActorKind::kGameAdministrator, "", ""}, start.more);
  for (int m = 1; m <= 2; ++m) {
    for (const auto& [p, side] : std::vector<std::pair<std::string, std::string>>{{"wellesley", "British"}, {"victor", "French"}}) {
      auto o = *schema::ParseJson("OrderFile", Slurp(F + "/orders/dog-talavera/m" + std::to_string(m) + "-" + side + ".orders.json"), "o");
      (void)replay::SubmitOrders(*db, "t", "main", p, o);
    }
    (void)replay::Adjudicate(*db, "t", "main", replay::AdjudicateMode::kPhase);
  }
  std::vector<std::string> events;
  (void)db->Read("t", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
    events.emplace_back(reinterpret_cast<const char*>(e.bytes.data()), e.bytes.size());
    return Status::Ok();
  });
  Write(out + "/talavera-2-moves", events);
  Write(out + "/talavera-created", {events.begin(), events.begin() + 1});
  std::vector<std::string> head = {events.front()};
  head.insert(head.end(), events.end() - std::min<size_t>(events.size() - 1, 40), events.end());
  Write(out + "/talavera-created-and-last-40", head);
  // D12.7 at the ends of int32: the created battle with Hill placed far off
  // the table, so a commander's distance to his units (projections/battle.cc
  // Load) is taken from positions near INT32_MIN and INT32_MAX. "near": Hill
  // at x = INT32_MIN + 5 (a difference past int32, its square within int64);
  // "ends": Hill at (INT32_MIN, INT32_MIN) and his BR-RA at (INT32_MAX,
  // INT32_MAX) (squares past int64).
  for (const bool ends : {false, true}) {
    std::vector<uint64_t> aligned(events.front().size() / 8 + 1);
    std::memcpy(aligned.data(), events.front().data(), events.front().size());
    auto* ev = flatbuffers::GetMutableRoot<fb::Event>(aligned.data());
    auto* battle = static_cast<fb::GameCreated*>(ev->mutable_payload())->mutable_scenario()->mutable_dog();
    bool placed = false;
    auto* cs = battle->mutable_commanders();
    for (flatbuffers::uoffset_t i = 0; i < cs->size(); ++i) {
      auto* c = cs->GetMutableObject(i);
      if (c->id()->str() != "BR-HILL") continue;
      placed = c->mutate_x(ends ? INT32_MIN : INT32_MIN + 5) && (!ends || c->mutate_y(INT32_MIN));
    }
    auto* us = battle->mutable_units();
    for (flatbuffers::uoffset_t i = 0; ends && i < us->size(); ++i) {
      auto* u = us->GetMutableObject(i);
      if (u->id()->str() == "BR-RA") placed = placed && u->mutate_x(INT32_MAX) && u->mutate_y(INT32_MAX);
    }
    if (!placed) return 1;  // the fields are stored (non-zero in the scenario): mutable in place
    Write(out + (ends ? "/d12-7-commander-at-int32-ends" : "/d12-7-commander-near-int32-min"),
          {std::string(reinterpret_cast<const char*>(aligned.data()), events.front().size())});
  }
  std::printf("%zu events\n", events.size());
  return 0;
}
