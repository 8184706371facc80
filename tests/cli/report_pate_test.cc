// End to end: a player's two reports (PATE 3.11) with the built binary —
// the events his ships observed and their positions, with the map — for
// the GA (--player) and the player himself (--as, with his password), at
// any past turn; and that they show no ship his ships did not see (DESIGN
// inv. 8).
#include <catch2/catch.hpp>

#include <cctype>
#include <cstring>

#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include "ledger/ledger.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"
#include "support/pate_game.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::Run;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

using Body = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

Draft PateDraft(const TurnPhase& at, fb::PateEventBody type, Body body) {
  Draft d;
  d.at = at;
  d.ruleset = "pate";
  d.rules_version = 1;
  d.payload = [type, body](flatbuffers::FlatBufferBuilder& f) {
    auto e = fb::CreatePateEvent(f, type, body(f));
    return PayloadRef{fb::Payload_PateEvent, e.o};
  };
  return d;
}

// What the test's ships observed: every observation of the game below.
struct Obs {
  Turn turn;
  std::string observer;
  fb::ObservationKind kind;
  std::string location;
  std::vector<std::string> seen;
  int count = 0;
  bool windward = false, harbour = false;
  std::string text, rule = "PATE 5.1";
};

const Turn kT1{1805, 1, 1}, kT2{1805, 1, 2};

const std::vector<Obs>& Observations() {
  static const std::vector<Obs> kAll = {
      {kT1, "BR2SL", fb::ObservationKind_Contact, "ECH", {"FR1FR"}, 0, true, false, "", "PATE 5.1"},
      {kT1, "FR1FR", fb::ObservationKind_Contact, "ECH", {"BR2SL"}, 0, false, false, "", "PATE 5.1"},
      {kT1, "BR1FR", fb::ObservationKind_FrigateSighting, "BIS", {}, 3, false, false, "", "PATE 5.2"},
      {kT1, "BR1SL", fb::ObservationKind_Intelligence, "Portsmouth", {"SP1SL"}, 1, false, false, "", "PATE 5.4"},
      {kT1, "BR1FL", fb::ObservationKind_Event, "Portsmouth", {}, 0, false, false, "a gale in the Channel", "PATE 8"},
      {kT2, "BR2SL", fb::ObservationKind_Contact, "BIS", {"FR1SL", "FR2SL"}, 0, false, false, "", "PATE 5.1"},
      {kT2, "BR1FL", fb::ObservationKind_Contact, "Portsmouth", {"FR1FR"}, 0, false, true, "", "PATE 5.1"},
      {kT2, "FR1SL", fb::ObservationKind_Contact, "BIS", {"BR2SL"}, 0, true, false, "", "PATE 5.1"},
  };
  return kAll;
}

Draft ObservedDraft(const Obs& o, uint16_t phase) {
  return PateDraft({o.turn, phase}, fb::PateEventBody_Observed, [o](flatbuffers::FlatBufferBuilder& f) {
    auto observer = f.CreateString(o.observer), location = f.CreateString(o.location);
    auto seen = f.CreateVectorOfStrings(o.seen);
    auto text = f.CreateString(o.text), rule = f.CreateString(o.rule);
    return fb::CreateObserved(f, observer, o.kind, location, seen, o.count, o.windward, o.harbour, text, rule)
        .Union();
  });
}

Draft MovedDraft(const TurnPhase& at, const std::string& ship, const std::string& to, uint8_t tactical) {
  return PateDraft(at, fb::PateEventBody_ShipMoved, [=](flatbuffers::FlatBufferBuilder& f) {
    return fb::CreateShipMovedDirect(f, ship.c_str(), to.c_str(), fb::PortPart_Sea, tactical, "PATE 6.5").Union();
  });
}

// The small NWOL game of tests/support/pate_game, played for two turns by
// hand: observations in each, BR2SL, FR1SL and FR2SL sailing into Biscay
// and FR3SL to the Western Mediterranean in turn 2.
struct Game {
  TempDir dir;
  std::string db = dir.Sub("db");
  Game() {
    {
      auto l = ledger::Ledger::Open(db);
      REQUIRE(l.ok());
      auto st = testing::CreateNwolGame(**l, "g", testing::PateScenario());
      INFO(st.message());
      REQUIRE(st.ok());
    }
    std::ofstream(dir.Sub("pw")) << "Trafalgar 1805\n";
    std::ofstream(dir.Sub("bad")) << "Copenhagen 1801\n";
    auto pw = Do({"password", "g", "--person", "nelson", "--password-file", dir.Sub("pw")});
    INFO(pw.err);
    REQUIRE(pw.code == 0);
    {
      auto l = ledger::Ledger::Open(db);
      REQUIRE(l.ok());
      std::vector<Draft> t1, t2;
      for (const auto& o : Observations()) (o.turn == kT1 ? t1 : t2).push_back(ObservedDraft(o, 11));
      t2.insert(t2.begin(), {MovedDraft({kT2, 9}, "BR2SL", "BIS", 2), MovedDraft({kT2, 9}, "FR1SL", "BIS", 2),
                             MovedDraft({kT2, 9}, "FR2SL", "BIS", 2), MovedDraft({kT2, 9}, "FR3SL", "WMD", 1)});
      for (auto* batch : {&t1, &t2}) {
        auto h = (*l)->HeadOf("g", "main");
        REQUIRE(h.ok());
        auto r = (*l)->Append("g", "main", h->seq, *batch);
        INFO((r.ok() ? "" : r.status().message()));
        REQUIRE(r.ok());
      }
    }
  }
  Run Do(std::vector<std::string> args, std::vector<std::string> env = {}) {
    args.insert(args.begin(), {"--db", db});
    return Adjutant(args, env);
  }
};

// Every ship id (PATE 2.2: state, number, type) in a text.
std::set<std::string> ShipIds(const std::string& text) {
  static const std::regex kId("[A-Z]{2,3}[1-9][0-9]*(FL|SL|FR|TR)");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kId); it != std::sregex_iterator(); ++it) {
    out.insert(it->str());
  }
  return out;
}

// Attributes as XML has them: each after white space, a name, '=' and a
// quoted value without '<'. By hand: std::regex recurses per character and
// overflows the stack on a drawn region's long path data.
bool GoodAttributes(const std::string& a) {
  auto is = [](char c, const char* more) {
    return std::isalpha(static_cast<unsigned char>(c)) || std::strchr(more, c) != nullptr;
  };
  size_t i = 0;
  while (true) {
    const size_t before = i;
    while (i < a.size() && std::isspace(static_cast<unsigned char>(a[i]))) ++i;
    if (i >= a.size()) return true;
    if (i == before || !is(a[i], "_:")) return false;
    while (i < a.size() && (is(a[i], ":_.-") || std::isdigit(static_cast<unsigned char>(a[i])))) ++i;
    if (i + 1 >= a.size() || a[i] != '=' || a[i + 1] != '"') return false;
    for (i += 2; i < a.size() && a[i] != '"'; ++i) {
      if (a[i] == '<') return false;
    }
    if (i >= a.size()) return false;
    ++i;
  }
}

// Well-formed XML, as far as an SVG writer can go wrong: one prolog, every
// tag closed in order, attributes quoted, no bare '&' or '<' in text.
std::string XmlProblem(const std::string& x) {
  std::vector<std::string> open;
  size_t i = 0;
  if (x.rfind("<?xml ", 0) == 0) i = x.find("?>") + 2;
  int roots = 0;
  while (i < x.size()) {
    size_t lt = x.find('<', i);
    std::string text = x.substr(i, (lt == std::string::npos ? x.size() : lt) - i);
    for (size_t a = text.find('&'); a != std::string::npos; a = text.find('&', a + 1)) {
      if (!std::regex_search(text.substr(a), std::regex("^&(amp|lt|gt|quot|apos);"))) return "bare & in text";
    }
    if (lt == std::string::npos) break;
    size_t gt = x.find('>', lt);
    if (gt == std::string::npos) return "unclosed tag";
    std::string tag = x.substr(lt + 1, gt - lt - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag";
    if (tag.rfind('/', 0) == 0) {
      if (open.empty() || open.back() != tag.substr(1)) return "</" + tag.substr(1) + "> closes nothing open";
      open.pop_back();
    } else {
      bool empty = !tag.empty() && tag.back() == '/';
      std::string name = tag.substr(0, tag.find_first_of(" \n/"));
      std::string attrs = tag.substr(name.size(), tag.size() - name.size() - (empty ? 1 : 0));
      if (!GoodAttributes(attrs)) return "bad attributes in <" + name + ">";
      if (open.empty() && ++roots > 1) return "more than one root";
      if (!empty) open.push_back(name);
    }
    i = gt + 1;
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

// Who commands what in PateScenario (PATE 2.3), read from the scenario
// itself: SHIP.commander and SHIP.deputy give that ship, S.naval every
// ship of S.
std::map<std::string, std::set<std::string>> ShipsOf() {
  auto buf = schema::ParseJson("Scenario", testing::PateScenario(), "scenario");
  REQUIRE(buf.ok());
  const auto* sc = flatbuffers::GetRoot<fb::Scenario>(buf->data());
  std::map<std::string, std::set<std::string>> out;
  for (const auto* p : *sc->players()) {
    auto& ships = out[p->person()->str()];
    if (!p->roles()) continue;
    for (const auto* r : *p->roles()) {
      std::string role = r->str(), who = role.substr(0, role.find('.')), post = role.substr(role.find('.') + 1);
      if (post == "commander" || post == "deputy") ships.insert(who);
      if (post == "naval") {
        for (const auto* sh : *sc->sow()->ships()) if (sh->state()->str() == who) ships.insert(sh->id()->str());
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("PATE 3.11: the events report lists what the player's ships observed, in words", "[pate][visibility][cli]") {
  Game g;
  auto now = g.Do({"report", "events", "g", "--player", "nelson"});
  INFO(now.err);
  REQUIRE(now.code == 0);
  CHECK_THAT(now.out, Catch::StartsWith("Events report for nelson: turn 1805.1.2 (Spring 1805, turn 2)   [g/main, as of seq"));
  CHECK_THAT(now.out, Catch::Contains("Ships reporting: BR1FL, BR1FR, BR2SL"));
  CHECK_THAT(now.out, Catch::Contains("  BR1FL (Victory) at Portsmouth: in contact with FR1FR in the harbour  [PATE 5.1]\n"));
  CHECK_THAT(now.out, Catch::Contains("  BR2SL (Colossus) at BIS: in contact with FR1SL, FR2SL (to leeward)  [PATE 5.1]\n"));
  CHECK_THAT(now.out, !Catch::Contains("gale"));  // turn 1's
  auto then = g.Do({"report", "events", "g", "--player", "nelson", "--turn", "1805.1.1"});
  REQUIRE(then.code == 0);
  CHECK_THAT(then.out, Catch::StartsWith("Events report for nelson: turn 1805.1.1 (Spring 1805, turn 1)   [g/main, as of seq"));
  CHECK_THAT(then.out, Catch::Contains("  BR2SL (Colossus) at ECH: in contact with FR1FR (to windward)  [PATE 5.1]\n"));
  CHECK_THAT(then.out, Catch::Contains("  BR1FR (Euryalus) at BIS: sighted about 3 ships  [PATE 5.2]\n"));
  CHECK_THAT(then.out, Catch::Contains("  BR1FL (Victory) at Portsmouth: a gale in the Channel  [PATE 8]\n"));
  CHECK_THAT(then.out, !Catch::Contains("SP1SL"));  // collingwood's BR1SL heard of her, not nelson's ships
  auto coll = g.Do({"report", "events", "g", "--player", "collingwood", "--turn", "1805.1.1"});
  CHECK_THAT(coll.out, Catch::Contains("  BR1SL (Mars) at Portsmouth: intelligence reports about 1 ship (SP1SL) here at "
                                       "the start of the turn (reports may be inaccurate)  [PATE 5.4]\n"));
  auto json = g.Do({"report", "events", "g", "--player", "nelson", "--json"});
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Catch::StartsWith("{\"game\": \"g\",\"branch\": \"main\",\"person\": \"nelson\","
                                         "\"turn\": {\"major\": 1805,\"minor\": 1,\"step\": 2}"));
  CHECK_THAT(json.out, Catch::Contains("\"kind\": \"Contact\",\"location\": \"BIS\",\"seen\": [\"FR1SL\",\"FR2SL\"]"));
  auto nothing = g.Do({"report", "events", "g", "--player", "hardy"});
  CHECK(nothing.code == 0);
  CHECK_THAT(nothing.out, Catch::Contains("Ships reporting: none\nNothing was observed.\n"));
}

TEST_CASE("PATE 3.11: the positions report, now and at the end of a past turn, with its map", "[pate][visibility][cli]") {
  Game g;
  std::string svg_path = g.dir.Sub("out.svg");
  auto now = g.Do({"report", "positions", "g", "--player", "nelson", "--svg", svg_path});
  INFO(now.err);
  REQUIRE(now.code == 0);
  CHECK_THAT(now.out, Catch::StartsWith("Position report for nelson: end of turn 1805.1.2 (Spring 1805, turn 2)"));
  CHECK_THAT(now.out, Catch::Contains("BR2SL (Colossus), SL of BR\n  Commander: nelson   Deputy: -\n"
                                      "  Location: at sea in BIS, tactical area 2\n"
                                      "  Stores: 12   Crew: 600   Marines: 150   Hull damage: 0   Rigging damage: 2\n"
                                      "  Seen: at BIS: in contact with FR1SL, FR2SL (to leeward)  [PATE 5.1]\n"));
  CHECK_THAT(now.out, Catch::Contains("BR1FL (Victory), FL of BR\n  Commander: nelson   Deputy: collingwood\n"
                                      "  Location: Portsmouth, in the harbour (ECH)\n"));
  CHECK_THAT(now.out, Catch::Contains("BR1FR (Euryalus), FR of BR\n"));
  // The map: well formed, nelson's ships in their areas, what they saw.
  std::string svg = Slurp(svg_path);
  INFO(XmlProblem(svg));
  CHECK(XmlProblem(svg).empty());
  CHECK_THAT(svg, Catch::StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(svg, Catch::EndsWith("</svg>\n"));
  for (const char* id : {"BR1FL", "BR2SL", "BR1FR", "FR1SL", "FR2SL", "FR1FR"}) CHECK_THAT(svg, Catch::Contains(id));
  CHECK_THAT(svg, Catch::Contains("data-area=\"BIS\""));              // the sea area, a region of water
  CHECK_THAT(svg, Catch::Contains("<title>Portsmouth (Britain, held by BR), on ECH"));  // ports at their places
  // Deterministic: the same log, the same bytes.
  std::string again_path = g.dir.Sub("again.svg");
  REQUIRE(g.Do({"report", "positions", "g", "--player", "nelson", "--svg", again_path}).code == 0);
  CHECK(Slurp(again_path) == svg);
  // At the end of turn 1 BR2SL was still in the Channel, and had not seen FR1SL.
  auto then = g.Do({"report", "positions", "g", "--player", "nelson", "--turn", "1805.1.1", "--svg", g.dir.Sub("t1.svg")});
  REQUIRE(then.code == 0);
  CHECK_THAT(then.out, Catch::Contains("BR2SL (Colossus), SL of BR\n  Commander: nelson   Deputy: -\n"
                                       "  Location: at sea in ECH, tactical area 1\n"));
  CHECK_THAT(then.out, Catch::Contains("  Seen: at ECH: in contact with FR1FR (to windward)  [PATE 5.1]\n"));
  CHECK_THAT(then.out, !Catch::Contains("FR1SL"));
  CHECK_THAT(Slurp(g.dir.Sub("t1.svg")), !Catch::Contains("FR1SL"));
  auto json = g.Do({"report", "positions", "g", "--player", "nelson", "--turn", "1805.1.1", "--json"});
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"id\": \"BR2SL\",\"name\": \"Colossus\",\"state\": \"BR\",\"type\": \"SL\","
                                       "\"location\": \"ECH\",\"sea_area\": \"ECH\",\"position\": \"at sea\",\"tactical\": 1"));
  auto json_now = g.Do({"report", "positions", "g", "--player", "nelson", "--json"});
  CHECK_THAT(json_now.out, Catch::Contains("\"location\": \"BIS\",\"sea_area\": \"BIS\",\"position\": \"at sea\",\"tactical\": 2"));
  // Turns that are not there, and a bad turn.
  auto later = g.Do({"report", "positions", "g", "--player", "nelson", "--turn", "1805.1.9"});
  CHECK(later.code == 2);
  CHECK_THAT(later.err, Catch::Contains("has not begun"));
  CHECK(g.Do({"report", "positions", "g", "--player", "nelson", "--turn", "soon"}).code == 2);
  // Turn 3 has begun (BR2SL sailed on), nothing observed in it yet: by
  // default the report is still the end of turn 2's.
  {
    auto l = ledger::Ledger::Open(g.db);
    REQUIRE(l.ok());
    auto h = (*l)->HeadOf("g", "main");
    REQUIRE(h.ok());
    std::vector<Draft> t3 = {MovedDraft({{1805, 1, 3}, 9}, "BR2SL", "WAP", 1)};
    REQUIRE((*l)->Append("g", "main", h->seq, t3).ok());
  }
  auto still = g.Do({"report", "positions", "g", "--player", "nelson"});
  CHECK_THAT(still.out, Catch::StartsWith("Position report for nelson: end of turn 1805.1.2 (Spring 1805, turn 2)"));
  CHECK_THAT(still.out, Catch::Contains("  Location: at sea in BIS, tactical area 2\n"));
  auto t3 = g.Do({"report", "positions", "g", "--player", "nelson", "--turn", "1805.1.3"});
  CHECK_THAT(t3.out, Catch::Contains("  Location: at sea in WAP, tactical area 1\n  Stores"));
  CHECK_THAT(t3.out, Catch::Contains("  Seen: nothing\n"));
}

TEST_CASE("PATE 2.3, 3.11: --as needs the player's password — --player needs a person of the game", "[pate][visibility][cli]") {
  Game g;
  const std::string refused = "adjutant report: wrong person or password for game 'g'\n";
  auto wrong = g.Do({"report", "positions", "g", "--as", "nelson", "--password-file", g.dir.Sub("bad"), "--svg", g.dir.Sub("x.svg")});
  CHECK(wrong.code == 2);
  CHECK(wrong.err == refused);
  CHECK(wrong.out.empty());
  CHECK(Slurp(g.dir.Sub("x.svg")).empty());  // nothing written
  auto stranger = g.Do({"report", "events", "g", "--as", "bonaparte", "--password-file", g.dir.Sub("pw")});
  CHECK(stranger.code == 2);
  CHECK(stranger.err == refused);
  auto unset = g.Do({"report", "events", "g", "--as", "collingwood", "--password-file", g.dir.Sub("pw")});
  CHECK(unset.err == refused);  // no password set for him yet
  auto none = g.Do({"report", "events", "g", "--as", "nelson"});
  CHECK(none.code == 2);
  CHECK_THAT(none.err, Catch::Contains("no password: give --password-file FILE, set ADJUTANT_PASSWORD"));
  // With it, he reads what the GA reads for him, past turns too.
  for (std::vector<std::string> turn : {std::vector<std::string>{}, std::vector<std::string>{"--turn", "1805.1.1"}}) {
    std::vector<std::string> as = {"report", "positions", "g", "--as", "nelson", "--password-file", g.dir.Sub("pw")};
    std::vector<std::string> ga = {"report", "positions", "g", "--player", "nelson"};
    as.insert(as.end(), turn.begin(), turn.end());
    ga.insert(ga.end(), turn.begin(), turn.end());
    auto mine = g.Do(as);
    CHECK(mine.code == 0);
    CHECK(mine.out == g.Do(ga).out);
  }
  auto env = g.Do({"report", "events", "g", "--as", "nelson"}, {"ADJUTANT_PASSWORD=Trafalgar 1805"});
  CHECK(env.code == 0);
  CHECK_THAT(env.out, Catch::StartsWith("Events report for nelson"));
  auto unknown = g.Do({"report", "events", "g", "--player", "bonaparte"});
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("--player: no person 'bonaparte' in game 'g' (persons: barham, collingwood,"));
  auto neither = g.Do({"report", "positions", "g"});
  CHECK(neither.code == 2);
  CHECK_THAT(neither.err, Catch::Contains("give --player P (the GA) or --as P (the player)"));
  CHECK(g.Do({"report", "positions", "g", "--player", "nelson", "--as", "nelson"}).code == 2);
  CHECK_THAT(g.Do({"report", "events", "g", "--player", "nelson", "--svg", g.dir.Sub("e.svg")}).err,
             Catch::Contains("--svg does not apply"));
  CHECK_THAT(g.Do({"report", "treasury", "g", "--state", "BR", "--player", "nelson"}).err,
             Catch::Contains("--player does not apply"));
}

TEST_CASE("DESIGN inv. 8: a player's reports name no ship his ships did not see", "[pate][visibility][cli]") {
  Game g;
  for (const auto& [person, own] : ShipsOf()) {
    for (const Turn& turn : {kT1, kT2}) {
      // What he may be shown: his ships, and those his ships' observations name.
      std::set<std::string> allowed = own;
      for (const auto& o : Observations()) {
        if (o.turn == turn && own.count(o.observer)) allowed.insert(o.seen.begin(), o.seen.end());
      }
      std::string t = turn.ToString(), svg = g.dir.Sub(person + t + ".svg");
      std::string shown;
      for (std::vector<std::string> args : {std::vector<std::string>{"events"}, std::vector<std::string>{"events", "--json"},
                                            std::vector<std::string>{"positions"},
                                            std::vector<std::string>{"positions", "--json", "--svg", svg}}) {
        args.insert(args.begin() + 1, {"g", "--player", person, "--turn", t});
        args.insert(args.begin(), "report");
        auto r = g.Do(args);
        INFO(person << " " << t << ": " << r.err);
        REQUIRE(r.code == 0);
        shown += r.out;
      }
      shown += Slurp(svg);
      INFO(person << " at the end of " << t);
      for (const auto& id : ShipIds(shown)) {
        INFO(id);
        CHECK(allowed.count(id) == 1);
      }
      // And his own ships are all there.
      for (const auto& id : own) CHECK(shown.find(id) != std::string::npos);
    }
  }
  // The enemy ships nelson's ships never saw are in the fleet all along.
  auto fleet = g.Do({"report", "fleet", "g"});
  CHECK_THAT(fleet.out, Catch::Contains("FR3SL") && Catch::Contains("SP1SL"));
  CHECK_THAT(g.Do({"report", "events", "g", "--player", "nelson"}).out, !Catch::Contains("FR3SL") && !Catch::Contains("SP1SL"));
}

TEST_CASE("DESIGN inv. 8: after a turn the pate rules adjudicated, each report names only what its ships saw", "[pate][visibility][cli]") {
  TempDir dir;
  std::string db = dir.Sub("db");
  {
    auto l = ledger::Ledger::Open(db);
    REQUIRE(l.ok());
    REQUIRE(testing::CreateNwolGame(**l, "g", testing::PateScenario()).ok());
  }
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db});
    auto r = Adjutant(args);
    INFO(Catch::rangeToString(args) << ": " << r.err);
    REQUIRE(r.code == 0);
    return r.out;
  };
  run({"adjudicate", "g"});
  // What each ship saw in turn 1, read from the log itself.
  std::map<std::string, std::set<std::string>> saw;
  {
    auto l = ledger::Ledger::Open(db, {.read_only = true});
    REQUIRE(l.ok());
    REQUIRE((*l)->Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                  const auto* pe = e.event()->payload_as_PateEvent();
                  const auto* o = pe ? pe->body_as_Observed() : nullptr;
                  if (o && e.event()->turn()->step() == 1) {
                    auto& s = saw[o->observer()->str()];
                    if (o->seen()) for (const auto* id : *o->seen()) s.insert(id->str());
                  }
                  return Status::Ok();
                }).ok());
  }
  REQUIRE(saw.size() > 3);  // the intelligence phase ran
  size_t others_shown = 0;    // ids of ships not the viewer's, shown because his ships saw them
  for (const auto& [person, own] : ShipsOf()) {
    std::string svg = dir.Sub(person + ".svg");
    std::string shown = run({"report", "events", "g", "--player", person, "--turn", "1805.1.1"}) +
                        run({"report", "events", "g", "--player", person, "--turn", "1805.1.1", "--json"}) +
                        run({"report", "positions", "g", "--player", person, "--turn", "1805.1.1"}) +
                        run({"report", "positions", "g", "--player", person, "--turn", "1805.1.1", "--json", "--svg", svg});
    shown += Slurp(svg);
    // His ships (a Naval Minister's: any of his state's, prizes too) and
    // what they saw.
    std::set<std::string> states;
    for (const auto& id : own) states.insert(id.substr(0, 2));
    bool naval = person == "barham" || person == "decres";
    auto mine = [&](const std::string& id) { return own.count(id) || (naval && states.count(id.substr(0, 2))); };
    std::set<std::string> allowed;
    for (const auto& [ship, ids] : saw) if (mine(ship)) allowed.insert(ids.begin(), ids.end());
    INFO(person);
    for (const auto& id : ShipIds(shown)) {
      INFO(id);
      CHECK((mine(id) || allowed.count(id)));
      others_shown += !mine(id);
    }
    if (own.empty()) CHECK(ShipIds(shown).empty());
  }
  CHECK(others_shown > 0);
}
