// `adjutant mail-address` and `adjutant mail-out` (issue 20): the GA gives
// players addresses; after each turn every player is mailed his reports of
// it (reports/packet.h) through the GA's mail server (mail/mail.h), one
// message a turn, threaded per game and player, each carrying the turn's
// digest. Each message the server takes is recorded (MailSent: to whom,
// what, the hash of its text); one it does not is recorded (MailFailed) and
// tried again after a backoff that doubles — never dropped. The time `now`
// is the front end's.
#include <flatbuffers/flatbuffers.h>
#include <sodium.h>

#include <array>
#include <map>
#include <set>

#include "base/hash.h"
#include "base/utc.h"
#include "mail/mail.h"
#include "ops/internal.h"
#include "projections/roster.h"
#include "projections/summary.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "replay/mail.h"
#include "reports/packet.h"
#include "reports/reports.h"
#include "schema/reports_generated.h"

namespace adjutant::ops {
namespace {

namespace P = projections;

// A name as a message id's word: letters, digits, '-' and '_' kept.
std::string Word(const std::string& s) {
  std::string out;
  for (char c : s) out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_');
  return out.empty() ? "_" : out;
}

std::string Hex16(std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  uint64_t h = Hash64(s);
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = kHex[h & 15];
  return out;
}


struct Due {
  std::string person, address;
  Turn turn;
  replay::TurnDigest digest;
  uint32_t attempt = 1;
};

struct Row {
  Due due;
  std::string message_id, subject, outcome, error, body_hash;
  int64_t retry_at = 0;
  uint64_t seq = 0;
};

bool IsBattle(const replay::World& w) {
  const rules::GameKind* k = w.kind();
  if (!k) return false;
  for (auto r : k->Rulesets()) {
    if (r == "dog") return true;
  }
  return false;
}

std::string TurnWords(const Turn& t, bool battle) { return battle ? "move " + std::to_string(t.minor) : "turn " + t.ToString(); }

class Outbox {
 public:
  Outbox(ledger::Ledger& db, const MailOutRequest& rq, std::string branch)
      : db_(db), rq_(rq), branch_(std::move(branch)) {}

  // The first turn due to each person with an address, not waiting for a
  // retry; `waiting` gets those who are.
  Result<std::vector<Due>> NextRound(std::vector<Row>* waiting) {
    auto w = replay::Fold(db_, rq_.game, branch_);
    if (!w.ok()) return w.status();
    if (!w->kind()) return Status::NotFound("no game '" + rq_.game + "' (branch " + branch_ + ")");
    battle_ = IsBattle(*w);
    const P::MailState& mail = replay::MailOf(*w);
    const auto& by_turn = replay::SummaryOf(*w).by_turn;
    std::vector<Due> out;
    for (const auto& [person, box] : mail.boxes) {
      if (box.address.empty() || done_.count(person)) continue;
      const P::Person* who = w->roster().Find(person);
      if (!who || who->roles.empty()) continue;  // no roles: his mail stops
      for (const auto& [turn, tally] : by_turn) {
        (void)tally;
        if (box.any_sent && !(box.last_turn < turn)) continue;
        // Over before he had an address: skipped from the turn index alone,
        // not digested (a late address on a long game costs no hashing).
        auto end = EndOf(turn);
        if (end.ok() && *end != UINT64_MAX && *end <= box.since_seq) continue;
        auto d = DigestOf(turn);
        if (!d.ok()) {
          if (d.status().code() == Status::Code::kNotFound) continue;  // never played
          break;                                                       // not over: nor any after it
        }
        if (d->last_seq <= box.since_seq) continue;  // over before he had an address
        Due due{person, box.address, turn, *d, box.failures + 1};
        if (box.failures > 0 && rq_.now < box.retry_at) {
          Row r;
          r.due = due;
          r.outcome = "waiting";
          r.error = box.last_error;
          r.retry_at = box.retry_at;
          r.due.attempt = box.failures;
          waiting->push_back(std::move(r));
          done_.insert(person);
        } else {
          out.push_back(std::move(due));
        }
        break;
      }
    }
    return out;
  }

  Result<uint64_t> EndOf(const Turn& t) {
    auto it = ends_.find(t);
    if (it != ends_.end()) return it->second;
    return ends_.emplace(t, reports::EndOfTurn(db_, rq_.game, branch_, t)).first->second;
  }

  // The turn's digest, or why it has none (not over, never played): asked
  // once a run (a turn not over is asked of by every person).
  Result<replay::TurnDigest> DigestOf(const Turn& t) {
    auto it = digests_.find(t);
    if (it != digests_.end()) return it->second;
    return digests_.emplace(t, replay::DigestTurn(db_, rq_.game, branch_, t)).first->second;
  }

  // The message of `due`: his packet of the turn, with the turn's digest.
  Result<std::pair<mail::Outgoing, Row>> Compose(const Due& due) {
    auto packet = reports::TurnPacket(db_, rq_.game, branch_, due.person, due.turn);
    if (!packet.ok()) return packet.status();
    const std::string turn_words = TurnWords(due.turn, battle_);
    mail::Outgoing m;
    m.to_address = due.address;
    m.to_name = due.person;
    m.subject = "[" + rq_.game + "] your reports for " + turn_words;
    m.text = "Reports of " + due.person + " for " + turn_words + " of " + rq_.game + " (branch " + branch_ + ").\n" +
             "The digest of the game to the end of this " + (battle_ ? "move" : "turn") + ": " + due.digest.hex +
             "\n(any copy of the game gives it: `adjutant digest " + rq_.game + " --turn " + due.turn.ToString() +
             "`).\n\n" + packet->Text() +
             "\n-- \nSent by Adjutant for the Game Administrator. Your orders report above lists each of your orders\n"
             "and what became of it.\n";
    m.html = reports::HtmlOf(m.text);
    for (const auto& [name, svg] : packet->drawings) m.attachments.push_back({name, "image/svg+xml", svg});
    for (const auto& [name, json] : packet->json) m.attachments.push_back({name, "application/json", json});
    const std::string who = Hex16(rq_.game + '\0' + due.person);
    m.message_id = "adjutant." + Word(rq_.game) + "." + Word(branch_) + "." + due.turn.ToString() + "." +
                   Word(due.person) + "." + Hex16(rq_.game + '\0' + branch_ + '\0' + due.person) + "@" +
                   MailDomain(rq_.settings);
    m.references = {"adjutant." + Word(rq_.game) + "." + Word(due.person) + "." + who + "@" + MailDomain(rq_.settings)};
    m.headers = {{"X-Adjutant-Game", rq_.game + "/" + branch_},
                 {"X-Adjutant-Turn", due.turn.ToString()},
                 {"X-Adjutant-Digest", due.digest.hex}};
    Row r;
    r.due = due;
    r.message_id = m.message_id;
    r.subject = m.subject;
    r.body_hash = replay::Blake2bHex(m.text);
    return std::make_pair(std::move(m), std::move(r));
  }

  void Done(const std::string& person) { done_.insert(person); }
  bool battle() const { return battle_; }

 private:
  ledger::Ledger& db_;
  const MailOutRequest& rq_;
  std::string branch_;
  bool battle_ = false;
  std::set<std::string> done_;  // failed or waiting this run: no more for them
  std::map<Turn, Result<replay::TurnDigest>> digests_;
  std::map<Turn, Result<uint64_t>> ends_;
};

// Records what the server did with each message of a round.
Status Record(ledger::Ledger& db, const MailOutRequest& rq, const std::string& branch, const std::vector<Status>& sent,
              std::vector<Row>& batch, Outbox& box, size_t* failed) {
  for (size_t i = 0; i < batch.size(); ++i) {
    Row& r = batch[i];
    replay::MailRecord m;
    m.person = r.due.person;
    m.address = r.due.address;
    m.purpose = "reports";
    m.turn = r.due.turn;
    m.message_id = r.message_id;
    m.subject = r.subject;
    m.body_hash = r.body_hash;
    m.digest = r.due.digest.hex;
    m.attempt = r.due.attempt;
    m.at = rq.now;
    if (sent[i].ok()) {
      auto rec = replay::RecordMailSent(db, rq.game, branch, m);
      if (!rec.ok()) return rec.status();
      r.outcome = "sent";
      r.seq = rec->first_seq;
    } else {
      m.error = sent[i].message();
      m.retry_at = rq.now + replay::MailBackoff(m.attempt);
      auto rec = replay::RecordMailFailed(db, rq.game, branch, m);
      if (!rec.ok()) return rec.status();
      r.outcome = "failed";
      r.error = m.error;
      r.retry_at = m.retry_at;
      r.seq = rec->first_seq;
      box.Done(r.due.person);
      (*failed)++;
    }
  }
  return Status::Ok();
}

Status DoMailOut(const Env& env, const MailOutRequest& rq, Printer& p) {
  if (sodium_init() < 0) return Status::IOError("libsodium failed to initialise");
  if (!rq.dry_run && !rq.settings) {
    return Status::InvalidArgument("adjutant mail-out: --settings FILE (the GA's mail account) is required");
  }
  const std::string branch = BranchOf(env, rq.branch, rq.game);
  auto db = env.open(!rq.dry_run);
  if (!db.ok()) return db.status();
  Outbox box(**db, rq, branch);
  std::vector<Row> rows;
  size_t failed = 0;
  for (int round = 0; round < 100000; ++round) {
    std::vector<Row> waiting;
    auto due = box.NextRound(&waiting);
    if (!due.ok()) return due.status();
    for (auto& w : waiting) rows.push_back(std::move(w));
    if (due->empty()) break;
    // A player whose reports cannot be made fails alone (recorded like a
    // refusal, tried again later): the others' mail goes.
    std::vector<mail::Outgoing> out;
    std::vector<Row> batch;
    std::vector<Status> unmade;  // by batch row: Ok, or why his message could not be made
    for (const Due& d : *due) {
      auto m = box.Compose(d);
      if (!m.ok()) {
        Row r;
        r.due = d;
        batch.push_back(std::move(r));
        unmade.push_back(Status::InvalidArgument("his reports could not be made: " + m.status().message()));
        continue;
      }
      out.push_back(std::move(m->first));
      batch.push_back(std::move(m->second));
      unmade.push_back(Status::Ok());
    }
    if (rq.dry_run) {
      for (size_t i = 0; i < batch.size(); ++i) {
        Row& r = batch[i];
        r.outcome = "due";
        if (!unmade[i].ok()) r.error = unmade[i].message();
        box.Done(r.due.person);
        rows.push_back(std::move(r));
      }
      continue;
    }
    std::vector<Status> went;
    if (!out.empty()) (void)mail::Send(*rq.settings, out, &went);  // each message's fate is in `went`
    std::vector<Status> sent;
    for (size_t i = 0, k = 0; i < batch.size(); ++i) sent.push_back(unmade[i].ok() ? went[k++] : unmade[i]);
    Status recorded = rq.in_sequence ? rq.in_sequence([&] { return Record(**db, rq, branch, sent, batch, box, &failed); })
                                     : Record(**db, rq, branch, sent, batch, box, &failed);
    if (!recorded.ok()) return recorded;
    for (auto& r : batch) rows.push_back(std::move(r));
  }
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::MailOutRow>> out;
    for (const Row& r : rows) {
      out.push_back(fb::CreateMailOutRowDirect(f, r.due.person.c_str(), r.due.address.c_str(),
                                               r.due.turn.ToString().c_str(), r.message_id.c_str(), r.subject.c_str(),
                                               r.outcome.c_str(), r.error.c_str(), r.due.attempt, r.retry_at,
                                               r.body_hash.c_str(), r.due.digest.hex.c_str(), r.seq));
    }
    f.Finish(fb::CreateMailOutReportDirect(f, rq.game.c_str(), branch.c_str(), rq.now, &out));
    ADJ_RETURN_IF_ERROR(p.Json("MailOutReport", f));
  } else {
    if (rows.empty()) p.Line("no mail due for " + rq.game + "/" + branch);
    for (const Row& r : rows) {
      const std::string what = TurnWords(r.due.turn, box.battle());
      const std::string to = r.due.person + " <" + r.due.address + ">";
      if (r.outcome == "sent") {
        p.Line("sent to " + to + ": reports for " + what + " [seq " + std::to_string(r.seq) + "], body " + r.body_hash);
      } else if (r.outcome == "due") {
        p.Line("due to " + to + ": reports for " + what + " (a dry run: not sent)" + (r.error.empty() ? "" : "; " + r.error));
      } else if (r.outcome == "failed") {
        p.Line("NOT sent to " + to + ": reports for " + what + ", attempt " + std::to_string(r.due.attempt) + ": " +
               r.error + "; tried again from " + FormatUtc(r.retry_at) + " [seq " + std::to_string(r.seq) + "]");
      } else {
        p.Line("waiting to send to " + to + ": reports for " + what + " failed " + std::to_string(r.due.attempt) +
               (r.due.attempt == 1 ? " time" : " times") + " (" + r.error + "); tried again from " + FormatUtc(r.retry_at));
      }
    }
  }
  if (failed > 0) {
    return Status::IOError(std::to_string(failed) + (failed == 1 ? " message was" : " messages were") +
                           " not sent: recorded, and tried again after the backoff");
  }
  return Status::Ok();
}

Status DoMailAddress(const Env& env, const MailAddressRequest& rq, Printer& p) {
  if (rq.person.empty()) return Status::InvalidArgument("adjutant mail-address: --person P: whose address?");
  if (rq.clear == rq.address.has_value()) {
    return Status::InvalidArgument("adjutant mail-address: give the ADDRESS, or --clear (his mail stops)");
  }
  const std::string address = rq.clear ? "" : *rq.address;
  const std::string branch = BranchOf(env, rq.branch, rq.game);
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  auto r = replay::SetMailAddress(**db, rq.game, branch, rq.person, address);
  if (!r.ok()) return r.status();
  p.Line(address.empty() ? "no mail address for " + rq.person + " in " + rq.game + "/" + branch + ": his mail stops  [seq " +
                               std::to_string(r->first_seq) + "]"
                         : "mail address of " + rq.person + " in " + rq.game + "/" + branch + ": " + address +
                               " (turns over from now on are mailed to it)  [seq " + std::to_string(r->first_seq) + "]");
  return Status::Ok();
}

}  // namespace

std::string MailDomain(const mail::Settings* s) {
  if (!s) return "adjutant.invalid";
  const size_t at = s->from_address.rfind('@');
  return at == std::string::npos ? "adjutant.invalid" : s->from_address.substr(at + 1);
}

Answer MailAddress(const Env& env, const MailAddressRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoMailAddress(env, rq, p); });
}

Answer MailOut(const Env& env, const MailOutRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoMailOut(env, rq, p); });
}

}  // namespace adjutant::ops
