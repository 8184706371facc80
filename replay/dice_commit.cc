#include "replay/dice_commit.h"

#include <sodium.h>

#include <array>
#include <vector>

#include "base/hash.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

std::string NewSalt() {
  if (sodium_init() < 0) return "";
  std::array<unsigned char, 32> salt{};
  randombytes_buf(salt.data(), salt.size());
  std::array<char, 65> hex{};
  sodium_bin2hex(hex.data(), hex.size(), salt.data(), salt.size());
  return hex.data();
}

Result<std::string> CommitmentOf(std::string_view salt_hex) {
  auto c = SaltCommitment(salt_hex);
  if (!c) return Status::InvalidArgument("a dice salt is 32 to 128 hex digits");
  return *c;
}

Result<rules::CounterDice> TurnDice(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                    const projections::SummaryState& summary, const Turn& t,
                                    const std::optional<std::string>& salt_hex) {
  auto info = db.Game(game);
  if (!info.ok()) return info.status();
  auto b = db.Branch(game, branch);
  if (!b.ok()) return b.status();
  auto committed = summary.dice_commitments.find(t);
  if (committed == summary.dice_commitments.end()) return rules::CounterDice(info->seed, b->dice_salt);
  std::optional<std::string> salt = salt_hex;
  if (!salt) {
    auto revealed = RevealedSalt(db, game, summary, t);
    if (!revealed.ok()) return revealed.status();
    salt = *revealed;
  }
  if (!salt) {
    return Status::InvalidArgument("turn " + t.ToString() + "'s dice are committed: give the salt (--dice-salt-file)");
  }
  auto c = CommitmentOf(*salt);
  if (!c.ok()) return c.status();
  if (*c != committed->second) {
    return Status::InvalidArgument("that salt does not match turn " + t.ToString() + "'s dice commitment " +
                                   committed->second);
  }
  return rules::CounterDice(info->seed, CommittedTurnSalt(b->dice_salt, *salt));
}

Result<std::optional<std::string>> RevealedSalt(ledger::Ledger& db, std::string_view game,
                                                const projections::SummaryState& summary, const Turn& t) {
  if (auto own = summary.dice_revealed.find(t); own != summary.dice_revealed.end()) {
    return std::optional<std::string>(own->second);
  }
  auto committed = summary.dice_commitments.find(t);
  if (committed == summary.dice_commitments.end()) return std::optional<std::string>();
  auto branches = db.Branches(game);
  if (!branches.ok()) return branches.status();
  std::optional<std::string> found;
  for (const auto& b : *branches) {
    ADJ_RETURN_IF_ERROR(db.Read(game, b.name, 1, UINT64_MAX, [&](const ledger::EventView& e) {
      if (found) return Status::Ok();
      const auto* d = e.event()->payload_as_Directive();
      const auto* r = d ? d->body_as_RevealDice() : nullptr;
      if (!r || !r->turn() || !r->salt() || schema::TurnOf(r->turn()) != t) {
        return Status::Ok();
      }
      // Only the salt the commitment names: another branch may have
      // committed to other dice for the same turn.
      auto c = CommitmentOf(r->salt()->str());
      if (c.ok() && *c == committed->second) found = r->salt()->str();
      return Status::Ok();
    }));
    if (found) break;
  }
  return found;
}

Status CheckDiceDirective(const projections::SummaryState& summary, const Turn& next_turn, bool next_begun,
                          const Turn& current, bool current_done, const Turn& turn, bool reveal,
                          const std::string& value) {
  auto committed = summary.dice_commitments.find(turn);
  if (!reveal) {
    if (committed != summary.dice_commitments.end()) {
      return Status::InvalidArgument("turn " + turn.ToString() + "'s dice are already committed");
    }
    if (turn < next_turn || (turn == next_turn && next_begun)) {
      return Status::InvalidArgument("turn " + turn.ToString() + " has begun: dice are committed to before a turn");
    }
    if (value.size() != crypto_generichash_BYTES * 2 || value.find_first_not_of("0123456789abcdef") != std::string::npos) {
      return Status::InvalidArgument("a commitment is 64 lower-case hex digits");
    }
    return Status::Ok();
  }
  if (committed == summary.dice_commitments.end()) {
    return Status::InvalidArgument("turn " + turn.ToString() + "'s dice were never committed to");
  }
  if (summary.dice_revealed.count(turn)) return Status::InvalidArgument("turn " + turn.ToString() + "'s salt is already revealed");
  if (turn > current || (turn == current && !current_done)) {
    return Status::InvalidArgument("turn " + turn.ToString() + " is not over: its salt is revealed after it");
  }
  auto c = CommitmentOf(value);
  if (!c.ok()) return c.status();
  if (*c != committed->second) return Status::InvalidArgument("the salt does not match the commitment " + committed->second);
  return Status::Ok();
}

Result<DiceCheck> VerifyTurnDice(ledger::Ledger& db, std::string_view game, std::string_view branch, const Turn& t) {
  auto w = Fold(db, game, branch);
  if (!w.ok()) return w.status();
  const projections::SummaryState* sum = nullptr;
  for (const auto& p : w->projections) {
    if (auto* s = dynamic_cast<const projections::Summary*>(p.get())) sum = &s->state();
  }
  if (!sum) return Status::Corruption("no summary projection");
  if (!sum->dice_commitments.count(t)) return Status::NotFound("turn " + t.ToString() + "'s dice were never committed to");
  auto revealed = RevealedSalt(db, game, *sum, t);
  if (!revealed.ok()) return revealed.status();
  if (!revealed->has_value()) return Status::NotFound("turn " + t.ToString() + "'s salt is not revealed yet");
  const std::string salt = **revealed;
  DiceCheck check;
  check.turn = t;
  auto c = CommitmentOf(salt);
  if (!c.ok()) return c.status();
  if (*c != sum->dice_commitments.at(t)) {
    check.ok = false;
    check.reason = "the revealed salt does not match the commitment";
    return check;
  }
  auto info = db.Game(game);
  if (!info.ok()) return info.status();
  auto first = db.SeekTurn(game, branch, TurnPhase{t, 0});
  if (!first.ok()) return first.status();
  if (!first->has_value()) return check;
  auto next = db.SeekTurn(game, branch, TurnPhase{Turn{t.major, t.minor, t.step + 1}, 0});
  if (!next.ok()) return next.status();
  const uint64_t last = next->has_value() ? **next - 1 : UINT64_MAX;
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, **first, last, [&](const ledger::EventView& e) {
    const fb::Event& ev = *e.event();
    const auto* d = ev.payload_as_DieRolled();
    const fb::Turn* et = ev.turn();
    if (!d || d->scripted() || !check.ok || !et || schema::TurnOf(et) != t) return Status::Ok();
    if (ev.actor() && ev.actor()->kind() != fb::ActorKind_Adjudicator) return Status::Ok();  // the GA's own rolls
    auto b = db.Branch(game, ev.branch()->string_view());
    if (!b.ok()) return b.status();
    TurnPhase at{t, ev.phase()};
    std::string subject = d->subject() ? d->subject()->str() : "";
    for (uint32_t i = 0; d->results() && i < d->results()->size(); ++i) {
      uint32_t want = rules::CounterDie(info->seed, CommittedTurnSalt(b->dice_salt, salt), at, subject, d->purpose()->str(),
                                        d->index() + i, d->sides());
      if (want != d->results()->Get(i)) {
        check.ok = false;
        check.bad_seq = e.seq;
        check.reason = "the roll for " + d->purpose()->str() + (subject.empty() ? "" : " of " + subject) + " is " +
                       std::to_string(d->results()->Get(i)) + "; the salt gives " + std::to_string(want);
        return Status::Ok();
      }
    }
    check.rolls++;
    return Status::Ok();
  }));
  return check;
}

}  // namespace adjutant::replay
