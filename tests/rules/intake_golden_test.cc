// Order intake and ruleset stamping keep recorded events byte-identical
// (issue 18): every kind of the registry plays its small game (the history
// matrix's row, tests/support/kinds.cc), then takes a representative set of
// order files for its coming turn — accepted, refused, superseding, several
// in one file, and the kind's own precedence (NWOL's senior role, y1820's
// whole earlier file, dog's intention for a unit, PATE's appointment carried
// out when received) — and adjudicates that turn. It does so twice: under
// the newest rules versions and under the older ones of the row. Every event
// recorded is compared with fixtures/intake/events.golden, which the code
// before intake and stamping were written once produced. A second case
// checks the one stamping point, PhaseWriter::Emit, on its own.
//
// The golden holds, per event, its envelope (turn, phase, actor, ruleset,
// version, payload type) and an XXH3-128 digest of its stored bytes with the
// schema hash zeroed (a schema change elsewhere is not an intake change). A
// PhaseCompleted's digest is left out ("-"): it carries every projection's
// digest and encoding version, which change when a projection does (the
// fleet projection) without any event changing; its envelope is still
// compared, and the conformance cases compare its bytes.
//
// The "newest" lines are played under the versions that were the newest when
// the golden was written (NewestWhenWritten); orders taken before a game's
// first adjudication carry whatever is newest now, so their tag is written
// "newest" and kept out of their digest (Line).
//
// To write the golden again (only when recorded events are meant to change):
//   ADJUTANT_WRITE_GOLDEN=1 adjutant_tests "[intake]"
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "support/build_paths.h"
#include "base/hash.h"
#include "ledger/ledger.h"
#include "rules/versions.h"
#include "replay/driver.h"
#include "rules/intake.h"
#include "rules/phase_writer.h"
#include "schema/event_generated.h"
#include "support/kinds.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/temp_dir.h"
#include "support/y1820_game.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

const std::string kGolden = std::string(ADJUTANT_FIXTURES) + "/intake/events.golden";

std::string Dog(const std::string& unit, const std::string& body) {
  return R"({"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": ")" + unit + "\"" +
         (body.empty() ? "" : ", " + body) + "}}}";
}
std::string Written(const std::string& text, const std::string& role = "") {
  return "{" + (role.empty() ? std::string() : "\"role\": \"" + role + "\", ") +
         R"("body_type": "WrittenOrder", "body": {"text": ")" + text + "\"}}";
}
std::string Y(const std::string& kind, const std::string& body) { return Y1820Db::Item(kind, body); }

// The coming turn's order files of each kind, in the order they are sent.
std::vector<std::pair<std::string, std::string>> OrdersFor(const std::string& kind) {
  if (kind == "nwol") {
    return {
        // The deputy's order for the flagship, then the commander's (senior: it
        // replaces the deputy's), then the deputy's again (the senior's stands).
        {"collingwood", OrderFile({PateItem("ShipOrders", R"({"ship": "BR1FL", "sea1": "ECH"})")})},
        {"nelson", OrderFile({PateItem("ShipOrders", R"({"ship": "BR1FL", "sea1": "NOS"})"),
                              PateItem("ShipOrders", R"({"ship": "FR1SL", "sea1": "ECH"})"),
                              Written("Engage the enemy more closely"),
                              PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "NOS"})"),
                              PateItem("ShipOrders", R"({"ship": "BR2SL", "sea1": "ECH"})")})},
        {"collingwood", OrderFile({PateItem("ShipOrders", R"({"ship": "BR1FL", "sea1": "BIS"})")})},
        // PATE 2.3: appointments carried out when received, one refused.
        {"barham", OrderFile({PateItem("AppointOrder", R"({"ship": "BR2TR", "commander": "hardy"})"),
                              PateItem("AppointOrder", R"({"ship": "BR1TR", "commander": "nobody"})")})},
        {"hardy", OrderFile({PateItem("ShipOrders", R"({"ship": "BR2TR", "sea1": "ECH"})")})},
        // SOW: a purchase, one in another state's city, one named under a role not held.
        {"pitt", OrderFile({OrderItem("BR", "BuySuppliesOrder", R"({"city": "London", "supplies": 2})"),
                            OrderItem("BR", "BuySuppliesOrder", R"({"city": "Paris", "supplies": 2})"),
                            OrderItem("BR", "TransferOrder", R"({"to_state": "SP", "amount_cc": 100})", "BR.naval")})},
    };
  }
  if (kind == "y1820") {
    return {
        {"alice", OrderFile({Y("Y1820Research", R"({"tech": "Railroads"})"), Y("Y1820Research", R"({"tech": "Alchemy"})"),
                             Written("a letter to the GA"), Y("Y1820RallyPoints", R"({"provinces": [99]})")})},
        {"bob", OrderFile({Y("Y1820Research", R"({"tech": "Alchemy"})")})},
        // Y1.3: alice's new file replaces her whole earlier one.
        {"alice", OrderFile({Y("Y1820Research", R"({"tech": "Epidemiology"})"),
                             Y("Y1820RallyPoints", R"({"provinces": [1]})")})},
        {"bob", OrderFile({Y("Y1820Research", R"({"tech": "Railroads"})")})},
    };
  }
  if (kind == "dog") {
    return {
        {"victor", OrderFile({Dog("FR-24L-1", R"("path": [{"x": 600, "y": 800}])"),
                              Dog("FR-24L-1", R"("hold": true)"),  // D12.2: the last for a unit stands
                              Dog("FR-24L-2", R"("charge": "NOPE")"), Dog("FR-9LG-1", R"("face": 400)"),
                              Written("Vive l'Empereur"), Dog("FR-9LG-2", R"("hold": true)")})},
        {"wellesley", OrderFile({Dog("BR-29", R"("hold": true)"), Dog("BR-48-1", R"("hold": true, "path": [{"x": 1, "y": 1}])")})},
        {"victor", OrderFile({Dog("FR-9LG-2", R"("path": [{"x": 1140, "y": 800}])"), Dog("FR-24L-2", R"("hold": true)")})},
    };
  }
  if (kind == "race") {
    return {
        {"ann", OrderFile({Written("advance", "red.runner"), Written("fly", "red.runner"), Written("rest", "red.runner")})},
        {"bob", OrderFile({Written("advance", "blue.runner")})},
        {"bob", OrderFile({Written("rest", "blue.runner"), Written("", "blue.runner")})},
    };
  }
  return {};
}

// The stored bytes' digest with the schema hash zeroed, and the rules
// version too where `newest` (see Line).
std::string BytesDigest(const ledger::EventView& v, bool newest) {
  std::string bytes(reinterpret_cast<const char*>(v.bytes.data()), v.bytes.size());
  const fb::Event* e = v.event();
  auto zero = [&](flatbuffers::voffset_t field, size_t size) {
    if (flatbuffers::voffset_t off = reinterpret_cast<const flatbuffers::Table*>(e)->GetOptionalFieldOffset(field)) {
      const size_t at = reinterpret_cast<const uint8_t*>(e) + off - v.bytes.data();
      std::fill(bytes.begin() + at, bytes.begin() + at + size, '\0');
    }
  };
  zero(fb::Event::VT_SCHEMA_HASH, sizeof(uint64_t));
  if (newest) zero(fb::Event::VT_RULES_VERSION, sizeof(uint32_t));
  return Digest128(bytes).Hex();
}

// An event's line. Orders a game takes before its first adjudication carry
// the newest rules versions (the game has adopted none yet): there the tag
// is written "newest" and left out of the digest, so that a rules version
// added later — which changes outcomes on purpose and is pinned by its own
// conformance cases — does not touch this golden.
std::string Line(const std::string& game, const ledger::EventView& v, bool before_first_phase) {
  const fb::Event* e = v.event();
  const std::string ruleset = e->ruleset() ? e->ruleset()->str() : "";
  const bool newest = before_first_phase && !ruleset.empty() && e->rules_version() == rules::LatestVersion(ruleset);
  std::ostringstream o;
  o << game << " " << v.seq << " " << (e->turn() ? schema::TurnOf(e->turn()).ToString() : "-")
    << "." << e->phase() << " " << fb::EnumNamePayload(e->payload_type());
  if (const auto* a = e->actor()) {
    o << " actor=" << static_cast<int>(a->kind()) << ":" << (a->person() ? a->person()->str() : "") << ":"
      << (a->role() ? a->role()->str() : "");
  }
  o << " ruleset=" << ruleset << " v=" << (newest ? std::string("newest") : std::to_string(e->rules_version())) << " "
    << (e->payload_type() == fb::Payload_PhaseCompleted ? std::string("-") : BytesDigest(v, newest)) << "\n";
  return o.str();
}

std::string Record(const GameKind& kind, const rules::RulesVersions* versions, const std::string& variant) {
  TempDir dir;
  auto db = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(db.ok());
  PlayOptions o;
  o.versions = versions;
  auto played = Play(**db, dir.path(), kind, o);
  INFO(kind.name << " " << variant);
  REQUIRE(played.ok());
  for (const auto& [person, file] : OrdersFor(kind.name)) {
    INFO(person << ": " << file);
    auto r = Order(**db, "g", person, file);
    REQUIRE(r.ok());
  }
  auto adj = replay::Adjudicate(**db, "g", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, versions);
  REQUIRE(adj.ok());
  std::string out;
  bool before_first_phase = true;
  REQUIRE((*db)->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& v) {
    if (v.event()->payload_type() == fb::Payload_PhaseStarted) before_first_phase = false;
    out += Line(kind.name + "/" + variant, v, before_first_phase);
    return Status::Ok();
  }).ok());
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The versions that were the newest when the golden was written (its
// "newest" lines): a rules version added since changes outcomes on purpose,
// and is pinned by its own conformance cases, not by this golden.
rules::RulesVersions NewestWhenWritten() {
  rules::RulesVersions v = rules::LatestVersions();
  for (const auto& [ruleset, version] : {std::pair<const char*, uint32_t>{"sow", 4}, {"pate", 2}, {"y1820", 1},
                                         {"dog", 2}, {"race", 2}}) {
    REQUIRE(v.Set(ruleset, version));
  }
  return v;
}

}  // namespace

TEST_CASE("intake: every kind's recorded events are byte-identical to the golden", "[intake]") {
  std::string all;
  const rules::RulesVersions newest = NewestWhenWritten();
  for (const GameKind& kind : GameKinds()) {
    REQUIRE(!OrdersFor(kind.name).empty());  // a new kind needs its order files here
    all += Record(kind, &newest, "newest");
    all += Record(kind, &kind.older, "older");
  }
  if (std::getenv("ADJUTANT_WRITE_GOLDEN")) {
    std::ofstream(kGolden) << all;
    WARN("wrote " << kGolden);
    return;
  }
  const std::string golden = ReadFile(kGolden);
  REQUIRE(!golden.empty());
  // Line by line, so that a failure names the first event that differs.
  std::istringstream want(golden), got(all);
  std::string w, g;
  for (int n = 1;; ++n) {
    const bool more_wanted = static_cast<bool>(std::getline(want, w));
    const bool more_got = static_cast<bool>(std::getline(got, g));
    if (!more_wanted && !more_got) break;
    INFO("line " << n);
    REQUIRE(g == w);
    w.clear();
    g.clear();
  }
}

TEST_CASE("intake: PhaseWriter::Emit alone stamps the book it is under and that book's tag version", "[intake]") {
  rules::PhaseWriter w("g", "main", 0, {});
  rules::RulesVersions run = rules::LatestVersions();
  REQUIRE(run.Set("dog", 2));
  rules::RulesVersions tags = run;
  REQUIRE(tags.Set("dog", 1));  // as an audit under dog=2 of a game recorded under dog=1
  w.set_rules_versions(run);
  w.set_tag_versions(tags);
  // What a draft says of its ruleset is never what is recorded.
  auto draft = [] {
    Draft d;
    d.ruleset = "forged";
    d.rules_version = 99;
    d.payload = rules::OrderRejectedPayload(1, "R", "why");
    return d;
  };
  w.Emit(draft());  // under no book
  {
    const auto dog = w.Under("dog");
    w.Emit(draft());
    {
      const auto sow = w.Under("sow");  // a book's outcomes inside another's phase
      w.Emit(draft());
    }
    w.Emit(draft());
  }
  w.Emit(draft());
  std::vector<std::pair<std::string, uint32_t>> got;
  for (const Draft& d : w.drafts()) got.emplace_back(d.ruleset, d.rules_version);
  const std::vector<std::pair<std::string, uint32_t>> want = {
      {"", 0}, {"dog", 1}, {"sow", tags.Of("sow")}, {"dog", 1}, {"", 0}};
  CHECK(got == want);
  CHECK(w.rules_versions().Of("dog") == 2);  // the rules still run under dog=2
  CHECK(w.ruleset().empty());
}
