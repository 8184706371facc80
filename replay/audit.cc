#include "replay/audit.h"
#include "replay/heads.h"

#include <flatbuffers/flatbuffers.h>

#include <map>

#include "replay/dice_commit.h"
#include "replay/driver.h"
#include "rules/phase_writer.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::replay {


namespace {

struct Recorded {
  uint64_t seq = 0;
  std::vector<uint8_t> bytes;
};

Turn TurnOf(const fb::Event& e) { return schema::TurnOf(e.turn()); }

std::string AsJson(const uint8_t* bytes) {
  auto j = schema::ToJson("Event", bytes);
  return j.ok() ? *j : std::string("(not readable: ") + j.status().message() + ")";
}

// The value of the first "rule" key of an event's JSON, if any.
std::string RuleIn(const std::string& json) {
  const std::string key = "\"rule\": \"";
  size_t at = json.find(key);
  if (at == std::string::npos) return "";
  size_t end = json.find('"', at + key.size());
  return json.substr(at + key.size(), end - at - key.size());
}

std::string WithoutSchemaHash(std::string json) {
  const std::string key = "\"schema_hash\": ";
  size_t at = json.find(key);
  if (at == std::string::npos) return json;
  size_t end = json.find_first_of(",}", at);
  return json.erase(at, end - at);
}

// Two PhaseCompleted events for the same phase agree: same name, and the
// same digest for every projection recorded with the version it has now.
// Projections recorded under another (or no) version are counted apart.
bool SameCompletion(const fb::Event* a, const fb::Event* b, size_t* not_compared) {
  const auto* x = a->payload_as_PhaseCompleted();
  const auto* y = b->payload_as_PhaseCompleted();
  if (!x || !y || x->name()->str() != y->name()->str() || !x->digests() || !y->digests()) return false;
  if (a->seq() != b->seq() || a->phase() != b->phase() || a->rules_version() != b->rules_version()) return false;
  auto str = [](const flatbuffers::String* v) { return v ? v->str() : std::string(); };
  if (str(a->ruleset()) != str(b->ruleset()) || TurnOf(*a) != TurnOf(*b)) return false;
  std::map<std::string, const fb::ProjectionDigest*> now;
  for (const auto* d : *y->digests()) now[d->projection()->str()] = d;
  size_t skipped = 0;
  for (const auto* d : *x->digests()) {
    auto it = now.find(d->projection()->str());
    if (it == now.end() || d->version() == 0 || d->version() != it->second->version()) {
      ++skipped;
      continue;
    }
    if (d->digest()->hi() != it->second->digest()->hi() || d->digest()->lo() != it->second->digest()->lo()) return false;
  }
  *not_compared += skipped;
  return true;
}

// The views whose digests two PhaseCompleted events of the same phase
// disagree on (where both have the same encoding version), joined by ", ".
std::string DifferingViews(const fb::Event* a, const fb::Event* b) {
  const auto* x = a->payload_as_PhaseCompleted();
  const auto* y = b->payload_as_PhaseCompleted();
  if (!x || !y || !x->digests() || !y->digests() || x->name()->str() != y->name()->str()) return {};
  std::string out;
  for (const auto* d : *x->digests()) {
    for (const auto* e : *y->digests()) {
      if (e->projection()->str() != d->projection()->str() || e->version() != d->version()) continue;
      if (e->digest()->hi() != d->digest()->hi() || e->digest()->lo() != d->digest()->lo()) {
        out += (out.empty() ? "" : ", ") + d->projection()->str();
      }
    }
  }
  return out;
}

}  // namespace

Result<std::vector<Turn>> AdjudicatedTurns(ledger::Ledger& db, std::string_view game, std::string_view branch) {
  std::vector<Turn> out;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, 1, UINT64_MAX, [&](const ledger::EventView& e) {
    if (e.event()->payload_type() == fb::Payload_PhaseStarted) {
      Turn t = TurnOf(*e.event());
      if (out.empty() || out.back() != t) out.push_back(t);
    }
    return Status::Ok();
  }));
  return out;
}

Result<AuditResult> AuditTurn(ledger::Ledger& db, std::string_view game, std::string_view branch, const Turn& t,
                              const rules::RulesVersions& under) {
  AuditResult res;
  res.turn = t;
  // The recorded events of the turn, grouped into phases.
  auto first = db.SeekTurn(game, branch, TurnPhase{t, 0});
  if (!first.ok()) return first.status();
  if (!first->has_value()) return Status::NotFound("turn " + t.ToString() + " of " + std::string(game) + "/" +
                                                   std::string(branch) + " has not begun");
  // Events are ordered by turn: the next turn's first event ends this one.
  auto next_turn = db.SeekTurn(game, branch, TurnPhase{Turn{t.major, t.minor, t.step + 1}, 0});
  if (!next_turn.ok()) return next_turn.status();
  const uint64_t last = next_turn->has_value() ? **next_turn - 1 : UINT64_MAX;
  std::vector<std::vector<Recorded>> phases;
  std::vector<bool> headed;  // by phase: the event after its PhaseCompleted is a TreeHead
  bool in_phase = false, after_completed = false;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, **first, last, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    if (after_completed) headed.back() = ev.payload_type() == fb::Payload_TreeHead;
    after_completed = false;
    if (TurnOf(ev) != t) return Status::Ok();
    if (ev.payload_type() == fb::Payload_PhaseStarted) {
      phases.emplace_back();
      headed.push_back(false);
      in_phase = true;
    }
    if (in_phase) phases.back().push_back({e.seq, std::vector<uint8_t>(e.bytes.begin(), e.bytes.end())});
    if (ev.payload_type() == fb::Payload_PhaseCompleted && in_phase) {
      in_phase = false;
      after_completed = true;
    }
    return Status::Ok();
  }));
  if (phases.empty()) return Status::NotFound("turn " + t.ToString() + " has no adjudicated phase to audit");
  // A turn whose dice were committed to is audited with the revealed salt.
  std::optional<std::string> salt;
  {
    auto now = Fold(db, game, branch);
    if (!now.ok()) return now.status();
    const auto& sum = SummaryOf(*now);
    if (sum.dice_commitments.count(t)) {
      // Revealed on this branch, or on another (a fork made from main after
      // main's reveal, at a point before it, shares the commitment).
      auto revealed = RevealedSalt(db, game, sum, t);
      if (!revealed.ok()) return revealed.status();
      if (!revealed->has_value()) {
        return Status::Conflict("turn " + t.ToString() + "'s dice are committed and not yet revealed: audit it once the "
                                "GA reveals the salt");
      }
      salt = **revealed;
    }
  }
  for (size_t ph = 0; ph < phases.size(); ++ph) {
    const auto& recorded = phases[ph];
    const uint64_t before = recorded.front().seq - 1;
    auto world = Fold(db, game, branch, before);
    if (!world.ok()) return world.status();
    // Issue 23: in a game that signs its heads, the phase's head follows it.
    const bool signs = SigningKeyOf(SummaryOf(*world)).has_value();
    auto next = NextPhaseOf(*world);
    if (!next.ok()) return next.status();
    // Below a fork point the events are the parent's: written under its name
    // and rolled with its dice.
    const std::string writer = flatbuffers::GetRoot<fb::Event>(recorded.front().bytes.data())->branch()->str();
    auto dice = TurnDice(db, game, writer, SummaryOf(*world), next->at.turn, salt);
    if (!dice.ok()) return dice.status();
    // The versions the phase recorded (its PhaseStarted names its
    // ruleset's; the other ruleset's events follow the game's), and those
    // the audit asks about instead.
    const fb::Event* started = flatbuffers::GetRoot<fb::Event>(recorded.front().bytes.data());
    rules::RulesVersions recorded_versions = GameVersions(SummaryOf(*world));
    if (started->ruleset() && started->rules_version() > 0) {
      recorded_versions.Set(started->ruleset()->str(), started->rules_version());
    }
    rules::RulesVersions run = recorded_versions;
    for (std::string_view r : rules::VersionedRulesets()) {
      if (under.Of(r) != 0) run.Set(r, under.Of(r));
    }
    rules::PhaseWriter w(std::string(game), writer, before, std::move(world->projections));
    w.set_rules_versions(run);
    w.set_tag_versions(recorded_versions);
    ADJ_RETURN_IF_ERROR(RunPhaseInto(w, *next, *dice));
    const auto& drafts = w.drafts();
    res.phases++;
    // A phase adjudicated under an idempotency key (`adjudicate --key`)
    // carries the key on every event of its batch: the re-run is built with
    // the key its PhaseStarted records — one key for the whole phase, so an
    // event whose key was changed still differs, and so does every outcome.
    const std::string key = started->idempotency_key() ? started->idempotency_key()->str() : std::string();
    for (size_t i = 0; i < std::max(drafts.size(), recorded.size()); ++i) {
      const Recorded* rec = i < recorded.size() ? &recorded[i] : nullptr;
      flatbuffers::FlatBufferBuilder fbb(512);
      if (i < drafts.size()) BuildEventBuffer(fbb, game, writer, before + 1 + i, drafts[i], key);
      const uint8_t* made = i < drafts.size() ? fbb.GetBufferPointer() : nullptr;
      size_t made_size = i < drafts.size() ? fbb.GetSize() : 0;
      bool same = rec && made && rec->bytes.size() == made_size &&
                  std::equal(rec->bytes.begin(), rec->bytes.end(), made);
      if (!same && rec && made) {
        // An event written under an older schema differs only in its
        // schema_hash when nothing else changed: compare without it. The
        // views' digests are compared where the projection's encoding is
        // the version that recorded them.
        same = WithoutSchemaHash(AsJson(rec->bytes.data())) == WithoutSchemaHash(AsJson(made)) ||
               SameCompletion(flatbuffers::GetRoot<fb::Event>(rec->bytes.data()), flatbuffers::GetRoot<fb::Event>(made),
                              &res.views_not_compared);
      }
      if (rec) res.events++;
      if (same) continue;
      res.identical = false;
      res.seq = before + 1 + i;
      res.recorded = rec ? AsJson(rec->bytes.data()) : "";
      res.produced = made ? AsJson(made) : "";
      res.rule = RuleIn(res.recorded.empty() ? res.produced : res.recorded);
      if (res.rule.empty()) res.rule = RuleIn(res.produced);
      res.reason = !rec   ? "re-adjudication produces an event the log does not hold"
                   : !made ? "the log holds an event re-adjudication does not produce"
                           : "the event differs";
      if (rec && made) {
        const std::string views = DifferingViews(flatbuffers::GetRoot<fb::Event>(rec->bytes.data()),
                                                 flatbuffers::GetRoot<fb::Event>(made));
        if (!views.empty()) res.reason = "the state the phase leaves differs (" + views + ")";
      }
      return res;
    }
    if (signs && !headed[ph]) {
      res.identical = false;
      res.seq = recorded.back().seq + 1;
      res.recorded.clear();
      res.produced.clear();
      res.reason = "the game signs its tree heads, and the phase ending at seq " + std::to_string(recorded.back().seq) +
                   " is not followed by its TreeHead";
      return res;
    }
  }
  // Every signed head of the turn holds (its root, key and signature).
  auto heads = CheckHeads(db, game, branch, **first, last);
  if (!heads.ok()) return heads.status();
  for (const HeadCheck& h : *heads) {
    if (h.head.at.turn != t) continue;
    res.heads++;
    if (h.problem.empty()) continue;
    res.identical = false;
    res.seq = h.seq;
    res.recorded.clear();
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, h.seq, h.seq, [&](const ledger::EventView& e) {
      res.recorded = AsJson(e.bytes.data());
      return Status::Ok();
    }));
    res.produced.clear();
    res.reason = "the signed tree head does not hold: " + h.problem;
    return res;
  }
  return res;
}

}  // namespace adjutant::replay
