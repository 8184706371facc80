// The reports' front door (reports.h): the viewer, what he may read, and
// the builder of each kind.
#include "reports/reports.h"

#include <algorithm>

#include <flatbuffers/flatbuffers.h>

#include "ledger/ledger.h"
#include "projections/battle.h"
#include "projections/roster.h"
#include "projections/summary.h"
#include "replay/rebuild.h"
#include "maps/draw.h"
#include "reports/common.h"
#include "reports/footer.h"
#include "reports/sources.h"
#include "schema/codec.h"
#include "schema/reports_generated.h"

namespace adjutant::reports {

namespace {

struct KindName {
  Kind kind;
  const char* name;
};
constexpr KindName kKinds[] = {{Kind::kTreasury, "treasury"}, {Kind::kFleet, "fleet"},   {Kind::kEvents, "events"},
                               {Kind::kPositions, "positions"}, {Kind::kMap, "map"},     {Kind::kNation, "nation"},
                               {Kind::kBattle, "battle"},     {Kind::kOrders, "orders"},  {Kind::kChoices, "choices"}};

// The part before the first '.' of the viewer's first role ending ".suffix"
// ("BR" of "BR.treasury"); "" if he holds none.
std::string PrefixOf(const Viewer& v, const std::string& suffix) {
  for (const auto& r : v.roles) {
    auto role = projections::Role::Parse(r);
    if (role && role->title == suffix) return role->holder;
  }
  return "";
}

bool Holds(const Viewer& v, const std::string& role) {
  return std::find(v.roles.begin(), v.roles.end(), role) != v.roles.end();
}

bool Draws(Kind k) { return k == Kind::kPositions || k == Kind::kMap || k == Kind::kBattle; }

// Ok if every field `rq` gives applies to its kind; else the message
// `adjutant report` gives for the option.
Status Applies(const Request& rq) {
  const std::string kind = NameOf(rq.kind);
  auto refuse = [&](const char* option) {
    return Status::InvalidArgument("report " + kind + ": --" + option + " does not apply to it");
  };
  const bool economy = rq.kind == Kind::kTreasury || rq.kind == Kind::kFleet;
  const bool ships = rq.kind == Kind::kEvents || rq.kind == Kind::kPositions;
  if (!rq.state.empty() && !economy) return refuse("state");
  if (!rq.player.empty() && !ships && rq.kind != Kind::kOrders && rq.kind != Kind::kChoices) return refuse("player");
  if (!rq.nation.empty() && rq.kind != Kind::kNation) return refuse("nation");
  if (!rq.side.empty() && rq.kind != Kind::kBattle) return refuse("side");
  if (rq.move && rq.kind != Kind::kBattle && rq.kind != Kind::kOrders) return refuse("move");
  if (rq.move && rq.turn) return Status::InvalidArgument("report " + kind + ": give --turn or --move, not both");
  if (rq.turn && rq.kind == Kind::kBattle) return refuse("turn");
  if (rq.public_only && rq.kind == Kind::kMap) {
    return Status::InvalidArgument("report map: --public does not apply to it (the map is public)");
  }
  if (rq.public_only && rq.kind != Kind::kNation) return refuse("public");
  return Status::Ok();
}

}  // namespace

Viewer Ga() {
  Viewer v;
  v.ga = true;
  v.person = "GA";
  return v;
}

Result<Viewer> PersonNow(ledger::Ledger& db, const std::string& game, const std::string& branch,
                         const std::string& person) {
  projections::Roster roster;
  projections::Projection* ps[] = {&roster};
  if (auto rebuilt = replay::Rebuild(db, game, branch, UINT64_MAX, ps); !rebuilt.ok()) return rebuilt.status();
  const projections::Person* p = roster.Find(person);
  if (!p) return Status::NotFound("game '" + game + "' has no person '" + person + "'");
  Viewer v;
  v.person = person;
  v.roles.assign(p->roles.begin(), p->roles.end());
  return v;
}

std::optional<Kind> KindNamed(std::string_view name) {
  for (const auto& k : kKinds) {
    if (name == k.name) return k.kind;
  }
  return std::nullopt;
}

const char* NameOf(Kind kind) {
  for (const auto& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

Request ForViewer(const Viewer& v, Request rq) {
  if (v.ga) return rq;
  switch (rq.kind) {
    case Kind::kEvents:
    case Kind::kPositions:
    case Kind::kOrders:
    case Kind::kChoices:
      if (rq.player.empty()) rq.player = v.person;
      break;
    case Kind::kTreasury:
      if (rq.state.empty()) rq.state = PrefixOf(v, "treasury");
      if (rq.state.empty()) rq.state = PrefixOf(v, "prime");
      break;
    case Kind::kNation:
      if (rq.nation.empty()) rq.nation = PrefixOf(v, "ruler");
      break;
    case Kind::kBattle:
      if (rq.side.empty()) rq.side = PrefixOf(v, "general");
      break;
    case Kind::kFleet:
    case Kind::kMap:
      break;
  }
  return rq;
}

Status MayRead(const Viewer& v, const Request& rq) {
  if (v.ga) return Status::Ok();
  const std::string what = std::string("report ") + NameOf(rq.kind) + ": ";
  switch (rq.kind) {
    case Kind::kMap:
      return Status::Ok();  // the y1820 map is public
    case Kind::kFleet:
      return Status::InvalidArgument(what + "every ship of the game: the GA's report");
    case Kind::kEvents:
    case Kind::kPositions:
    case Kind::kOrders:
    case Kind::kChoices:
      if (rq.player == v.person) return Status::Ok();
      return Status::InvalidArgument(what + "the reports of '" + rq.player + "' are his own, not " + v.person + "'s");
    case Kind::kTreasury:
      if (rq.state.empty()) return Status::InvalidArgument(what + v.person + " is no state's Finance or Prime Minister");
      if (Holds(v, rq.state + ".treasury") || Holds(v, rq.state + ".prime")) return Status::Ok();
      return Status::InvalidArgument(what + "the treasury of '" + rq.state + "' is not " + v.person + "'s to read");
    case Kind::kNation:
      if (rq.nation.empty()) return Status::InvalidArgument(what + v.person + " rules no nation");
      if (Holds(v, rq.nation + ".ruler")) return Status::Ok();
      return Status::InvalidArgument(what + "the nation '" + rq.nation + "' is not " + v.person + "'s");
    case Kind::kBattle:
      if (rq.side.empty()) return Status::InvalidArgument(what + v.person + " commands no side");
      if (Holds(v, rq.side + ".general")) return Status::Ok();
      return Status::InvalidArgument(what + "the side '" + rq.side + "' is not " + v.person + "'s");
  }
  return Status::InvalidArgument(what + "not yours");
}

namespace {

// Issue 23: in a game that signs its tree heads, the head that covers the
// report (its turn's or move's last, else the latest) and whose proof it is.
Status FindHead(Ctx& c, const Request& rq, const Viewer& v) {
  if (rq.format == Format::kSvg) return Status::Ok();
  auto summary = replay::Fold(c.db, rq.game, c.branch, UINT64_MAX, {"summary"});
  if (!summary.ok() || !summary->kind() || replay::SummaryOf(*summary).signing_key.empty()) return Status::Ok();
  std::optional<Turn> turn;
  if (rq.move) {
    if (auto n = ParseU64(*rq.move); n && *n <= 100000) turn = projections::DogMove(static_cast<int32_t>(*n));
  } else if (rq.turn) {
    turn = Turn::Parse(*rq.turn);
  }
  auto head = replay::HeadCovering(c.db, rq.game, c.branch, turn);
  if (!head.ok()) return head.status();
  c.head = *head;
  if (!c.head) return Status::Ok();
  c.proof_turn = c.head->at.turn.ToString();
  c.proof_person = !rq.player.empty() ? rq.player : v.ga ? std::string() : v.person;
  // The report's own proof: what it was built from, of the person whose
  // report it is (none for the GA's own reports, nor for the reports that
  // prove nothing: the public map, the GA's fleet, the choices before him).
  SourceScope scope;
  switch (rq.kind) {
    case Kind::kOrders: scope.parts = kSourceOrders; break;
    case Kind::kEvents: scope.parts = kSourceObserved; break;
    case Kind::kPositions: scope.parts = kSourceShips; break;
    case Kind::kTreasury: scope = {kSourceStates | kSourceHeld, rq.state}; break;
    case Kind::kNation: scope = {kSourceNations | kSourceHeld, rq.nation}; break;
    case Kind::kBattle: scope = {kSourceBattle, rq.side}; break;
    case Kind::kMap:
    case Kind::kFleet:
    case Kind::kChoices: return Status::Ok();
  }
  if (c.proof_person.empty() || rq.public_only) return Status::Ok();
  scope.parts |= kSourcePublic;  // what checks its dice and keys
  replay::ProofShape shape;
  shape.report = NameOf(rq.kind);
  shape.raw_events = rq.format == Format::kText;  // base64 in its block: the bytes, not their hex
  auto proof = ReportProofOf(c.db, rq.game, c.branch, c.proof_person, c.head->at.turn, scope, shape);
  if (!proof.ok()) return proof.status();
  c.proof = std::move(proof).value();
  return Status::Ok();
}

}  // namespace

Result<Report> Build(ledger::Ledger& db, const Viewer& v, const Request& asked, bool* not_yours) {
  if (not_yours) *not_yours = false;
  ADJ_RETURN_IF_ERROR(Applies(asked));
  const Request rq = ForViewer(v, asked);
  // Before anything of the game is read: what this viewer may see.
  if (Status may = MayRead(v, rq); !may.ok()) {
    if (not_yours) *not_yours = true;
    return may;
  }
  if ((rq.format == Format::kSvg || rq.drawing_too) && !Draws(rq.kind)) {
    return Status::InvalidArgument(std::string("--svg: report ") + NameOf(rq.kind) +
                                   " draws nothing (positions, map and battle do)");
  }
  std::string branch = rq.branch;
  if (branch.empty()) {
    auto current = db.Current(rq.game);
    branch = current.ok() ? *current : "main";
  }
  Ctx c{db, rq, v.ga, branch, "", "", std::nullopt, "", "", {}};
  ADJ_RETURN_IF_ERROR(FindHead(c, rq, v));
  Status st;
  switch (rq.kind) {
    case Kind::kTreasury: st = TreasuryReport(c, rq.game); break;
    case Kind::kFleet: st = FleetReport(c, rq.game); break;
    case Kind::kEvents: st = EventsReport(c, rq.game); break;
    case Kind::kPositions: st = PositionsReport(c, rq.game); break;
    case Kind::kMap: st = MapReport(c, rq.game); break;
    case Kind::kNation: st = NationReport(c, rq.game); break;
    case Kind::kBattle: st = BattleReport(c, rq.game); break;
    case Kind::kOrders: st = OrdersReport(c, rq.game); break;
    case Kind::kChoices: st = ChoicesReport(c, rq.game); break;
  }
  if (!st.ok()) return st;
  if (c.head && rq.format == Format::kText) {
    const replay::SignedHead& h = *c.head;
    c.Line("");
    c.Line("Signed: the history of " + rq.game + "/" + h.branch + " to turn " + h.at.turn.ToString() + " phase " +
           std::to_string(h.at.phase) + " (" + std::to_string(h.size) + " events, root " + h.root + "), head at seq " +
           std::to_string(h.seq) + ", key " + h.public_key + ".");
    if (c.proof.empty()) {
      c.Line("Proof of this report: " + c.ProofHint() + "; check it with `adjutant verify-report` (docs/PROOFS.md).");
    } else {
      c.Line("The proof of " + c.proof_person + "'s whole turn: " + c.ProofHint() + ".");
      c.out += ProofFooter(c.proof);
    }
  }
  Report r;
  r.body = std::move(c.out);
  r.svg = std::move(c.svg);
  return r;
}

uint32_t Ctx::HeadJson(flatbuffers::FlatBufferBuilder& f) const {
  if (!head) return 0;
  const fb::Turn t(head->at.turn.major, head->at.turn.minor, head->at.turn.step);
  const flatbuffers::Offset<fb::ReportProof> own(proof.empty() ? 0
                                                               : schema::CopyRootTable(f, "ReportProof", proof.data()));
  return fb::CreateReportHeadDirect(f, head->branch.c_str(), &t, head->at.phase, head->seq, head->size, head->root.c_str(),
                                    head->public_key.c_str(), head->signature.c_str(), ProofHint().c_str(), own)
      .o;
}

std::string Ctx::ProofHint() const {
  const std::string who = proof_person.empty() ? "P" : proof_person;
  return "`adjutant proof " + rq.game + " --player " + who + " --turn " + proof_turn + "` (the order desk: GET /api/games/" +
         rq.game + "/proof?turn=" + proof_turn + ")";
}

Status Ctx::PrintJson(std::string_view table, flatbuffers::FlatBufferBuilder& fbb) {
  auto j = schema::ToJson(table, fbb.GetBufferPointer());
  if (!j.ok()) return j.status();
  Line(*j);
  return Status::Ok();
}

std::string Xml(const std::string& s) { return maps::Xml(s); }

}  // namespace adjutant::reports
