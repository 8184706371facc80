// The log and the game's branches as recorded (ops.h): games, log, verify,
// digest, stats, branches, rules-versions.
#include <sodium.h>

#include <algorithm>
#include <functional>

#include <flatbuffers/flatbuffers.h>

#include "base/merkle.h"
#include "base/report_proof.h"
#include "base/signing.h"
#include "ledger/tree.h"
#include "ops/internal.h"
#include "ops/render.h"
#include "projections/summary.h"
#include "replay/digest.h"
#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "replay/heads.h"
#include "replay/proofs.h"
#include "reports/sources.h"
#include "replay/rebuild.h"
#include "replay/views.h"
#include "rules/kind.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "schema/values.h"

namespace adjutant::ops {
namespace {

// ---- log ---------------------------------------------------------------------
Status DoLog(const Env& env, const LogRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto from = Count("from", rq.from, 1);
  if (!from.ok()) return from.status();
  auto to = Count("to", rq.to, UINT64_MAX);
  if (!to.ok()) return to.status();
  std::string kind;
  if (auto k = rq.kind; k && !KnownKind(*k, &kind)) {
    return Status::InvalidArgument("--kind: no event kind '" + *k + "' (kinds: " + KnownKinds() + ")");
  }
  std::optional<Turn> turn;
  if (auto t = rq.turn) {
    turn = Turn::Parse(*t);
    if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (MAJOR[.MINOR[.STEP]], e.g. 1805.2.3)");
  }
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  uint64_t lo = *from, hi = *to;
  if (turn) {
    auto start = (*db)->SeekTurn(game, branch, TurnPhase{*turn, 0});
    if (!start.ok()) return start.status();
    if (!start->has_value()) return Status::Ok();  // nothing that late
    lo = std::max(lo, **start);
  }
  bool json = rq.json;
  std::string out;
  Status st = (*db)->Read(game, branch, lo, hi, [&](const ledger::EventView& e) {
    const fb::Turn* t = e.event()->turn();
    if (turn) {
      Turn et = schema::TurnOf(t);
      if (et != *turn) return Status::NotFound("");  // past the turn: stop
    }
    if (!kind.empty() && KindName(e) != kind && DisplayKind(e) != kind) return Status::Ok();
    if (json) {
      auto j = schema::ToJson("Event", e.bytes.data());
      if (!j.ok()) return Status::Corruption("seq " + std::to_string(e.seq) + ": " + j.status().message());
      out += *j;
    } else {
      out += EventLine(e);
    }
    out += '\n';
    if (out.size() > (1 << 16)) { p.Out(out); out.clear(); }
    return Status::Ok();
  });
  p.Out(out);
  if (st.code() == Status::Code::kNotFound && st.message().empty()) return Status::Ok();
  return st;
}

// ---- verify ------------------------------------------------------------------
// A turn's digest, checked against the one the GA published (issue 5).
Status VerifyDigest(const Env& env, const VerifyRequest& rq, Printer& p, ledger::Ledger& db, const std::string& game, const std::string& digest) {
  auto t = rq.turn;
  if (!t) return Status::InvalidArgument("adjutant verify: --digest D needs --turn T, the turn it was taken after");
  auto turn = Turn::Parse(*t);
  if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  std::string branch = BranchOf(env, rq.branch, game);
  auto d = replay::DigestTurn(db, game, branch, *turn);
  if (!d.ok()) return d.status();
  bool same = sodium_memcmp(d->hex.data(), digest.data(), std::min(d->hex.size(), digest.size())) == 0 &&
              d->hex.size() == digest.size();
  if (!same) {
    return Status::Corruption(game + "/" + branch + ": the log up to the end of turn " + t->c_str() +
                              " (seq " + std::to_string(d->last_seq) + ") no longer matches digest " + digest);
  }
  p.Line("verify " + game + "/" + branch + ": turn " + turn->ToString() + " matches its digest (" +
       std::to_string(d->events) + " events up to seq " + std::to_string(d->last_seq) + ")");
  return Status::Ok();
}

Status DoVerify(const Env& env, const VerifyRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  if (auto digest = rq.digest) return VerifyDigest(env, rq, p, **db, game, *digest);
  if (rq.dice) {
    auto t = rq.turn;
    auto turn = t ? Turn::Parse(*t) : std::nullopt;
    if (!turn) return Status::InvalidArgument("adjutant verify: --dice needs --turn T");
    std::string branch = BranchOf(env, rq.branch, game);
    auto check = replay::VerifyTurnDice(**db, game, branch, *turn);
    if (!check.ok()) return check.status();
    if (!check->ok) {
      return Status::Corruption(game + "/" + branch + ": turn " + turn->ToString() + "'s dice: " + check->reason +
                                (check->bad_seq ? " (seq " + std::to_string(check->bad_seq) + ")" : ""));
    }
    p.Line("verify " + game + "/" + branch + ": turn " + turn->ToString() + "'s revealed salt matches its commitment, and " +
         std::to_string(check->rolls) + " roll(s) of the turn are what the seed and salts give");
    return Status::Ok();
  }
  if (rq.turn) return Status::InvalidArgument("adjutant verify: --turn goes with --digest D or --dice");
  std::vector<std::string> branches;
  if (rq.all) {
    if (rq.branch) return Status::InvalidArgument("adjutant verify: --all and --branch exclude each other");
    auto bs = (*db)->Branches(game);
    if (!bs.ok()) return bs.status();
    for (const auto& b : *bs) branches.push_back(b.name);
  } else {
    branches.push_back(BranchOf(env, rq.branch, game));
  }
  // Each branch's events, then (once every branch holds, with --all, the
  // damage recorded earlier cleared) the Merkle tree's kept nodes (a cache
  // that signed heads and proofs are made from), each made again from the
  // events — not while damage stops the game's reads. The events are read
  // once: the leaves are hashed as the verify passes them, when the branch
  // keeps any node.
  std::vector<ledger::VerifiedBranch> verified;
  bool events_ok = true;
  for (const auto& branch : branches) {
    auto v = ledger::VerifyWithTree(**db, game, branch);
    if (!v.ok()) return v.status();
    events_ok = events_ok && v->report.ok;
    verified.push_back(std::move(v).value());
  }
  bool cleared = false;
  if (events_ok && rq.all && (*db)->DamageOf(game)) {
    (*db)->ClearDamage(game);  // every branch is whole again (say, the GA put a table file back from a copy)
    cleared = true;
  }
  const bool damaged = (*db)->DamageOf(game).has_value();
  bool all_ok = true;
  std::string first_failure;
  for (size_t b = 0; b < branches.size(); ++b) {
    const std::string& branch = branches[b];
    ledger::VerifyReport* rep = &verified[b].report;
    ledger::KeptNodesCheck nodes;
    if (rep->ok && !damaged && verified[b].tree) {
      auto checked = verified[b].tree->Check(**db, game, branch);
      if (!checked.ok()) return checked.status();
      nodes = std::move(checked).value();
      if (!nodes.wrong.empty()) {
        const ledger::Ledger::TreeNode& w = nodes.wrong.front();
        rep->ok = false;
        rep->reason = std::to_string(nodes.wrong.size()) + " of the " + std::to_string(nodes.checked) +
                      " kept Merkle tree nodes differ from the events (first: level " + std::to_string(w.level) +
                      ", index " + std::to_string(w.index) + "); they are a cache the signed heads are made from: " +
                      "`adjutant tree " + game + " --branch " + branch + " --mend` makes them again";
      }
    }
    if (rq.json) {
      flatbuffers::FlatBufferBuilder fbb;
      fbb.Finish(fb::CreateVerifyResultDirect(fbb, game.c_str(), branch.c_str(), rep->ok, rep->events,
                                              rep->head.seq, rep->head.hash.Hex().c_str(), rep->bad_seq,
                                              rep->reason.c_str(), nodes.checked, nodes.wrong.size()));
      ADJ_RETURN_IF_ERROR(p.Json("VerifyResult", fbb));
    } else if (rep->ok) {
      p.Line("verify " + game + "/" + branch + ": ok, " + std::to_string(rep->events) + " events, head " +
             std::to_string(rep->head.seq) + " " + rep->head.hash.Hex() +
             (damaged ? std::string(" (its kept tree nodes unchecked while damage is recorded: verify --all)")
                      : nodes.checked == 0 ? std::string(", no Merkle tree nodes kept yet")
                                           : ", " + std::to_string(nodes.checked) + " kept tree nodes match them"));
    }
    if (!rep->ok) {
      all_ok = false;
      if (first_failure.empty()) {
        first_failure = "verify " + game + "/" + branch + ": FAILED" +
                        (rep->bad_seq ? " at seq " + std::to_string(rep->bad_seq) : std::string()) + ": " + rep->reason;
      }
    }
  }
  if (!all_ok) return Status::Corruption(first_failure);
  if (cleared && !rq.json) p.Line("verify " + game + ": every branch verifies; the damage recorded earlier is cleared");
  return Status::Ok();
}

// ---- digest ------------------------------------------------------------------
Status DoDigest(const Env& env, const DigestRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto t = rq.turn;
  if (!t) return Status::InvalidArgument("adjutant digest: --turn T is required");
  auto turn = Turn::Parse(*t);
  if (!turn) return Status::InvalidArgument("--turn: '" + *t + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  auto d = replay::DigestTurn(**db, game, branch, *turn);
  if (!d.ok()) return d.status();
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    fb::Turn ft(turn->major, turn->minor, turn->step);
    f.Finish(fb::CreateTurnDigestResultDirect(f, game.c_str(), branch.c_str(), &ft, d->last_seq, d->events, d->hex.c_str()));
    return p.Json("TurnDigestResult", f);
  }
  p.Line(d->hex);
  p.Line("turn " + turn->ToString() + " of " + game + "/" + branch + ": BLAKE2b-256 of " + std::to_string(d->events) +
       " events up to seq " + std::to_string(d->last_seq) + "; check it later with `adjutant verify " + game +
       " --turn " + turn->ToString() + " --digest " + d->hex + "`");
  return Status::Ok();
}

// ---- proof, verify-report --------------------------------------------------------
Status DoProof(const Env& env, const ProofRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  const std::string branch = BranchOf(env, rq.branch, game);
  if (!rq.person) return Status::InvalidArgument("adjutant proof: --player PERSON is required");
  if (!rq.turn) return Status::InvalidArgument("adjutant proof: --turn T is required");
  auto turn = Turn::Parse(*rq.turn);
  if (!turn) return Status::InvalidArgument("--turn: '" + *rq.turn + "' is not a turn (e.g. 1805.1.3)");
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  auto world = replay::Fold(**db, game, branch, UINT64_MAX, {"roster"});
  if (!world.ok()) return world.status();
  if (!world->roster().Find(*rq.person)) {
    return Status::InvalidArgument("--player: there is no person '" + *rq.person + "' in game '" + game + "'");
  }
  std::optional<uint64_t> since;
  if (rq.since) {
    auto n = Count("since", rq.since, 0);
    if (!n.ok()) return n.status();
    since = *n;
  }
  replay::ProofShape shape;
  shape.since = since;
  auto proof = reports::ReportProofOf(**db, game, branch, *rq.person, *turn, {}, shape);
  if (!proof.ok()) return proof.status();
  auto json = schema::ToJson("ReportProof", proof->data());
  if (!json.ok()) return json.status();
  p.Line(*json);
  return Status::Ok();
}

namespace {

Result<ReportProofData> ProofData(const std::vector<uint8_t>& doc, const std::string& file) {
  auto d = replay::ReportProofFrom(*flatbuffers::GetRoot<fb::ReportProof>(doc.data()));
  if (!d.ok()) return Status::InvalidArgument(file + ": " + d.status().message());
  return d;
}

}  // namespace

Status DoVerifyReport(const Env&, const VerifyReportRequest& rq, Printer& p) {
  if (rq.docs.empty()) return Status::InvalidArgument(rq.file + ": holds no report proof");
  std::vector<ReportProofData> proofs, previous;
  for (const auto& doc : rq.docs) {
    auto d = ProofData(doc, rq.file);
    if (!d.ok()) return d.status();
    proofs.push_back(std::move(d).value());
  }
  for (const auto& doc : rq.previous) {
    auto d = ProofData(doc, rq.previous_file);
    if (!d.ok()) return d.status();
    previous.push_back(std::move(d).value());
  }
  // Each proof against the previous one of the same report, else the
  // previous whole turn's, else the first.
  auto previous_of = [&](const ReportProofData& d) -> const ReportProofData* {
    if (previous.empty()) return nullptr;
    for (const std::string& want : {d.report, std::string()}) {
      for (const auto& q : previous) {
        if (q.report == want) return &q;
      }
    }
    return &previous.front();
  };
  const bool several = proofs.size() > 1;
  std::string first_bad;
  for (size_t i = 0; i < proofs.size(); ++i) {
    const ReportProofData& d = proofs[i];
    std::vector<ReportCheck> checks = CheckReportProof(d, previous_of(d));
    // A text block's listing of its events, first: the events the reader
    // was shown beside the block are those it proves.
    if (i < rq.listings.size() && rq.listings[i]) {
      const std::string& fault = *rq.listings[i];
      checks.insert(checks.begin(), ReportCheck{"listing", fault.empty(),
                                                fault.empty() ? "the events listed above the block are those it proves"
                                                              : fault,
                                                false});
    }
    const bool ok = std::all_of(checks.begin(), checks.end(), [](const ReportCheck& c) { return c.ok; });
    const std::string what = d.person + "'s proof of " + (d.report.empty() ? "" : "his " + d.report + " report of ") +
                             "turn " + d.turn.ToString() + " of " + d.game;
    if (rq.json) {
      flatbuffers::FlatBufferBuilder f;
      std::vector<flatbuffers::Offset<fb::ReportCheck>> rows;
      for (const auto& c : checks) {
        rows.push_back(fb::CreateReportCheckDirect(f, c.check.c_str(), c.ok, c.detail.c_str(), c.pending));
      }
      f.Finish(fb::CreateVerifyReportResultDirect(f, rq.file.c_str(), ok, &rows, d.report.c_str()));
      ADJ_RETURN_IF_ERROR(p.Json("VerifyReportResult", f));
    } else {
      const bool pending = std::any_of(checks.begin(), checks.end(), [](const ReportCheck& c) { return c.pending; });
      p.Line(rq.file + ": " + what +
             (!ok ? ": a check FAILS" : pending ? ": every check holds so far (some dice await their salt)"
                                                : ": every check holds"));
      for (const auto& c : checks) {
        p.Line("  " + c.check + ": " + (!c.ok ? "FAILED" : c.pending ? "pending" : "ok") + " - " + c.detail);
      }
    }
    if (!ok && first_bad.empty()) {
      const auto bad = std::find_if(checks.begin(), checks.end(), [](const ReportCheck& c) { return !c.ok; });
      first_bad = (several ? what + ": " : std::string()) + bad->check + " does not hold: " + bad->detail;
    }
  }
  if (!first_bad.empty()) return Status::Corruption(rq.file + ": " + first_bad);
  return Status::Ok();
}

// ---- heads ----------------------------------------------------------------------
Status DoHeads(const Env& env, const HeadsRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  const std::string branch = BranchOf(env, rq.branch, game);
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  // Every root from the events themselves: no kept node is trusted.
  auto heads = replay::CheckHeads(**db, game, branch, 1, UINT64_MAX, replay::HeadRoots::kFromEvents);
  if (!heads.ok()) return heads.status();
  auto now = replay::Fold(**db, game, branch, UINT64_MAX, {"summary"});
  if (!now.ok()) return now.status();
  const std::string key = replay::SummaryOf(*now).signing_key;
  uint32_t bad = 0;
  for (const auto& h : *heads) bad += h.problem.empty() ? 0 : 1;
  if (rq.json) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::HeadRow>> rows;
    for (const auto& h : *heads) {
      fb::Turn t(h.head.at.turn.major, h.head.at.turn.minor, h.head.at.turn.step);
      rows.push_back(fb::CreateHeadRowDirect(fbb, h.seq, &t, h.head.at.phase, h.head.size, merkle::Hex(h.head.root).c_str(),
                                             signing::Hex(h.public_key).c_str(), signing::Hex(h.signature).c_str(),
                                             h.problem.c_str()));
    }
    fbb.Finish(fb::CreateHeadsResultDirect(fbb, game.c_str(), branch.c_str(), key.c_str(), &rows, bad));
    ADJ_RETURN_IF_ERROR(p.Json("HeadsResult", fbb));
  } else {
    p.Line(game + "/" + branch + ": " + (key.empty() ? "signs no tree heads" : "tree heads signed by " + key) + "; " +
           std::to_string(heads->size()) + " head" + (heads->size() == 1 ? "" : "s") + " recorded");
    for (const auto& h : *heads) {
      p.Line("  seq " + std::to_string(h.seq) + "  turn " + h.head.at.turn.ToString() + " phase " +
             std::to_string(h.head.at.phase) + "  size " + std::to_string(h.head.size) + "  root " +
             merkle::Hex(h.head.root) + "  " + (h.problem.empty() ? "ok" : "BAD: " + h.problem));
    }
  }
  if (bad > 0) {
    return Status::Corruption(std::to_string(bad) + " of " + std::to_string(heads->size()) + " tree heads of " + game +
                              "/" + branch + " do not hold (first: seq " +
                              std::to_string(std::find_if(heads->begin(), heads->end(), [](const auto& h) {
                                               return !h.problem.empty();
                                             })->seq) + ")");
  }
  return Status::Ok();
}

Status DoTree(const Env& env, const TreeRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  if (rq.mend) {
    if (rq.size || rq.prove || rq.since) return Status::InvalidArgument("--mend: goes with no --size, --prove or --since");
    auto db = env.open(true);
    if (!db.ok()) return db.status();
    auto checked = ledger::CheckKeptNodes(**db, game, branch);
    if (!checked.ok()) return checked.status();
    ADJ_RETURN_IF_ERROR((*db)->PutTreeNodes(game, branch, checked->wrong));
    if (rq.json) {
      flatbuffers::FlatBufferBuilder fbb;
      fbb.Finish(fb::CreateTreeMendResultDirect(fbb, game.c_str(), branch.c_str(), checked->events, checked->checked,
                                                checked->wrong.size()));
      ADJ_RETURN_IF_ERROR(p.Json("TreeMendResult", fbb));
    } else {
      p.Line("tree " + game + "/" + branch + ": " + std::to_string(checked->checked) + " kept nodes checked against " +
             std::to_string(checked->events) + " events; " + std::to_string(checked->wrong.size()) + " made again");
    }
    return Status::Ok();
  }
  std::vector<uint64_t> seqs;
  if (rq.prove) {
    std::string_view rest = *rq.prove;
    while (true) {
      const size_t comma = rest.find(',');
      auto seq = ParseU64(rest.substr(0, comma));
      if (!seq || *seq == 0) {
        return Status::InvalidArgument("--prove: '" + std::string(rest.substr(0, comma)) +
                                       "' is not a sequence number (SEQ[,SEQ...])");
      }
      seqs.push_back(*seq);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    std::sort(seqs.begin(), seqs.end());
    seqs.erase(std::unique(seqs.begin(), seqs.end()), seqs.end());
  }
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  auto head = (*db)->HeadOf(game, branch);
  if (!head.ok()) return head.status();
  auto size = Count("size", rq.size, head->seq);
  if (!size.ok()) return size.status();
  if (*size == 0 || *size > head->seq) {
    return Status::InvalidArgument("--size: " + game + "/" + branch + " has " + std::to_string(head->seq) +
                                   " events; give 1 to " + std::to_string(head->seq));
  }
  for (uint64_t s : seqs) {
    if (s > *size) {
      return Status::InvalidArgument("--prove: seq " + std::to_string(s) + " is not in the tree of the first " +
                                     std::to_string(*size) + " events");
    }
  }
  std::optional<uint64_t> since;
  if (rq.since) {
    auto n = Count("since", rq.since, 0);
    if (!n.ok()) return n.status();
    if (*n == 0 || *n > *size) {
      return Status::InvalidArgument("--since: give a size from 1 to " + std::to_string(*size));
    }
    since = *n;
  }
  auto root = ledger::TreeRoot(**db, game, branch, *size);
  if (!root.ok()) return root.status();
  std::vector<merkle::Hash> leaves, proof, consistency;
  if (!seqs.empty()) {
    for (uint64_t s : seqs) {  // each alone: the events between may be many
      ADJ_RETURN_IF_ERROR((*db)->Read(game, branch, s, s, [&](const ledger::EventView& e) {
        leaves.push_back(ledger::EventLeaf(e));
        return Status::Ok();
      }));
    }
    auto pr = ledger::TreeMultiProof(**db, game, branch, seqs, *size);
    if (!pr.ok()) return pr.status();
    proof = std::move(*pr);
  }
  merkle::Hash since_root{};
  if (since) {
    auto r = ledger::TreeRoot(**db, game, branch, *since);
    if (!r.ok()) return r.status();
    since_root = *r;
    auto c = ledger::TreeConsistency(**db, game, branch, *since, *size);
    if (!c.ok()) return c.status();
    consistency = std::move(*c);
  }
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    auto hexes = [&](const std::vector<merkle::Hash>& hs) {
      std::vector<std::string> out;
      for (const auto& h : hs) out.push_back(merkle::Hex(h));
      return f.CreateVectorOfStrings(out);
    };
    std::vector<flatbuffers::Offset<fb::TreeLeaf>> ls;
    for (size_t i = 0; i < seqs.size(); ++i) {
      ls.push_back(fb::CreateTreeLeafDirect(f, seqs[i], merkle::Hex(leaves[i]).c_str()));
    }
    auto proof_v = hexes(proof);
    auto cons_v = hexes(consistency);
    auto ls_v = f.CreateVector(ls);
    auto g = f.CreateString(game), b = f.CreateString(branch), r = f.CreateString(merkle::Hex(*root));
    auto sr = since ? f.CreateString(merkle::Hex(since_root)) : 0;
    f.Finish(fb::CreateTreeHeadResult(f, g, b, *size, r, ls_v, proof_v, since.value_or(0), sr, cons_v));
    return p.Json("TreeHeadResult", f);
  }
  p.Line(merkle::Hex(*root));
  p.Line("the Merkle tree (RFC 9162, SHA-256) of " + game + "/" + branch + "'s first " + std::to_string(*size) +
         " events");
  if (!seqs.empty()) {
    p.Line("events proved in it, with their leaf hashes:");
    for (size_t i = 0; i < seqs.size(); ++i) p.Line("  " + std::to_string(seqs[i]) + " " + merkle::Hex(leaves[i]));
    p.Line("their proof (" + std::to_string(proof.size()) + " hashes, docs/PROOFS.md):");
    for (const auto& h : proof) p.Line("  " + merkle::Hex(h));
  }
  if (since) {
    p.Line("it extends the tree of the first " + std::to_string(*since) + " events, root " + merkle::Hex(since_root) +
           "; the proof (" + std::to_string(consistency.size()) + " hashes, RFC 9162 2.1.4):");
    for (const auto& h : consistency) p.Line("  " + merkle::Hex(h));
  }
  return Status::Ok();
}

Status DoStats(const Env& env, const StatsRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto at = Count("at", rq.at, UINT64_MAX);
  if (!at.ok()) return at.status();
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  projections::Summary summary;
  projections::Projection* ps[] = {&summary};
  auto r = replay::Rebuild(**db, game, branch, *at, ps);
  if (!r.ok()) return r.status();
  const auto& s = summary.state();
  if (rq.json) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::KindTally>> kinds;
    for (const auto& [k, t] : s.by_kind) kinds.push_back(fb::CreateKindTallyDirect(fbb, k.c_str(), t.events, t.bytes));
    std::vector<flatbuffers::Offset<fb::TurnTally>> turns;
    for (const auto& [turn, t] : s.by_turn) {
      fb::Turn ft(turn.major, turn.minor, turn.step);
      turns.push_back(fb::CreateTurnTally(fbb, &ft, t.events, t.bytes));
    }
    std::vector<flatbuffers::Offset<flatbuffers::String>> rs;
    for (const auto& x : s.rulesets) rs.push_back(fbb.CreateString(x));
    fbb.Finish(fb::CreateStatsReportDirect(fbb, game.c_str(), branch.c_str(), s.scenario_name.c_str(), &rs, s.seed,
                                           s.dice_salt, s.total.events, s.total.bytes, &kinds, &turns, s.dice_rolled,
                                           s.dice_scripted, summary.Digest().Hex().c_str()));
    return p.Json("StatsReport", fbb);
  }
  p.Line(game + "/" + branch + ": " + std::to_string(s.total.events) + " events, " + std::to_string(s.total.bytes) +
       " bytes; scenario \"" + s.scenario_name + "\"; seed " + std::to_string(s.seed) + ", dice salt " +
       std::to_string(s.dice_salt));
  p.Line("dice rolled: " + std::to_string(s.dice_rolled) + " (" + std::to_string(s.dice_scripted) + " scripted)");
  p.Line("by kind:");
  for (const auto& [k, t] : s.by_kind) {
    p.Line("  " + k + std::string(k.size() < 18 ? 18 - k.size() : 1, ' ') + std::to_string(t.events) + " events, " +
         std::to_string(t.bytes) + " bytes");
  }
  p.Line("by turn:");
  for (const auto& [turn, t] : s.by_turn) {
    std::string ts = turn.ToString();
    p.Line("  " + ts + std::string(ts.size() < 18 ? 18 - ts.size() : 1, ' ') + std::to_string(t.events) + " events, " +
         std::to_string(t.bytes) + " bytes");
  }
  p.Line("summary digest " + summary.Digest().Hex());
  return Status::Ok();
}

Status DoBranches(const Env& env, const BranchesRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  auto make_current = rq.make_current;
  auto db = env.open(make_current.has_value());
  if (!db.ok()) return db.status();
  if (make_current) {
    ADJ_RETURN_IF_ERROR((*db)->SetCurrent(game, *make_current));
    p.Line(game + ": commands now use branch " + *make_current + " when none is named");
  }
  auto current = (*db)->Current(game);
  if (!current.ok()) return current.status();
  auto bs = (*db)->Branches(game);
  if (!bs.ok()) return bs.status();
  std::vector<ledger::Head> heads;
  for (const auto& b : *bs) {
    auto h = (*db)->HeadOf(game, b.name);
    if (!h.ok()) return h.status();
    heads.push_back(*h);
  }
  if (rq.json) {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<fb::BranchSummary>> rows;
    for (size_t i = 0; i < bs->size(); ++i) {
      const auto& b = (*bs)[i];
      rows.push_back(fb::CreateBranchSummaryDirect(fbb, b.name.c_str(), b.parent.c_str(), b.fork_seq, heads[i].seq,
                                                   heads[i].hash.Hex().c_str(), b.dice_salt));
    }
    fbb.Finish(fb::CreateBranchListDirect(fbb, game.c_str(), &rows));
    return p.Json("BranchList", fbb);
  }
  // A tree: children under their parent, in creation order.
  std::function<void(const std::string&, const std::string&)> walk = [&](const std::string& parent,
                                                                          const std::string& indent) {
    std::vector<size_t> kids;
    for (size_t i = 0; i < bs->size(); ++i) if ((*bs)[i].parent == parent) kids.push_back(i);
    for (size_t k = 0; k < kids.size(); ++k) {
      const auto& b = (*bs)[kids[k]];
      bool last = k + 1 == kids.size();
      std::string line = indent + (parent.empty() ? "" : (last ? "└─ " : "├─ ")) + b.name;
      if (!parent.empty()) line += "  from " + b.parent + "@" + std::to_string(b.fork_seq);
      line += "  head " + std::to_string(heads[kids[k]].seq) + " " + heads[kids[k]].hash.Short();
      if (b.name == *current) line += "  (current)";
      p.Line(line);
      walk(b.name, parent.empty() ? indent : indent + (last ? "   " : "│  "));
    }
  };
  walk("", "");
  return Status::Ok();
}

// ---- rules-versions ----------------------------------------------------------
Status DoRulesVersions(const Env& env, const RulesVersionsRequest& rq, Printer& p) {
  std::string game, branch;
  rules::RulesVersions in_use;
  if (rq.game) {
    game = *rq.game;
    branch = BranchOf(env, rq.branch, game);
    auto db = env.open(false);
    if (!db.ok()) return db.status();
    auto world = replay::Fold(**db, game, branch);
    if (!world.ok()) return world.status();
    in_use = replay::GameVersions(replay::SummaryOf(*world));
    // Only the rulesets the game plays are in use by it.
    const auto& plays = replay::SummaryOf(*world).rulesets;
    for (std::string_view r : rules::VersionedRulesets()) {
      if (std::find(plays.begin(), plays.end(), r) == plays.end()) in_use.Set(r, 0);
    }
  }
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::RulesVersionRow>> rows;
  for (const auto& v : rules::KnownVersions()) {
    const std::string ruleset(v.ruleset), rules(v.rules), change(v.change);
    const bool latest = rules::LatestVersion(v.ruleset) == v.version;
    const bool used = !game.empty() && in_use.Of(v.ruleset) == v.version;
    if (rq.json) {
      rows.push_back(fb::CreateRulesVersionRowDirect(fbb, ruleset.c_str(), v.version, rules.c_str(), change.c_str(),
                                                     latest, used));
    } else {
      p.Line(ruleset + "=" + std::to_string(v.version) + (latest ? "  newest" : "") + (used ? "  in use by " + game + "/" + branch : "") +
           "\n    " + rules + ": " + change);
    }
  }
  if (rq.json) {
    fbb.Finish(fb::CreateRulesVersionsReportDirect(fbb, game.empty() ? nullptr : game.c_str(),
                                                   branch.empty() ? nullptr : branch.c_str(), &rows));
    return p.Json("RulesVersionsReport", fbb);
  }
  return Status::Ok();
}

Status DoGames(const Env& env, const GamesRequest& rq, Printer& p) {
  auto db = env.open(false);
  if (!db.ok()) {
    if (db.status().code() == Status::Code::kNotFound && !rq.json) {
      p.Line("no games in " + env.dir);
      return Status::Ok();
    }
    if (db.status().code() != Status::Code::kNotFound) return db.status();
  }
  std::vector<ledger::GameInfo> games;
  if (db.ok()) {
    auto g = (*db)->Games();
    if (!g.ok()) return g.status();
    games = *g;
  }
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::GameSummary>> rows;
  for (const auto& g : games) {
    auto bs = (*db)->Branches(g.name);
    if (!bs.ok()) return bs.status();
    auto h = (*db)->HeadOf(g.name, "main");
    if (!h.ok()) return h.status();
    if (rq.json) {
      rows.push_back(fb::CreateGameSummaryDirect(fbb, g.name.c_str(), g.seed, static_cast<uint32_t>(bs->size()), h->seq));
    } else {
      p.Line(g.name + "  " + std::to_string(bs->size()) + " branch" + (bs->size() == 1 ? "" : "es") + ", main at seq " +
           std::to_string(h->seq));
    }
  }
  if (rq.json) {
    fbb.Finish(fb::CreateGameListDirect(fbb, &rows));
    return p.Json("GameList", fbb);
  }
  if (games.empty()) p.Line("no games in " + env.dir);
  return Status::Ok();
}

}  // namespace

Answer Games(const Env& env, const GamesRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoGames(env, rq, p); });
}
Answer Log(const Env& env, const LogRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoLog(env, rq, p); });
}
Answer Verify(const Env& env, const VerifyRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoVerify(env, rq, p); });
}
Answer Digest(const Env& env, const DigestRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoDigest(env, rq, p); });
}
Answer Tree(const Env& env, const TreeRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoTree(env, rq, p); });
}
Answer Proof(const Env& env, const ProofRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoProof(env, rq, p); });
}
Answer VerifyReport(const Env& env, const VerifyReportRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoVerifyReport(env, rq, p); });
}
Answer Heads(const Env& env, const HeadsRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoHeads(env, rq, p); });
}
Answer Stats(const Env& env, const StatsRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoStats(env, rq, p); });
}
Answer Branches(const Env& env, const BranchesRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoBranches(env, rq, p); });
}
Answer RulesVersions(const Env& env, const RulesVersionsRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoRulesVersions(env, rq, p); });
}

}  // namespace adjutant::ops
