// Report proofs (issue 23): `adjutant proof` gives a player his events of a
// turn with a multi-leaf proof under the turn's signed head and the
// consistency proof from the head before; `adjutant verify-report` checks
// them with nothing but the files. On every kind of game, and end to end on
// ten turns of the 1805 game for three players: every proof verifies, chained
// to the one before; no proof holds another player's event, nor the hash of
// one except as a sibling; and when the GA presents a rewritten history (a
// corrected branch made current), every player's next proof fails
// consistency with the one he holds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/build_paths.h"
#include "base/merkle.h"
#include "base/report_proof.h"
#include "base/signing.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "replay/driver.h"
#include "replay/proofs.h"
#include "projections/visibility.h"
#include "projections/y1820.h"
#include "reports/footer.h"
#include "reports/packet.h"
#include "reports/reports.h"
#include "reports/sources.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "support/desk_client.h"
#include "support/kinds.h"
#include "support/pate_game.h"
#include "support/sow_game.h"
#include "support/run.h"
#include "support/temp_dir.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;

namespace {

ReportProofData Parse(const std::string& json) {
  auto buf = schema::ParseJson("ReportProof", json, "proof");
  REQUIRE(buf.ok());
  auto d = replay::ReportProofFrom(*flatbuffers::GetRoot<fb::ReportProof>(buf->data()));
  REQUIRE(d.ok());
  return *d;
}

std::string Write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// Who may see each event of the game: an oracle written from the books'
// rules apart from reports/sources.cc (generated accessors and the event's
// JSON, not its reflection). An order and its outcomes: its person's. The
// dice and key directives: everyone's. A ship's event (a pate event whose
// `ship` or `observer` is she) and a roll about her: her commander's, her
// deputy's and her state's Naval Minister's (PATE 2.3). A state's event (a
// sow event's `state`, or the state of the build, unit, ship or repair it
// names; the seasons are everyone's): its Finance and Prime Ministers'. A
// nation's (any nation the 1820 event names as a party; a combat round's
// two dice, its sides'): its ruler's. A roll about X: whoever holds a role
// "X.what". The weather of a sea area (WindSet, its wind and storm rolls):
// those of the ships that have been there. A PATE battle's own rolls (its
// subject the battle): the ships' that fought it, as their Battle
// observations name it. A battle's (a dog event, a roll in a battle): every general's,
// but a refused intention only its unit's side's.
struct Owners {
  std::map<uint64_t, std::vector<uint8_t>> bytes;
  std::map<uint64_t, std::string> person;       // orders and their outcomes: whose ("" for other events)
  std::map<uint64_t, std::set<std::string>> of;  // other events: "public", "ship:ID", "state:S", "nation:N", "battle",
                                                 // "side:D", "role:X", "area:A"
  std::map<std::string, std::set<std::string>> been;  // ship -> the sea areas she was in at some time of the game
};

// The string value of `"field": "..."` in an event's JSON, "" if none.
std::string JsonField(const std::string& json, const std::string& field) {
  const std::string key = "\"" + field + "\":";
  size_t at = json.find(key);
  if (at == std::string::npos) return "";
  at = json.find('"', at + key.size());
  const size_t end = at == std::string::npos ? at : json.find('"', at + 1);
  return end == std::string::npos ? "" : json.substr(at + 1, end - at - 1);
}

// y1820: every combat round of a game's branch, in order, with the two dice rolled just before it.
struct Y1820RoundSeen {
  uint64_t seq;
  Turn turn;
  int32_t province;
  std::string attacker, defender;
  std::vector<uint64_t> dice;
};
std::vector<Y1820RoundSeen> Y1820RoundsOf(ledger::Ledger& db, const std::string& game) {
  std::vector<Y1820RoundSeen> rounds;
  std::vector<uint64_t> rolled;
  REQUIRE(db.Read(game, "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
              const fb::Event& ev = *e.event();
              if (ev.payload_type() == fb::Payload_DieRolled) {
                rolled.push_back(e.seq);
                return Status::Ok();
              }
              const auto* ye = ev.payload_as_Y1820Event();
              if (const auto* c = ye ? ye->body_as_Y1820CombatRound() : nullptr) {
                rounds.push_back({e.seq, schema::TurnOf(ev.turn()), c->province(), c->attacker()->str(),
                                  c->defender()->str(), rolled});
              }
              rolled.clear();
              return Status::Ok();
            }).ok());
  return rounds;
}

Owners OwnersOf(ledger::Ledger& db, const std::string& branch) {
  Owners o;
  std::map<std::string, std::string> side_of_unit;  // dog: from the scenario
  std::map<std::string, std::vector<uint64_t>> rolls_about;    // subject -> the rolls about it
  std::map<std::string, std::set<std::string>> battle_ships;   // pate: battle id -> the ships that fought it
  std::vector<uint64_t> rolls_since, last_rolls;
  std::map<std::string, std::string> state_of;                 // sow: a unit's or a build's state
  std::map<std::string, std::set<std::string>> repairing;      // sow: city -> the states that began repairs there
  // y1820: each province's owner now, and as each turn began and ended; each
  // combat round in a province, with its turn and dice (a round fought on a
  // nation's ground is that nation's too).
  std::map<int32_t, std::string> owner;
  std::map<std::string, std::map<int32_t, std::string>> owner_at_start, owner_at_end;  // turn -> province -> nation
  std::string turn_now;
  struct Round { uint64_t seq; std::string turn; int32_t province; std::vector<uint64_t> dice; };
  std::vector<Round> rounds;
  REQUIRE(db.Read("g", branch, 1, UINT64_MAX, [&](const ledger::EventView& e) {
              o.bytes[e.seq].assign(e.bytes.begin(), e.bytes.end());
              const fb::Event& ev = *e.event();
              if (const std::string t = schema::TurnOf(ev.turn()).ToString(); t != turn_now) {
                if (!turn_now.empty()) owner_at_end[turn_now] = owner;
                turn_now = t;
                owner_at_start.emplace(t, owner);
              }
              // The dice rolled since the last other event (a 1820 combat round's two).
              if (ev.payload_type() == fb::Payload_DieRolled) {
                rolls_since.push_back(e.seq);
              } else {
                last_rolls.swap(rolls_since);
                rolls_since.clear();
              }
              std::string who;
              if (const auto* s = ev.payload_as_OrderSubmitted()) who = s->person()->str();
              if (const auto* r = ev.payload_as_OrderRejected()) who = o.person[r->order_seq()];
              if (const auto* s = ev.payload_as_OrderSuperseded()) who = o.person[s->order_seq()];
              o.person[e.seq] = who;
              if (!who.empty()) return Status::Ok();
              auto json = schema::ToJson("Event", e.bytes.data());
              REQUIRE(json.ok());
              std::set<std::string>& of = o.of[e.seq];
              if (const auto* g = ev.payload_as_GameCreated(); g && g->scenario() && g->scenario()->sow() && g->scenario()->sow()->units()) {
                for (const auto* u : *g->scenario()->sow()->units()) state_of[u->id()->str()] = u->state()->str();
              }
              if (const auto* g = ev.payload_as_GameCreated(); g && g->scenario() && g->scenario()->y1820() && g->scenario()->y1820()->nations()) {
                for (const auto* n : *g->scenario()->y1820()->nations()) {
                  if (n->provinces()) for (int32_t p : *n->provinces()) owner[p] = n->id()->str();
                }
                owner_at_start[turn_now] = owner;
              }
              if (const auto* g = ev.payload_as_GameCreated(); g && g->scenario() && g->scenario()->dog() && g->scenario()->dog()->units()) {
                for (const auto* u : *g->scenario()->dog()->units()) side_of_unit[u->id()->str()] = u->side()->str();
              }
              if (const auto* d = ev.payload_as_Directive()) {
                if (d->body_as_CommitDice() || d->body_as_RevealDice() || d->body_as_SigningKey()) of.insert("public");
              } else if (const auto* r = ev.payload_as_DieRolled()) {
                const std::string subject = r->subject() ? r->subject()->str() : "";
                rolls_about[subject].push_back(e.seq);
                of.insert("ship:" + subject);
                of.insert("role:" + subject);
                of.insert("area:" + subject);
                if (!side_of_unit.empty()) of.insert("battle");
              } else if (const auto* pe = ev.payload_as_PateEvent()) {
                const std::string ship = pe->body_type() == fb::PateEventBody_Observed ? JsonField(*json, "observer")
                                                                                        : JsonField(*json, "ship");
                if (!ship.empty()) of.insert("ship:" + ship);
                if (pe->body_type() == fb::PateEventBody_ShipMoved) o.been[ship].insert(JsonField(*json, "location"));
                if (pe->body_type() == fb::PateEventBody_WindSet) of.insert("area:" + JsonField(*json, "area"));
                // A battle fought: every ship in it observes it, its text
                // opening with the battle's id (the subject of its rolls).
                if (const auto* ob = pe->body_as_Observed(); ob && ob->kind() == fb::ObservationKind_Battle && ob->text()) {
                  const std::string text = ob->text()->str();
                  battle_ships[text.substr(0, text.find(": "))].insert(ob->observer()->str());
                }
              } else if (const auto* se = ev.payload_as_SowEvent()) {
                if (std::string st = JsonField(*json, "state"); !st.empty()) of.insert("state:" + st);
                // Those that name no state: their build's, unit's, ship's, repair's; the seasons, everyone's.
                if (const auto* b = se->body_as_BuildStarted()) state_of[b->build_id()->str()] = b->state()->str();
                if (const auto* r = se->body_as_RepairStarted()) repairing[r->city()->str()].insert(r->state()->str());
                if (const auto* b = se->body_as_BuildProgressed()) of.insert("state:" + state_of[b->build_id()->str()]);
                if (const auto* b = se->body_as_BuildCompleted()) of.insert("state:" + state_of[b->build_id()->str()]);
                if (const auto* u = se->body_as_UnitReinforced()) of.insert("state:" + state_of[u->unit()->str()]);
                if (const auto* u = se->body_as_UnitDisbanded()) of.insert("state:" + state_of[u->unit()->str()]);
                if (const auto* sh = se->body_as_ShipCrewed()) of.insert("state:" + projections::StateOfShipId(sh->ship()->str()));
                if (const auto* sh = se->body_as_ShipRemoved()) of.insert("state:" + projections::StateOfShipId(sh->ship()->str()));
                if (const auto* r = se->body_as_RepairCompleted()) {
                  for (const std::string& st : repairing[r->city()->str()]) of.insert("state:" + st);
                }
                if (se->body_as_SeasonStarted() || se->body_as_SeasonEnded()) of.insert("public");
              } else if (const auto* ye = ev.payload_as_Y1820Event()) {
                if (std::string n = JsonField(*json, "nation"); !n.empty()) of.insert("nation:" + n);
                // The other nations an event is about, table by table (Y9, Y10, Y11, Y16).
                auto both = [&](const flatbuffers::String* x, const flatbuffers::String* y) {
                  for (const auto* n : {x, y}) {
                    if (n && n->size()) of.insert("nation:" + n->str());
                  }
                };
                if (const auto* c = ye->body_as_Y1820CombatRound()) {
                  both(c->attacker(), c->defender());
                  for (uint64_t roll : last_rolls) o.of[roll].insert({"nation:" + c->attacker()->str(), "nation:" + c->defender()->str()});
                  if (c->province() != 0) rounds.push_back({e.seq, turn_now, c->province(), last_rolls});
                }
                if (const auto* c = ye->body_as_Y1820ProvinceCaptured()) {
                  both(c->from(), c->to());
                  owner[c->province()] = c->to()->str();
                }
                if (const auto* c = ye->body_as_Y1820ProvinceSurrendered()) {
                  both(c->from(), c->to());
                  owner[c->province()] = c->to()->str();
                }
                if (const auto* c = ye->body_as_Y1820ProvinceTransferred()) {
                  both(c->from(), c->to());
                  owner[c->province()] = c->to()->str();
                }
                if (const auto* c = ye->body_as_Y1820ProvinceRevolted()) owner[c->province()] = "";
                if (const auto* c = ye->body_as_Y1820TradePending()) both(c->from(), c->to());
                if (const auto* c = ye->body_as_Y1820TreatyInForce()) both(c->a(), c->b());
                if (const auto* c = ye->body_as_Y1820TreatyAnnounced()) both(c->other(), nullptr);
                if (const auto* c = ye->body_as_Y1820WarDeclared()) both(c->target(), nullptr);
                if (const auto* c = ye->body_as_Y1820NationEliminated()) both(c->by(), nullptr);
                if (const auto* c = ye->body_as_Y1820GameEnded()) both(c->winner(), nullptr);
              } else if (const auto* de = ev.payload_as_DogEvent()) {
                if (const auto* r = de->body_as_DogIntentRefused()) {
                  of.insert("side:" + side_of_unit[r->unit()->str()]);
                } else {
                  of.insert("battle");
                }
              }
              return Status::Ok();
            }).ok());
  // y1820: a round fought in a province a nation held as its turn began or
  // ended, and the round's dice, are that nation's too.
  owner_at_end[turn_now] = owner;
  for (const Round& r : rounds) {
    for (const auto* at : {&owner_at_start[r.turn], &owner_at_end[r.turn]}) {
      auto it = at->find(r.province);
      if (it == at->end() || it->second.empty()) continue;
      o.of[r.seq].insert("nation:" + it->second);
      for (uint64_t roll : r.dice) o.of[roll].insert("nation:" + it->second);
    }
  }
  // A battle's own rolls (PATE 7.4-7.8): its ships'.
  for (const auto& [battle, ships] : battle_ships) {
    for (uint64_t seq : rolls_about[battle]) {
      for (const std::string& ship : ships) o.of[seq].insert("ship:" + ship);
    }
  }
  // Where each ship began and ended the game.
  for (uint64_t upto : {uint64_t{2}, uint64_t{UINT64_MAX}}) {
    auto w = replay::Fold(db, "g", branch, upto);
    REQUIRE(w.ok());
    for (const auto& [id, ship] : w->fleet().state().ships) o.been[id].insert(ship.location);
  }
  return o;
}

// What `person` holds, from his roles as the game's roster stands.
std::set<std::string> HeldBy(ledger::Ledger& db, const std::string& person, const Owners& o) {
  auto v = reports::PersonNow(db, "g", "main", person);
  REQUIRE(v.ok());
  std::set<std::string> out = {"public"};
  for (const std::string& role : v->roles) {
    const size_t dot = role.rfind('.');
    const std::string x = role.substr(0, dot), what = role.substr(dot + 1);
    out.insert("role:" + x);
    if (what == "commander" || what == "deputy") out.insert("ship:" + x);
    if (what == "treasury" || what == "prime") out.insert("state:" + x);
    if (what == "ruler") out.insert("nation:" + x);
    if (what == "general") out.insert({"side:" + x, "battle"});
    if (what == "naval") {
      for (const auto& [seq, of] : o.of) {
        for (const std::string& p : of) {
          if (p.rfind("ship:", 0) == 0 && projections::StateOfShipId(p.substr(5)) == x) out.insert(p);
        }
      }
    }
  }
  // The weather where his ships have been (PATE 1.4, 8).
  for (const std::string& h : std::set<std::string>(out)) {
    if (h.rfind("ship:", 0) != 0) continue;
    if (auto b = o.been.find(h.substr(5)); b != o.been.end()) {
      for (const std::string& area : b->second) out.insert("area:" + area);
    }
  }
  return out;
}

uint64_t SplitOf(uint64_t n) {  // the largest power of two smaller than n (n > 1)
  uint64_t k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

// The subtrees [begin, begin + count) whose roots a multi-leaf proof of
// the leaves `in` holds (docs/PROOFS.md "Multi-leaf proof").
void MultiProofSubtrees(uint64_t b, uint64_t c, const std::set<uint64_t>& in, std::set<std::pair<uint64_t, uint64_t>>* out) {
  if (in.lower_bound(b) == in.end() || *in.lower_bound(b) >= b + c) {
    out->insert({b, c});
    return;
  }
  if (c == 1) return;
  const uint64_t k = SplitOf(c);
  MultiProofSubtrees(b, k, in, out);
  MultiProofSubtrees(b + k, c - k, in, out);
}

// Those a consistency proof from m to the tree D[b : b + c] holds (RFC 9162
// 2.1.4.1, SUBPROOF).
void ConsistencySubtrees(uint64_t m, uint64_t b, uint64_t c, bool start, std::set<std::pair<uint64_t, uint64_t>>* out) {
  if (m == c) {
    if (!start) out->insert({b, c});
    return;
  }
  const uint64_t k = SplitOf(c);
  if (m <= k) {
    ConsistencySubtrees(m, b, k, start, out);
    out->insert({b + k, c - k});
  } else {
    ConsistencySubtrees(m - k, b + k, c - k, false, out);
    out->insert({b, k});
  }
}

// A proof holds only events `person` may see, byte for byte as stored; and
// of the events he may not see no leaf hash appears in it unless as the
// root of a subtree the proofs' shape reveals (a sibling on the path of one
// of his, or on the edge of the previous tree): never anything more of it.
void CheckNoLeak(ledger::Ledger& db, const ReportProofData& p, const Owners& owners, const std::string& person) {
  const std::set<std::string> held = HeldBy(db, person, owners);
  auto may_see = [&](uint64_t seq) {
    const std::string& who = owners.person.at(seq);
    if (!who.empty()) return who == person;
    auto of = owners.of.find(seq);
    if (of == owners.of.end()) return false;
    return std::any_of(of->second.begin(), of->second.end(), [&](const std::string& x) { return held.count(x) > 0; });
  };
  std::set<uint64_t> his;
  for (const auto& [seq, bytes] : p.events) {
    INFO("seq " << seq);
    REQUIRE(owners.bytes.count(seq));
    CHECK(owners.bytes.at(seq) == bytes);
    CHECK(may_see(seq));
    his.insert(seq);
  }
  std::set<uint64_t> indices;
  for (uint64_t seq : his) indices.insert(seq - 1);
  std::set<std::pair<uint64_t, uint64_t>> revealed;
  if (!indices.empty()) MultiProofSubtrees(0, p.size, indices, &revealed);
  if (p.previous_size > 0 && p.previous_size < p.size) ConsistencySubtrees(p.previous_size, 0, p.size, true, &revealed);
  CHECK(revealed.size() >= p.proof.size());
  std::set<merkle::Hash> in_proof(p.proof.begin(), p.proof.end());
  in_proof.insert(p.consistency.begin(), p.consistency.end());
  for (const auto& [seq, bytes] : owners.bytes) {
    if (seq > p.size || may_see(seq)) continue;
    if (!in_proof.count(merkle::LeafHash(bytes))) continue;
    INFO("event " << seq << ", not " << person << "'s to see, has its leaf hash in his proof");
    CHECK(revealed.count({seq - 1, 1}));
  }
}

// The one report proof a report (text or JSON) carries, read as verify-report reads it.
ReportProofData OnlyProofIn(const std::string& text, const std::string& name) {
  auto found = reports::ProofsInDocument(text, name);
  INFO(name << ": " << found.status().message());
  REQUIRE(found.ok());
  REQUIRE(found->size() == 1);
  auto d = replay::ReportProofFrom(*flatbuffers::GetRoot<fb::ReportProof>(found->front().data()));
  REQUIRE(d.ok());
  return *d;
}

// A database under `dir` with game "g" made from a bundled scenario and map
// (paths under the fixtures), signed with `key` (its file: `*key_file`).
std::unique_ptr<ledger::Ledger> SignedFixtureGame(TempDir& dir, const signing::SigningKey& key, const std::string& scenario,
                                                  const std::string& map, const std::string& seed, std::string* key_file) {
  auto l = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(l.ok());
  *key_file = dir.path() + "/ga.key";
  REQUIRE(key.Save(*key_file).ok());
  const std::string fx = ADJUTANT_FIXTURES;
  CliRun made = Cli(**l, {"new", "g", "--scenario", fx + "/" + scenario, "--map", fx + "/" + map, "--seed", seed,
                          "--signing-key", *key_file});
  INFO(made.err);
  REQUIRE(made.code == 0);
  return std::move(l).value();
}

// Who gives orders in the kind's plan.
std::set<std::string> PersonsOf(const GameKind& kind) {
  std::set<std::string> persons;
  for (const TurnPlan& t : kind.turns) {
    for (const auto& [person, file] : t.orders) persons.insert(person);
  }
  return persons;
}

}  // namespace

TEST_CASE("report proofs on every kind of game: each player's proof of each turn verifies offline, chained to his "
          "previous, holding his events alone",
          "[proofs][matrix]") {
  const signing::SigningKey key = TestKey(61);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(key));
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const Owners owners = OwnersOf(db, "main");
      const std::set<std::string> persons = PersonsOf(kind);
      REQUIRE_FALSE(persons.empty());
      for (const std::string& person : persons) {
        std::string previous;
        size_t proven = 0;
        for (const TurnPlan& t : kind.turns) {
          INFO(person << ", turn " << t.turn.ToString());
          CliRun proof = Cli(db, {"proof", "g", "--player", person, "--turn", t.turn.ToString()});
          INFO(proof.err);
          REQUIRE(proof.code == 0);
          const ReportProofData p = Parse(proof.out);
          CHECK(p.person == person);
          CHECK(p.public_key == key.public_key());
          CheckNoLeak(db, p, owners, person);
          proven += p.events.size();
          const std::string file = Write(g.dir.path() + "/" + person + "-" + t.turn.ToString() + ".json", proof.out);
          std::vector<std::string> args = {"verify-report", file};
          if (!previous.empty()) args.insert(args.end(), {"--previous", previous});
          CliRun checked = Cli(db, args);
          INFO(checked.out << checked.err);
          CHECK(checked.code == 0);
          CHECK(checked.out.find("every check holds") != std::string::npos);
          previous = file;
        }
        CHECK(proven > 0);  // his orders of the plan are proven somewhere
      }
      // A game that signs nothing has no proof to give.
      PlayedGame plain(kind);
      REQUIRE(plain.status.ok());
      const std::string person = *persons.begin();
      CliRun none = Cli(*plain, {"proof", "g", "--player", person, "--turn", kind.turns.front().turn.ToString()});
      CHECK(none.code != 0);
      CHECK(none.out.empty());
      CHECK(none.err.find("signed tree head") != std::string::npos);
    }
  }
}

TEST_CASE("report proofs: a changed event, root, signature, proof hash or previous head fails verify-report",
          "[proofs]") {
  const signing::SigningKey key = TestKey(62);
  const GameKind& kind = GameKinds().front();
  PlayedGame g(kind, SignedWith(key));
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  const TurnPlan& first = kind.turns.front();
  const TurnPlan& second = kind.turns.at(1);
  const std::string person = first.orders.front().first;
  const std::string p1 = Cli(db, {"proof", "g", "--player", person, "--turn", first.turn.ToString()}).out;
  const std::string p2 = Cli(db, {"proof", "g", "--player", person, "--turn", second.turn.ToString()}).out;
  REQUIRE_FALSE(p1.empty());
  REQUIRE_FALSE(p2.empty());
  const std::string f1 = Write(g.dir.path() + "/p1.json", p1);
  REQUIRE(Cli(db, {"verify-report", Write(g.dir.path() + "/p2.json", p2), "--previous", f1}).code == 0);
  const ReportProofData d2 = Parse(p2);
  REQUIRE_FALSE(d2.events.empty());
  REQUIRE_FALSE(d2.consistency.empty());
  // Each change, one at a time, made to the JSON text.
  auto changed = [&](const std::string& from, const std::string& to) {
    const size_t at = p2.find(from);
    REQUIRE(at != std::string::npos);
    std::string t = p2;
    t.replace(at, from.size(), to);
    return t;
  };
  auto flip = [](std::string hex) {
    hex.back() = hex.back() == '0' ? '1' : '0';
    return hex;
  };
  const std::string event_hex = signing::Hex(d2.events.front().second);
  const std::string root_hex = merkle::Hex(d2.root);
  const std::string sig_hex = signing::Hex(d2.signature);
  const std::string cons_hex = merkle::Hex(d2.consistency.front());
  struct Case {
    const char* what;
    std::string text;
    const char* fails;
  };
  const Case cases[] = {
      {"an event's bytes", changed(event_hex, flip(event_hex)), "events"},
      {"the root", changed(root_hex, flip(root_hex)), "signature"},
      {"the signature", changed(sig_hex, flip(sig_hex)), "signature"},
      {"a consistency hash", changed(cons_hex, flip(cons_hex)), "consistency"},
      {"the size", changed("\"size\": " + std::to_string(d2.size), "\"size\": " + std::to_string(d2.size + 1)),
       "signature"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CliRun r = Cli(db, {"verify-report", Write(g.dir.path() + "/bad.json", c.text), "--previous", f1});
    CHECK(r.code == 3);
    CHECK(r.err.find(std::string(c.fails) + " does not hold") != std::string::npos);
  }
  // Another player's previous proof is not this player's previous head... but
  // the same head: it passes; a previous from another game's key fails.
  const signing::SigningKey other = TestKey(63);
  PlayedGame g2(kind, SignedWith(other));
  REQUIRE(g2.status.ok());
  const std::string foreign = Cli(*g2, {"proof", "g", "--player", person, "--turn", first.turn.ToString()}).out;
  CliRun mixed = Cli(db, {"verify-report", g.dir.path() + "/p2.json", "--previous",
                          Write(g.dir.path() + "/foreign.json", foreign)});
  CHECK(mixed.code == 3);
  CHECK(mixed.err.find("previous does not hold") != std::string::npos);
  // Not a proof at all: exit 2, naming the file.
  CliRun junk = Cli(db, {"verify-report", Write(g.dir.path() + "/junk.json", "{\"format\": 3}")});
  CHECK(junk.code == 2);
  CliRun wrong_format =
      Cli(db, {"verify-report", Write(g.dir.path() + "/v0.json", changed("adjutant-report-proof-v1", "v0"))});
  CHECK(wrong_format.code == 2);
  CHECK(wrong_format.err.find("format") != std::string::npos);
}

TEST_CASE("report proofs check the dice on every kind of game: a committed turn's rolls wait for its salt, the next "
          "proof carries its reveal and checks them, and a seed or salt not the game's fails",
          "[proofs][dice][matrix]") {
  const signing::SigningKey key = TestKey(65);
  std::string salt;
  for (int i = 0; i < 32; ++i) salt += "5a";
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayOptions o = SignedWith(key);
      o.first_turn_salt = salt;
      o.reveal_first_turn = true;
      PlayedGame g(kind, o);
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const Turn first = kind.turns.at(0).turn, second = kind.turns.at(1).turn;
      const std::set<std::string> persons = PersonsOf(kind);
      size_t rolls = 0;
      for (const std::string& person : persons) {
        INFO(person);
        const std::string p1 = Cli(db, {"proof", "g", "--player", person, "--turn", first.ToString()}).out;
        const std::string p2 = Cli(db, {"proof", "g", "--player", person, "--turn", second.ToString()}).out;
        REQUIRE_FALSE(p1.empty());
        REQUIRE_FALSE(p2.empty());
        const ReportProofData d1 = Parse(p1), d2 = Parse(p2);
        CHECK(d1.commitments.count(first));  // the turn's commitment, proven with its rolls
        CHECK(d2.reveals.count(first));      // revealed once it was over
        const std::string f1 = Write(g.dir.path() + "/" + person + "-1.json", p1);
        const std::string f2 = Write(g.dir.path() + "/" + person + "-2.json", p2);
        CliRun alone = Cli(db, {"verify-report", f1});
        INFO(alone.out << alone.err);
        CHECK(alone.code == 0);
        CliRun later = Cli(db, {"verify-report", f2, "--previous", f1});
        INFO(later.out << later.err);
        CHECK(later.code == 0);
        if (d1.rolls.empty()) continue;
        rolls += d1.rolls.size();
        // Alone, turn 1's rolls await the salt; with the proof that reveals it, each is recomputed.
        CHECK(alone.out.find("every check holds so far") != std::string::npos);
        CHECK(alone.out.find("dice: pending") != std::string::npos);
        CHECK(later.out.find("dice: ok") != std::string::npos);
        // The seed and the branch's salt are the dice's public inputs, not
        // signed: given wrong, the rolls do not come out of them.
        for (const std::string field : {"dice_seed", "dice_salt"}) {
          INFO(field);
          const uint64_t was = field == "dice_seed" ? d1.dice_seed : d1.dice_salt;
          const std::string from = "\"" + field + "\": " + std::to_string(was);
          const size_t at = p1.find(from);
          REQUIRE(at != std::string::npos);
          std::string bad = p1;
          bad.replace(at, from.size(), "\"" + field + "\": " + std::to_string(was + 1));
          CliRun r = Cli(db, {"verify-report", f2, "--previous", Write(g.dir.path() + "/bad.json", bad)});
          CHECK(r.code == 3);
          CHECK(r.err.find("dice does not hold") != std::string::npos);
        }
      }
      // Every kind whose first turn rolls dice proves them to someone.
      size_t logged = 0;
      REQUIRE(db.Read("g", "main", 1, UINT64_MAX, [&](const ledger::EventView& e) {
                    const fb::Turn* t = e.event()->turn();
                    const auto* d = e.event()->payload_as_DieRolled();
                    logged += d && !d->scripted() && t && schema::TurnOf(t) == first;
                    return Status::Ok();
                  }).ok());
      UNSCOPED_INFO(kind.name << ": " << rolls << " of " << logged << " rolls of turn " << first.ToString() << " proven");
      CHECK((logged == 0) == (rolls == 0));
    }
  }
}

TEST_CASE("report proofs across a change of key on every kind of game: the next proof, signed by the new key, "
          "holds the SigningKey directive that adopted it and chains to the last one the old key signed",
          "[proofs][matrix]") {
  const signing::SigningKey old_key = TestKey(66), new_key = TestKey(67);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(old_key));
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string person = kind.turns.back().orders.front().first;
      const std::string last = kind.turns.back().turn.ToString();
      const std::string before = Write(g.dir.path() + "/before.json",
                                       Cli(db, {"proof", "g", "--player", person, "--turn", last}).out);
      const std::string key_file = g.dir.path() + "/new.key";
      REQUIRE(new_key.Save(key_file).ok());
      CliRun adopted = Cli(db, {"adopt-key", "g", "--signing-key", key_file});
      INFO(adopted.err);
      REQUIRE(adopted.code == 0);
      CliRun ran = Cli(db, {"adjudicate", "g", "--signing-key", key_file});
      INFO(ran.err);
      REQUIRE(ran.code == 0);
      CliRun after = Cli(db, {"proof", "g", "--player", person, "--turn", kind.coming.ToString()});
      INFO(after.err);
      REQUIRE(after.code == 0);
      const ReportProofData d = Parse(after.out);
      CHECK(d.public_key == new_key.public_key());
      REQUIRE(d.key_changes.size() == 1);
      CHECK(d.key_changes.front().second == new_key.public_key());
      CliRun checked = Cli(db, {"verify-report", Write(g.dir.path() + "/after.json", after.out), "--previous", before});
      INFO(checked.out << checked.err);
      CHECK(checked.code == 0);
      CHECK(checked.out.find("the key changed to " + signing::Hex(new_key.public_key())) != std::string::npos);
    }
  }
}

TEST_CASE("report proofs end to end: three players, ten turns of the 1805 game, every proof verifies chained, and a "
          "rewritten history fails every player's next proof",
          "[proofs][e2e]") {
  TempDir dir;
  const signing::SigningKey key = TestKey(64);
  std::string key_file;
  auto l = SignedFixtureGame(dir, key, "scenarios/nwol-1805.json", "maps/nwol-waters.json", "1805", &key_file);
  ledger::Ledger& db = *l;
  const std::string fx = ADJUTANT_FIXTURES;
  // Who sends each file (fixtures/orders/nwol-1805/PLAY.md).
  const std::vector<std::pair<std::string, std::string>> senders = {
      {"-BR.orders.json", "pitt"},       {"-BR-naval.orders.json", "barham"}, {"-BR-war.orders.json", "castlereagh"},
      {"-FR.orders.json", "gaudin"},     {"-FR-war.orders.json", "berthier"}, {"-SP.orders.json", "soler"},
      {"-BR1FL.orders.json", "nelson"}};
  const std::vector<std::string> players = {"pitt", "gaudin", "nelson"};
  for (const auto& [suffix, person] : senders) {
    const std::string pw = Write(dir.path() + "/" + person + ".pw", person + "-1805\n");
    REQUIRE(Cli(db, {"password", "g", "--person", person, "--password-file", pw}).code == 0);
  }
  const std::string orders = fx + "/orders/nwol-1805";
  std::vector<std::string> files;
  for (const auto& f : std::filesystem::directory_iterator(orders)) files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  std::map<std::string, std::string> held;  // player -> the file of his last proof
  std::map<std::string, std::set<std::string>> kinds_proven;  // player -> the kinds of event his proofs held
  std::map<std::string, size_t> rolls_proven;
  std::map<std::string, std::string> held_packet;  // player -> his last mailed packet (text)
  std::map<std::string, std::set<std::string>> reports_proven;  // player -> his reports whose proofs held events
  size_t largest_block = 0;
  size_t battle_rolls_proven = 0;  // rolls about a PATE battle as a whole (7.4-7.8)
  std::vector<Turn> turns;
  for (int t = 1; t <= 10; ++t) {
    const std::string prefix = orders + "/t" + std::to_string(t) + "-";
    for (const std::string& f : files) {
      if (f.rfind(prefix, 0) != 0) continue;
      if (f.find(".directive.json") != std::string::npos) {
        REQUIRE(Cli(db, {"directive", "g", f}).code == 0);
        continue;
      }
      for (const auto& [suffix, person] : senders) {
        if (f.size() >= suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0) {
          CliRun r = Cli(db, {"order", "g", f, "--as", person, "--password-file", dir.path() + "/" + person + ".pw"});
          INFO(f << ": " << r.err);
          REQUIRE(r.code == 0);
        }
      }
    }
    auto r = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr, {},
                                nullptr, &key);
    INFO(r.status().message());
    REQUIRE(r.ok());
    const Turn turn = r->front().at.turn;
    turns.push_back(turn);
    const Owners owners = OwnersOf(db, "main");
    for (const std::string& person : players) {
      INFO(person << ", turn " << turn.ToString());
      CliRun proof = Cli(db, {"proof", "g", "--player", person, "--turn", turn.ToString()});
      INFO(proof.err);
      REQUIRE(proof.code == 0);
      const ReportProofData p = Parse(proof.out);
      CheckNoLeak(db, p, owners, person);
      if (t <= 2) CHECK_FALSE(p.events.empty());  // each of the three gave orders in turns 1 and 2
      for (const auto& [seq, bytes] : p.events) {
        const fb::Event& ev = *flatbuffers::GetRoot<fb::Event>(bytes.data());
        const auto* pe = ev.payload_as_PateEvent();
        const auto* se = ev.payload_as_SowEvent();
        kinds_proven[person].insert(pe   ? std::string("pate:") + fb::EnumNamePateEventBody(pe->body_type())
                                    : se ? std::string("sow:") + fb::EnumNameSowEventBody(se->body_type())
                                         : std::string(fb::EnumNamePayload(ev.payload_type())));
      }
      rolls_proven[person] += p.rolls.size();
      for (const ProvenRoll& roll : p.rolls) battle_rolls_proven += roll.subject.rfind("battle ", 0) == 0;
      // A few kilobytes of proof: hashes only (his events are his report's).
      CHECK(32 * (p.proof.size() + p.consistency.size()) < 4096);
      const std::string file = Write(dir.path() + "/" + person + "-" + std::to_string(t) + ".json", proof.out);
      std::vector<std::string> args = {"verify-report", file};
      if (held.count(person)) args.insert(args.end(), {"--previous", held[person]});
      CliRun checked = Cli(db, args);
      INFO(checked.out << checked.err);
      CHECK(checked.code == 0);
      held[person] = file;
      // His mailed packet: each report carries its own proof, and the whole
      // packet verifies, each report chained to the same one of the turn before.
      auto packet = reports::TurnPacket(db, "g", "main", person, turn);
      REQUIRE(packet.ok());
      const std::string mailed = Write(dir.path() + "/" + person + "-" + std::to_string(t) + ".txt", packet->Text());
      std::vector<std::string> whole = {"verify-report", mailed};
      if (held_packet.count(person)) whole.insert(whole.end(), {"--previous", held_packet[person]});
      CliRun each = Cli(db, whole);
      INFO(each.out << each.err);
      CHECK(each.code == 0);
      held_packet[person] = mailed;
      for (const auto& part : packet->parts) {
        if (part.text.find(reports::kProofBegin) == std::string::npos) continue;  // a report that proves nothing
        const ReportProofData d = OnlyProofIn(part.text, part.name);
        CheckNoLeak(db, d, owners, person);
        if (!d.events.empty()) reports_proven[person].insert(part.name);
        largest_block = std::max(largest_block, part.text.size() - part.text.find(reports::kProofBegin));
      }
    }
  }
  REQUIRE(turns.size() == 10);
  // Each report proved what it tells: Pitt's and Gaudin's treasuries,
  // Nelson's sightings and his ship's moves.
  CHECK(reports_proven["pitt"].count("treasury"));
  CHECK(reports_proven["gaudin"].count("treasury"));
  CHECK(reports_proven["nelson"].count("events"));
  CHECK(reports_proven["nelson"].count("positions"));
  for (const std::string& person : players) CHECK(reports_proven[person].count("orders"));
  UNSCOPED_INFO("the largest report proof block: " << largest_block << " bytes");
  UNSCOPED_INFO("battle rolls proven: " << battle_rolls_proven);
  CHECK(largest_block > 0);
  // What each proved beyond his orders (reports/sources.h): Nelson, BR1FL's
  // commander, what she saw and did and the rolls about her; Pitt, Prime
  // Minister of Britain, Britain's treasury.
  for (const auto& [person, kinds] : kinds_proven) {
    std::string all;
    for (const auto& k : kinds) all += k + " ";
    UNSCOPED_INFO(person << " proved: " << all << "and " << rolls_proven[person] << " rolls");
  }
  CHECK(kinds_proven["nelson"].count("pate:Observed"));
  CHECK(kinds_proven["nelson"].count("pate:ShipMoved"));
  CHECK(kinds_proven["pitt"].count("sow:TreasuryLine"));
  CHECK(kinds_proven["gaudin"].count("sow:TreasuryLine"));
  CHECK_FALSE(kinds_proven["nelson"].count("sow:TreasuryLine"));
  // ... and the events of their builds and units, which name no state (SOW 4, 6.3).
  for (const char* what : {"sow:BuildProgressed", "sow:BuildCompleted", "sow:UnitReinforced", "sow:UnitDisbanded"}) {
    INFO(what);
    CHECK(kinds_proven["pitt"].count(what) + kinds_proven["gaudin"].count(what) > 0);
  }
  CHECK_FALSE(kinds_proven["pitt"].count("pate:Observed"));
  // The GA rewrites turn 2 (a ruling inserted before it, the later turns
  // played again on a corrected branch) and presents that branch as the game.
  const std::string ruling =
      Write(dir.path() + "/ruling.json", R"({"reason": "a quiet rewrite", "body_type": "Ruling", "body": {"text": "as it was"}})");
  CliRun corrected = Cli(db, {"correct", "g", "--at", turns.at(1).ToString(), "--directive", ruling, "--name", "main2",
                              "--signing-key", key_file});
  INFO(corrected.out << corrected.err);
  REQUIRE(corrected.code == 0);
  auto r = replay::Adjudicate(db, "g", "main2", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr, {},
                              nullptr, &key);
  REQUIRE(r.ok());
  const Turn next = r->front().at.turn;
  for (const std::string& person : players) {
    INFO(person);
    // The current branch (main2): its own previous head is not his.
    CliRun proof = Cli(db, {"proof", "g", "--player", person, "--turn", next.ToString()});
    REQUIRE(proof.code == 0);
    const std::string file = Write(dir.path() + "/" + person + "-rewritten.json", proof.out);
    // Alone it is a well-signed proof of a history ...
    CHECK(Cli(db, {"verify-report", file}).code == 0);
    // ... that does not extend the one he was shown: it names another
    // previous head, and made from his head's size it fails consistency.
    CliRun named = Cli(db, {"verify-report", file, "--previous", held[person]});
    CHECK(named.code == 3);
    CHECK(named.out.find("previous: FAILED") != std::string::npos);
    const ReportProofData mine = Parse(Slurp(held[person]));
    CliRun since = Cli(db, {"proof", "g", "--player", person, "--turn", next.ToString(), "--since", std::to_string(mine.size)});
    REQUIRE(since.code == 0);
    const std::string from_mine = Write(dir.path() + "/" + person + "-rewritten-since.json", since.out);
    CliRun checked = Cli(db, {"verify-report", from_mine, "--previous", held[person]});
    INFO(checked.out << checked.err);
    CHECK(checked.code == 3);
    CHECK(checked.out.find("previous: ok") != std::string::npos);
    CHECK(checked.out.find("consistency: FAILED") != std::string::npos);
    // The honest game, asked the same way, passes.
    CliRun honest = Cli(db, {"proof", "g", "--branch", "main", "--player", person, "--turn", turns.back().ToString(),
                             "--since", std::to_string(mine.size)});
    REQUIRE(honest.code == 0);
    CHECK(Cli(db, {"verify-report", Write(dir.path() + "/" + person + "-same.json", honest.out), "--previous",
                   held[person]}).code == 0);
    // His next mailed packet, from the rewritten history: every report in
    // it fails against the packet he holds.
    auto packet = reports::TurnPacket(db, "g", "main2", person, next);
    REQUIRE(packet.ok());
    CliRun mailed = Cli(db, {"verify-report", Write(dir.path() + "/" + person + "-rewritten.txt", packet->Text()),
                             "--previous", held_packet[person]});
    INFO(mailed.out << mailed.err);
    CHECK(mailed.code == 3);
    CHECK(mailed.out.find("every check holds") == std::string::npos);
  }
}

TEST_CASE("report proofs at the order desk: a player gets his own, never another's, and the GA gets any player's",
          "[proofs][desk]") {
  const signing::SigningKey key = TestKey(65);
  const GameKind& kind = GameKinds().front();
  PlayedGame g(kind, SignedWith(key));
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  std::vector<std::string> persons;
  for (const TurnPlan& t : kind.turns) {
    for (const auto& [person, file] : t.orders) {
      if (std::find(persons.begin(), persons.end(), person) == persons.end()) persons.push_back(person);
    }
  }
  REQUIRE(persons.size() >= 2);
  for (const std::string& p : persons) {
    REQUIRE(replay::SetPassword(db, "g", "main", p, CheapPasswordHash(p + "-pw")).ok());
  }
  desk::Settings s;
  s.ga_pwhash = CheapPasswordHash("the-ga-secret");
  auto d = StartDesk(db, s);
  REQUIRE(d.ok());
  auto token = [&](const std::string& path, const std::string& body) {
    HttpReply r = HttpCall((*d)->port(), "POST", path, body);
    REQUIRE(r.status == 200);
    return r.body.substr(r.body.find("\"token\": \"") + 10, 64);
  };
  const std::string a = persons[0], b = persons[1];
  const std::string ta = token("/api/login", R"({"game": "g", "person": ")" + a + R"(", "password": ")" + a + R"(-pw"})");
  const std::string ga = token("/api/ga/login", R"({"password": "the-ga-secret"})");
  const std::string turn = kind.turns.front().turn.ToString();
  const std::string path = "/api/games/g/proof?turn=" + turn;
  HttpReply own = HttpCall((*d)->port(), "GET", path, "", ta);
  INFO(own.body);
  REQUIRE(own.status == 200);
  const ReportProofData p = Parse(own.body);
  CHECK(p.person == a);
  const std::vector<ReportCheck> checks = CheckReportProof(p, nullptr);
  CHECK(std::all_of(checks.begin(), checks.end(), [](const ReportCheck& c) { return c.ok; }));
  // The same as `adjutant proof` gives.
  CHECK(own.body == Cli(db, {"proof", "g", "--player", a, "--turn", turn}).out.substr(0, own.body.size()));
  // Another's: refused; the GA's for a player he names: given.
  CHECK(HttpCall((*d)->port(), "GET", path + "&player=" + b, "", ta).status == 403);
  CHECK(HttpCall((*d)->port(), "GET", path + "&player=" + a, "", ta).status == 200);
  HttpReply by_ga = HttpCall((*d)->port(), "GET", path + "&player=" + b, "", ga);
  CHECK(by_ga.status == 200);
  CHECK(Parse(by_ga.body).person == b);
  CHECK(HttpCall((*d)->port(), "GET", path, "", ga).status == 400);  // the GA names the player
  CHECK(HttpCall((*d)->port(), "GET", path, "", "").status == 401);
  CHECK(HttpCall((*d)->port(), "GET", "/api/games/g/proof?turn=banana", "", ta).status == 400);
  CHECK(HttpCall((*d)->port(), "GET", path + "&since=12x", "", ta).status == 400);
  CHECK(HttpCall((*d)->port(), "GET", "/api/games/g/proof?turn=" + kind.coming.ToString(), "", ta).status == 404);
  // Each report the desk gives him carries its own proof, text and JSON;
  // saved as it came, each verifies offline.
  for (const std::string kind_name : {"orders", "events", "positions"}) {
    for (const std::string format : {"", "&format=json"}) {
      INFO(kind_name << format);
      HttpReply rep = HttpCall((*d)->port(), "GET", "/api/games/g/reports?kind=" + kind_name + "&turn=" + turn + format, "", ta);
      INFO(rep.body);
      REQUIRE(rep.status == 200);
      CHECK(rep.body.find(format.empty() ? std::string(reports::kProofBegin) : "\"report_proof\"") != std::string::npos);
      CliRun checked = Cli(db, {"verify-report", Write(g.dir.path() + "/desk-" + kind_name + (format.empty() ? ".txt" : ".json"), rep.body)});
      INFO(checked.out << checked.err);
      CHECK(checked.code == 0);
      CHECK(checked.out.find(a + "'s proof of his " + kind_name + " report of turn " + turn) != std::string::npos);
    }
  }
  // A desk without the GA's key adjudicates no turn of a signing game, by
  // its button or by its command line (nothing recorded) ...
  auto head = [&] { return db.HeadOf("g", "main")->seq; };
  const uint64_t before = head();
  HttpReply button = HttpCall((*d)->port(), "POST", "/api/games/g/adjudicate", R"({"mode": "phase"})", ga);
  CHECK(button.status == 400);
  CHECK(button.body.find("signs its tree heads") != std::string::npos);
  HttpReply run = HttpCall((*d)->port(), "POST", "/api/ga/run", R"({"args": ["adjudicate", "g", "--phase"]})", ga);
  CHECK(run.status == 400);
  CHECK(head() == before);
  (*d)->Stop();
  (*d)->Wait();
  // ... one started with it (`serve --signing-key`) does, both ways, signed.
  s.signer = std::make_shared<const signing::SigningKey>(key);
  auto signing_desk = StartDesk(db, s);
  REQUIRE(signing_desk.ok());
  const std::string ga2 = [&] {
    HttpReply r = HttpCall((*signing_desk)->port(), "POST", "/api/ga/login", R"({"password": "the-ga-secret"})");
    REQUIRE(r.status == 200);
    return r.body.substr(r.body.find("\"token\": \"") + 10, 64);
  }();
  HttpReply signed_button = HttpCall((*signing_desk)->port(), "POST", "/api/games/g/adjudicate", R"({"mode": "phase"})", ga2);
  INFO(signed_button.body);
  CHECK(signed_button.status == 200);
  HttpReply signed_run =
      HttpCall((*signing_desk)->port(), "POST", "/api/ga/run", R"({"args": ["adjudicate", "g", "--phase"]})", ga2);
  INFO(signed_run.body);
  CHECK(signed_run.status == 200);
  CHECK(head() > before);
  CHECK(Cli(db, {"heads", "g"}).code == 0);
  size_t heads_after = 0;
  REQUIRE(db.Read("g", "main", before + 1, UINT64_MAX, [&](const ledger::EventView& e) {
              heads_after += e.event()->payload_type() == fb::Payload_TreeHead;
              return Status::Ok();
            }).ok());
  CHECK(heads_after == 2);
  (*signing_desk)->Stop();
  (*signing_desk)->Wait();
}

TEST_CASE("report proofs travel with a player's mailed reports (proof.json) in a game that signs its heads, on every "
          "kind, and every report names the signed head its proof is checked against",
          "[proofs][matrix]") {
  const signing::SigningKey key = TestKey(66);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(key));
      REQUIRE(g.status.ok());
      const TurnPlan& t = kind.turns.back();
      const std::string person = t.orders.front().first;
      auto packet = reports::TurnPacket(*g, "g", "main", person, t.turn);
      INFO(packet.status().message());
      REQUIRE(packet.ok());
      auto it = std::find_if(packet->json.begin(), packet->json.end(), [](const auto& j) { return j.first == "proof.json"; });
      REQUIRE(it != packet->json.end());
      const ReportProofData p = Parse(it->second);
      CHECK(p.person == person);
      CHECK_FALSE(p.events.empty());
      const std::vector<ReportCheck> checks = CheckReportProof(p, nullptr);
      CHECK(std::all_of(checks.begin(), checks.end(), [](const ReportCheck& c) { return c.ok; }));
      // Each report of the packet ends with the head its proof is checked
      // against (its root and key: those of proof.json) and where the proof
      // is; its JSON carries the head.
      const std::string root = merkle::Hex(p.root), public_key = signing::Hex(p.public_key);
      REQUIRE_FALSE(packet->parts.empty());
      for (const auto& part : packet->parts) {
        INFO(part.name << ":\n" << part.text);
        CHECK(part.text.find("Signed: the history of g/main to turn " + t.turn.ToString()) != std::string::npos);
        CHECK(part.text.find("root " + root + "), head at seq " + std::to_string(p.head_seq) + ", key " + public_key) !=
              std::string::npos);
        CHECK(part.text.find("adjutant proof g --player " + person + " --turn " + t.turn.ToString()) != std::string::npos);
      }
      for (const auto& [file, json] : packet->json) {
        if (file == "proof.json") continue;
        INFO(file << ": " << json);
        CHECK(json.find("\"root\": \"" + root + "\"") != std::string::npos);
        CHECK(json.find("\"public_key\": \"" + public_key + "\"") != std::string::npos);
      }
      // A game that signs nothing mails none.
      PlayedGame plain(kind);
      REQUIRE(plain.status.ok());
      auto unsigned_packet = reports::TurnPacket(*plain, "g", "main", person, t.turn);
      REQUIRE(unsigned_packet.ok());
      CHECK(std::none_of(unsigned_packet->json.begin(), unsigned_packet->json.end(),
                         [](const auto& j) { return j.first == "proof.json"; }));
      for (const auto& part : unsigned_packet->parts) CHECK(part.text.find("Signed:") == std::string::npos);
      for (const auto& [file, json] : unsigned_packet->json) CHECK(json.find("\"head\"") == std::string::npos);
      // It adopts a key: the turn after is signed and its reports say so;
      // the turns before stay without a head of their own.
      const std::string key_file = plain.dir.path() + "/late.key";
      REQUIRE(key.Save(key_file).ok());
      REQUIRE(Cli(*plain, {"adopt-key", "g", "--signing-key", key_file}).code == 0);
      CliRun ran = Cli(*plain, {"adjudicate", "g", "--signing-key", key_file});
      INFO(ran.err);
      REQUIRE(ran.code == 0);
      auto late = reports::TurnPacket(*plain, "g", "main", person, kind.coming);
      REQUIRE(late.ok());
      REQUIRE_FALSE(late->parts.empty());
      for (const auto& part : late->parts) CHECK(part.text.find("Signed: the history of g/main to turn " + kind.coming.ToString()) != std::string::npos);
      auto early = reports::TurnPacket(*plain, "g", "main", person, t.turn);
      REQUIRE(early.ok());
      for (const auto& part : early->parts) CHECK(part.text.find("Signed:") == std::string::npos);
    }
  }
}

TEST_CASE("every report of a signing game carries its own proof on every kind: text, JSON and a whole packet verify "
          "offline, chained to the turn before, holding only events of his whole turn's proof",
          "[proofs][matrix]") {
  const signing::SigningKey key = TestKey(67);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(key));
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const Owners owners = OwnersOf(db, "main");
      const std::set<std::string> persons = PersonsOf(kind);
      size_t proven = 0, carried = 0;
      std::set<std::string> reports_proven;
      for (const std::string& person : persons) {
        std::map<std::string, std::string> before;  // report -> its text file of the turn before
        for (const TurnPlan& t : kind.turns) {
          INFO(person << ", turn " << t.turn.ToString());
          auto packet = reports::TurnPacket(db, "g", "main", person, t.turn);
          INFO(packet.status().message());
          REQUIRE(packet.ok());
          auto whole = std::find_if(packet->json.begin(), packet->json.end(),
                                    [](const auto& j) { return j.first == "proof.json"; });
          REQUIRE(whole != packet->json.end());
          const ReportProofData turn_proof = Parse(whole->second);
          std::set<uint64_t> his_turn;
          for (const auto& [seq, bytes] : turn_proof.events) his_turn.insert(seq);
          std::map<std::string, std::string> now;
          for (const auto& part : packet->parts) {
            INFO(part.name << ":\n" << part.text);
            const bool proves = part.name != "map" && part.name != "choices" && part.name != "fleet";
            CHECK((part.text.find(reports::kProofBegin) != std::string::npos) == proves);
            if (!proves) continue;
            ++carried;
            const ReportProofData proof = OnlyProofIn(part.text, part.name);
            const ReportProofData* d = &proof;
            CHECK(d->report == part.name);
            CHECK(d->person == person);
            CHECK(d->root == turn_proof.root);
            CheckNoLeak(db, *d, owners, person);
            for (const auto& [seq, bytes] : d->events) {
              CHECK(his_turn.count(seq));
              // The footer lists it, with its leaf hash.
              CHECK(part.text.find("  seq " + std::to_string(seq) + "  ") != std::string::npos);
              CHECK(part.text.find("leaf " + merkle::Hex(merkle::LeafHash(bytes))) != std::string::npos);
            }
            proven += d->events.size();
            if (!d->events.empty()) reports_proven.insert(part.name);
            // The same proof in the report's JSON.
            auto json = std::find_if(packet->json.begin(), packet->json.end(),
                                     [&](const auto& j) { return j.first == part.name + ".json"; });
            REQUIRE(json != packet->json.end());
            // (the text's block holds the events' bytes, the JSON their hex: the same events)
            const ReportProofData in_json = OnlyProofIn(json->second, json->first);
            const ReportProofData* j = &in_json;
            CHECK(j->events == d->events);
            CHECK(j->proof == d->proof);
            CHECK(j->consistency == d->consistency);
            CHECK(j->signature == d->signature);
            CHECK(j->report == d->report);
            // Both verify offline; the text chained to the same report of the turn before.
            const std::string stem = g.dir.path() + "/" + person + "-" + t.turn.ToString() + "-" + part.name;
            const std::string text_file = Write(stem + ".txt", part.text);
            std::vector<std::string> args = {"verify-report", text_file};
            if (before.count(part.name)) args.insert(args.end(), {"--previous", before[part.name]});
            CliRun checked = Cli(db, args);
            INFO(checked.out << checked.err);
            CHECK(checked.code == 0);
            CHECK(checked.out.find("his " + part.name + " report of turn " + t.turn.ToString()) != std::string::npos);
            CHECK(Cli(db, {"verify-report", Write(stem + ".json", json->second)}).code == 0);
            now[part.name] = text_file;
          }
          // The whole packet, as mailed: one proof per report, each checked.
          const std::string all = Write(g.dir.path() + "/" + person + "-" + t.turn.ToString() + ".txt", packet->Text());
          CliRun whole_run = Cli(db, {"verify-report", all, "--json"});
          INFO(whole_run.out << whole_run.err);
          CHECK(whole_run.code == 0);
          CHECK(static_cast<size_t>(std::count(whole_run.out.begin(), whole_run.out.end(), '\n')) == now.size());
          before = now;
        }
      }
      CHECK(carried > 0);
      CHECK(proven > 0);  // some report of the kind proves events
      INFO(kind.name << ": reports with events proven: " << Catch::Detail::stringify(reports_proven));
      CHECK(reports_proven.count("orders"));
    }
  }
}

TEST_CASE("a report's own proof: a changed event or proof hash fails, a cut or damaged block is named, a report "
          "without a proof says so",
          "[proofs]") {
  const signing::SigningKey key = TestKey(68);
  const GameKind& kind = GameKinds().front();
  PlayedGame g(kind, SignedWith(key));
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  const TurnPlan& t = kind.turns.back();
  const std::string person = t.orders.front().first;
  auto packet = reports::TurnPacket(db, "g", "main", person, t.turn);
  REQUIRE(packet.ok());
  auto orders = std::find_if(packet->parts.begin(), packet->parts.end(), [](const auto& p) { return p.name == "orders"; });
  REQUIRE(orders != packet->parts.end());
  const std::string text = orders->text;
  REQUIRE(Cli(db, {"verify-report", Write(g.dir.path() + "/ok.txt", text)}).code == 0);
  auto json = std::find_if(packet->json.begin(), packet->json.end(), [](const auto& j) { return j.first == "orders.json"; });
  REQUIRE(json != packet->json.end());
  // A changed hex digit of an event, then of a proof hash, in the JSON.
  for (const std::string& field : {std::string("\"event\": \""), std::string("\"proof\": [\"")}) {
    INFO(field);
    std::string bad = json->second;
    const size_t at = bad.find(field, bad.find("\"report_proof\""));
    REQUIRE(at != std::string::npos);
    // A digit of the event's last bytes (its strings: it stays an Event), a proof hash's tenth.
    const size_t digit_at = field[1] == 'e' ? bad.find('"', at + field.size()) - 3 : at + field.size() + 10;
    char& digit = bad[digit_at];
    digit = digit == '0' ? '1' : '0';
    CliRun r = Cli(db, {"verify-report", Write(g.dir.path() + "/bad.json", bad)});
    CHECK(r.code == 3);
    CHECK(r.out.find("FAILED") != std::string::npos);
  }
  // A block cut short, damaged base64, two blocks (each checked).
  const size_t end = text.find(reports::kProofEnd);
  REQUIRE(end != std::string::npos);
  CliRun cut = Cli(db, {"verify-report", Write(g.dir.path() + "/cut.txt", text.substr(0, end))});
  CHECK(cut.code == 2);
  CHECK(cut.err.find("cut short") != std::string::npos);
  std::string damaged = text;
  damaged[text.find(reports::kProofBegin) + reports::kProofBegin.size() + 5] = '*';
  CliRun dam = Cli(db, {"verify-report", Write(g.dir.path() + "/damaged.txt", damaged)});
  CHECK(dam.code == 2);
  CHECK(dam.err.find("not base64") != std::string::npos);
  CHECK(dam.err.find("damaged.txt:") != std::string::npos);
  CliRun twice = Cli(db, {"verify-report", Write(g.dir.path() + "/twice.txt", text + text)});
  CHECK(twice.code == 0);
  // Each block its own verdict: two lines saying every check holds.
  size_t verdicts = 0;
  for (size_t at = twice.out.find("twice.txt: "); at != std::string::npos; at = twice.out.find("twice.txt: ", at + 1)) {
    const size_t eol = twice.out.find('\n', at);
    const std::string line = twice.out.substr(at, eol - at);
    if (line.find(": every check holds") != std::string::npos) ++verdicts;
  }
  CHECK(verdicts == 2);
  // Each block is told on its own: a good block, then one whose listing was
  // changed — the file fails (exit 3) naming the changed line of the second
  // (counted from the top of the file), the first block's checks all hold
  // and the second's listing check fails; --json says the same per block.
  {
    std::string changed = text;
    const size_t at = changed.find("  leaf ", changed.find("This report was built from"));
    REQUIRE(at != std::string::npos);
    char& d = changed[at + 7];
    d = d == '1' ? '2' : '1';
    CliRun r = Cli(db, {"verify-report", Write(g.dir.path() + "/second.txt", text + changed)});
    CHECK(r.code == 3);
    const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) +
                        static_cast<size_t>(std::count(changed.begin(), changed.begin() + static_cast<long>(at), '\n'));
    INFO(r.out << r.err);
    CHECK(r.err.find("second.txt:" + std::to_string(line) + ": ") != std::string::npos);
    CHECK(r.err.find("this line lists seq ") != std::string::npos);
    const size_t holds = r.out.find(": every check holds");
    const size_t fails = r.out.find(": a check FAILS");
    CHECK(holds != std::string::npos);
    CHECK(fails != std::string::npos);
    CHECK(holds < fails);
    CHECK(r.out.find("  listing: ok - ") != std::string::npos);
    CHECK(r.out.find("  listing: FAILED - ") != std::string::npos);
    CliRun j = Cli(db, {"verify-report", g.dir.path() + "/second.txt", "--json"});
    CHECK(j.code == 3);
    CHECK(std::count(j.out.begin(), j.out.end(), '\n') == 2);  // one VerifyReportResult a block
    INFO(j.out);
    const size_t first_end = j.out.find('\n');
    REQUIRE(first_end != std::string::npos);
    CHECK(j.out.substr(0, first_end).find("\"ok\": true,\"checks\": [{\"check\": \"listing\",\"ok\": true") !=
          std::string::npos);
    CHECK(j.out.substr(first_end).find("\"ok\": false,\"checks\": [{\"check\": \"listing\",\"ok\": false") !=
          std::string::npos);
  }
  // The listing above the block changed (a leaf hash, a seq): the text no
  // longer says what the block proves.
  for (const std::string& what : {std::string("  leaf "), std::string("  seq ")}) {
    std::string changed = text;
    const size_t at = changed.find(what, changed.find("This report was built from"));
    REQUIRE(at != std::string::npos);
    char& d = changed[at + what.size()];
    d = d == '1' ? '2' : '1';
    CliRun r = Cli(db, {"verify-report", Write(g.dir.path() + "/listing.txt", changed)});
    CHECK(r.code == 3);
    CHECK(r.err.find("are not those its proof block proves") != std::string::npos);
    // It names the line changed, not the listing's first.
    const size_t line = 1 + static_cast<size_t>(std::count(changed.begin(), changed.begin() + static_cast<long>(at), '\n'));
    CHECK(r.err.find("listing.txt:" + std::to_string(line) + ": ") != std::string::npos);
    CHECK(r.err.find("this line lists seq ") != std::string::npos);
  }
  // A listed line taken away: the block proves an event listed nowhere.
  {
    std::string fewer = text;
    const size_t at = fewer.find("  seq ", fewer.find("This report was built from"));
    REQUIRE(at != std::string::npos);
    fewer.erase(at, fewer.find('\n', at) + 1 - at);
    CliRun r = Cli(db, {"verify-report", Write(g.dir.path() + "/fewer.txt", fewer)});
    CHECK(r.code == 3);
    CHECK(r.err.find("listed nowhere") != std::string::npos);
  }
  // The listing's first line cut away (the events above could then be any).
  {
    std::string headless = text;
    const size_t at = headless.find("This report was built from");
    headless.erase(at, headless.find('\n', at) + 1 - at);
    CliRun r = Cli(db, {"verify-report", Write(g.dir.path() + "/headless.txt", headless)});
    CHECK(r.code == 3);
    CHECK(r.err.find("has no listing of its events above it") != std::string::npos);
  }
  // Another report's block under this listing.
  auto events_part = std::find_if(packet->parts.begin(), packet->parts.end(), [](const auto& p) { return p.name == "positions"; });
  REQUIRE(events_part != packet->parts.end());
  const std::string other = events_part->text.substr(events_part->text.find(reports::kProofBegin));
  CliRun swapped = Cli(db, {"verify-report", Write(g.dir.path() + "/swapped.txt", text.substr(0, text.find(reports::kProofBegin)) + other)});
  CHECK(swapped.code == 3);
  // A report with no proof (the public map, a game that signs nothing).
  PlayedGame plain(kind);
  REQUIRE(plain.status.ok());
  auto unsigned_packet = reports::TurnPacket(*plain, "g", "main", person, t.turn);
  REQUIRE(unsigned_packet.ok());
  auto plain_json = std::find_if(unsigned_packet->json.begin(), unsigned_packet->json.end(),
                                 [](const auto& j) { return j.first == "orders.json"; });
  REQUIRE(plain_json != unsigned_packet->json.end());
  CliRun none = Cli(db, {"verify-report", Write(g.dir.path() + "/none.json", plain_json->second)});
  CHECK(none.code == 2);
  CHECK(none.err.find("carries no proof") != std::string::npos);
  CliRun prose = Cli(db, {"verify-report", Write(g.dir.path() + "/prose.txt", unsigned_packet->parts.front().text)});
  CHECK(prose.code == 2);
  CHECK(prose.err.find("neither a proof") != std::string::npos);
}

TEST_CASE("report proofs hold a PATE battle's own rolls (7.4-7.8) for the ships that fought it, and no one else's",
          "[proofs]") {
  const signing::SigningKey key = TestKey(69);
  const GameKind& kind = GameKinds().front();
  REQUIRE(kind.name == "nwol");
  PlayedGame g(kind, SignedWith(key));
  REQUIRE(g.status.ok());
  ledger::Ledger& db = *g;
  // Nelson's BR5SL goes into Brest's harbour to fight the French there (PATE 7.1).
  auto o = Order(db, "g", "nelson",
                 OrderFile({PateItem("ShipOrders", R"({"ship": "BR5SL", "port": "Brest", "harbour": true, "engage": "Close"})")}));
  INFO(o.status().message());
  REQUIRE(o.ok());
  CliRun ran = Cli(db, {"adjudicate", "g", "--signing-key", g.dir.path() + "/nwol.key"});
  INFO(ran.err);
  REQUIRE(ran.code == 0);
  // The battle's own rolls in the log.
  std::set<uint64_t> battle_rolls;
  auto range = replay::TurnSeqs(db, "g", "main", kind.coming);
  REQUIRE(range.ok());
  REQUIRE(range->has_value());
  REQUIRE(db.Read("g", "main", (*range)->first, (*range)->second, [&](const ledger::EventView& e) {
              if (const auto* r = e.event()->payload_as_DieRolled(); r && r->subject()->str().rfind("battle ", 0) == 0) {
                battle_rolls.insert(e.seq);
              }
              return Status::Ok();
            }).ok());
  REQUIRE_FALSE(battle_rolls.empty());
  const Owners owners = OwnersOf(db, "main");
  // Nelson's BR5SL and Villeneuve's FR1SL and FR2SL fought; their Naval
  // Ministers see all their ships (PATE 2.3); Troubridge's transport,
  // Gravina's Spaniard and Pitt were not there.
  const std::set<std::string> there = {"nelson", "villeneuve", "barham", "decres"};
  for (const std::string person : {"nelson", "villeneuve", "barham", "decres", "troubridge", "gravina", "pitt"}) {
    INFO(person);
    CliRun proof = Cli(db, {"proof", "g", "--player", person, "--turn", kind.coming.ToString()});
    REQUIRE(proof.code == 0);
    const ReportProofData p = Parse(proof.out);
    CheckNoLeak(db, p, owners, person);
    size_t held = 0;
    for (const auto& [seq, bytes] : p.events) held += battle_rolls.count(seq);
    if (!there.count(person)) {
      CHECK(held == 0);
    } else if (person != "nelson") {
      CHECK(held == battle_rolls.size());
    } else {
      CHECK(held == battle_rolls.size());
      // His events report, which tells the battle, proves them too.
      auto packet = reports::TurnPacket(db, "g", "main", person, kind.coming);
      REQUIRE(packet.ok());
      auto events = std::find_if(packet->parts.begin(), packet->parts.end(), [](const auto& x) { return x.name == "events"; });
      REQUIRE(events != packet->parts.end());
      const ReportProofData d = OnlyProofIn(events->text, "events");
      size_t in_report = 0;
      for (const auto& [seq, bytes] : d.events) in_report += battle_rolls.count(seq);
      CHECK(in_report == battle_rolls.size());
      CHECK(Cli(db, {"verify-report", Write(g.dir.path() + "/events.txt", events->text)}).code == 0);
    }
    CHECK(Cli(db, {"verify-report", Write(g.dir.path() + "/" + person + ".json", proof.out)}).code == 0);
  }
}

TEST_CASE("report proofs on the Europe 1820 game: each ruler's hold the combats, captures and treaties his nation "
          "was party to and the combats fought on its ground, each round with its two dice, and nothing of anyone else's",
          "[proofs][e2e]") {
  TempDir dir;
  const signing::SigningKey key = TestKey(70);
  std::string key_file;
  auto l = SignedFixtureGame(dir, key, "y1820/europe-1820.json", "y1820/europe-1820.map.json", "1820", &key_file);
  ledger::Ledger& db = *l;
  const std::string fx = ADJUTANT_FIXTURES;
  // Who rules each nation (fixtures/orders/europe-1820/PLAY.md).
  const std::map<std::string, std::string> ruler = {
      {"GBR", "castlereagh"}, {"FRA", "richelieu"}, {"NED", "schimmelpenninck"}, {"PRU", "hardenberg"},
      {"AUS", "metternich"},  {"SPA", "ferdinand"}, {"RUS", "nesselrode"},       {"OTT", "mahmud"}};
  const std::string orders = fx + "/orders/europe-1820";
  std::vector<std::string> files;
  for (const auto& f : std::filesystem::directory_iterator(orders)) files.push_back(f.path().filename().string());
  std::sort(files.begin(), files.end());
  std::vector<Turn> turns;
  for (int t = 0; t <= 3; ++t) {
    for (const std::string& f : files) {
      const std::string prefix = "t" + std::to_string(t) + "-";
      if (f.rfind(prefix, 0) != 0 || f.find(".orders.json") == std::string::npos) continue;
      const std::string nation = f.substr(prefix.size(), f.find('.') - prefix.size());
      REQUIRE(ruler.count(nation));
      auto r = Order(db, "g", ruler.at(nation), Slurp(orders + "/" + f));
      INFO(f << ": " << r.status().message());
      REQUIRE(r.ok());
    }
    CliRun ran = Cli(db, {"adjudicate", "g", "--signing-key", key_file});
    INFO(ran.err);
    REQUIRE(ran.code == 0);
    turns.push_back(projections::Y1820Turn(t));
  }
  const Owners owners = OwnersOf(db, "main");
  // Every combat round of the game, with the nations that fought it and the dice before it.
  struct Round { uint64_t seq; Turn turn; int32_t province; std::set<std::string> sides; std::vector<uint64_t> dice; };
  std::vector<Round> rounds;
  for (const Y1820RoundSeen& r : Y1820RoundsOf(db, "g")) {
    rounds.push_back({r.seq, r.turn, r.province, {r.attacker, r.defender}, r.dice});
  }
  REQUIRE(rounds.size() >= 10);
  // The provinces a nation held as a turn began or as it ended: a battle
  // fought on its ground is its own too, whoever fought it.
  auto ground = [&](const Turn& turn, const std::string& nation) {
    auto range = replay::TurnSeqs(db, "g", "main", turn);
    REQUIRE(range.ok());
    REQUIRE(range->has_value());
    std::set<int32_t> out;
    for (uint64_t upto : {(*range)->first - 1, (*range)->second}) {
      auto w = replay::Fold(db, "g", "main", upto, {"y1820"});
      REQUIRE(w.ok());
      for (const auto& [id, p] : w->y1820().provinces) {
        if (p.owner == nation) out.insert(id);
      }
    }
    return out;
  };
  size_t rounds_proven = 0;
  for (const auto& [nation, person] : ruler) {
    std::string previous;
    for (const Turn& turn : turns) {
      INFO(person << ", turn " << turn.ToString());
      CliRun proof = Cli(db, {"proof", "g", "--player", person, "--turn", turn.ToString()});
      INFO(proof.err);
      REQUIRE(proof.code == 0);
      const ReportProofData p = Parse(proof.out);
      CheckNoLeak(db, p, owners, person);
      std::set<uint64_t> in;
      for (const auto& [seq, bytes] : p.events) in.insert(seq);
      const std::set<int32_t> his_ground = ground(turn, nation);
      for (const Round& r : rounds) {
        if (r.turn != turn) continue;
        INFO("combat round at seq " << r.seq);
        const bool his = r.sides.count(nation) > 0 || (r.province != 0 && his_ground.count(r.province) > 0);
        CHECK(in.count(r.seq) == (his ? 1u : 0u));
        REQUIRE(r.dice.size() == 2);
        for (uint64_t die : r.dice) CHECK(in.count(die) == (his ? 1u : 0u));
        rounds_proven += his;
      }
      const std::string file = Write(dir.path() + "/" + person + "-" + turn.ToString() + ".json", proof.out);
      std::vector<std::string> args = {"verify-report", file};
      if (!previous.empty()) args.insert(args.end(), {"--previous", previous});
      CliRun checked = Cli(db, args);
      INFO(checked.out << checked.err);
      CHECK(checked.code == 0);
      previous = file;
    }
  }
  CHECK(rounds_proven >= rounds.size());  // each round to both sides (a neutral province's defender is nobody's)
}

TEST_CASE("report sources on the 1820 game: the rounds of a battle fought on a ruler's ground are his, whoever "
          "fought them (a third nation's armies defending his province, Y9.1), with their dice",
          "[proofs][y1820]") {
  TempDir dir;
  // third-armies-9.1: Aland attacks Bland's province 5, where Bland's army and
  // the two of its pact partner Cland (at war with Aland) stand; Bland's army
  // falls, then Cland's two: Bland's ruler's sources hold Cland's rounds too.
  const std::string fx = ADJUTANT_FIXTURES;
  Run c = Adjutant({"conform", fx + "/conformance/y1820/third-armies-9.1.json", "--keep", dir.Sub("case")});
  INFO(c.out << c.err);
  REQUIRE(c.code == 0);
  auto l = ledger::Ledger::Open(dir.Sub("case"));
  REQUIRE(l.ok());
  ledger::Ledger& db = **l;
  const Turn turn = projections::Y1820Turn(3);
  // The battle's rounds by defender, each with the two dice rolled before it.
  std::map<std::string, std::vector<uint64_t>> rounds;  // defender -> the rounds' seqs and their dice
  for (const Y1820RoundSeen& r : Y1820RoundsOf(db, "case")) {
    CHECK(r.turn == turn);
    CHECK(r.province == 5);
    CHECK(r.attacker == "AAA");
    REQUIRE(r.dice.size() == 2);
    auto& seqs = rounds[r.defender];
    seqs.push_back(r.seq);
    seqs.insert(seqs.end(), r.dice.begin(), r.dice.end());
  }
  REQUIRE(rounds["BBB"].size() == 3);  // one round and its two dice
  REQUIRE(rounds["CCC"].size() == 6);  // two
  auto sources = [&](const std::string& person) {
    auto s = reports::SourcesOf(db, "case", "main", person, turn);
    INFO(person << ": " << s.status().message());
    REQUIRE(s.ok());
    return std::set<uint64_t>(s->begin(), s->end());
  };
  // Aland attacked in every round and Bland's province was fought over in
  // every round: theirs. Cland fought only its own two: the round Bland's
  // army lost was fought neither by it nor on its ground.
  for (const std::string person : {"alice", "bob", "carol"}) {
    const std::set<uint64_t> his = sources(person);
    for (const auto& [defender, seqs] : rounds) {
      const bool expected = person != "carol" || defender == "CCC";
      for (uint64_t seq : seqs) {
        INFO(person << ", the round against " << defender << ": seq " << seq);
        CHECK(his.count(seq) == (expected ? 1u : 0u));
      }
    }
  }
}
