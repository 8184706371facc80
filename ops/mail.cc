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
#include "replay/orders.h"
#include "replay/schedule.h"
#include "reports/packet.h"
#include "reports/reports.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"
#include "schema/values.h"

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
  std::string purpose = "reports";
  int64_t deadline = 0;  // a reminder's
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

// The row of a message other than reports, as it is made.
Row ExtraRow(const std::string& person, const Turn& turn, const std::string& purpose, const mail::Outgoing& m) {
  Row r;
  r.due.person = person;
  r.due.address = m.to_address;
  r.due.turn = turn;
  r.purpose = purpose;
  r.message_id = m.message_id;
  r.subject = m.subject;
  r.body_hash = replay::Blake2bHex(m.text);
  return r;
}

// Messages other than reports (reminders, notices), sent in one batch; each
// the server took is recorded (MailSent with the row's purpose); one it did
// not is left unrecorded, to be made and tried again at the next run.
Status SendExtra(ledger::Ledger& db, const MailOutRequest& rq, const std::string& branch,
                 const std::vector<mail::Outgoing>& out, std::vector<Row>& batch, std::vector<Row>* rows,
                 size_t* failed) {
  if (batch.empty()) return Status::Ok();
  if (rq.dry_run) {
    for (auto& r : batch) {
      r.outcome = "due";
      rows->push_back(std::move(r));
    }
    return Status::Ok();
  }
  std::vector<Status> went;
  Status st = mail::Send(*rq.settings, out, &went);
  auto record = [&]() -> Status {
    for (size_t i = 0; i < batch.size(); ++i) {
      Row& r = batch[i];
      const Status s = st.ok() ? went[i] : st;
      if (!s.ok()) {
        r.outcome = "failed";
        r.error = s.message();
        r.retry_at = rq.now + replay::MailBackoff(1);  // not recorded: tried again at the next run
        (*failed)++;
        continue;
      }
      replay::MailRecord m;
      m.person = r.due.person;
      m.address = r.due.address;
      m.purpose = r.purpose;
      m.turn = r.due.turn;
      m.message_id = r.message_id;
      m.subject = r.subject;
      m.body_hash = r.body_hash;
      m.at = rq.now;
      auto rec = replay::RecordMailSent(db, rq.game, branch, m);
      if (!rec.ok()) return rec.status();
      r.outcome = "sent";
      r.seq = rec->first_seq;
    }
    return Status::Ok();
  };
  Status recorded = rq.in_sequence ? rq.in_sequence(record) : record();
  if (!recorded.ok()) return recorded;
  for (auto& r : batch) rows->push_back(std::move(r));
  return Status::Ok();
}

// Reminders (the settings' `remind`): each person with an address and a role
// who has given no orders for the coming turn is mailed once the last of
// the reminder times before its deadline that has come is reached — one
// message for each such time, never two for the same one (MailSent,
// purpose "reminder", keyed by the turn and the time before), and none once
// he has given orders, the deadline has passed or the schedule is paused.
// `*next` gets when the next reminder time comes (0: none).
Status Remind(ledger::Ledger& db, const MailOutRequest& rq, const std::string& branch, std::vector<Row>* rows,
              size_t* failed, int64_t* next) {
  *next = 0;
  if (!rq.settings || rq.settings->remind_before.empty()) return Status::Ok();
  auto w = replay::Fold(db, rq.game, branch);
  if (!w.ok()) return w.status();
  if (!w->kind()) return Status::Ok();
  auto sched = replay::ScheduleViewOf(db, rq.game, branch, *w);
  if (!sched.ok()) return sched.status();
  if (!sched->deadline || sched->ended || sched->pending || (sched->state.set && sched->state.paused)) return Status::Ok();
  const int64_t deadline = sched->deadline->at;
  if (rq.now >= deadline) return Status::Ok();
  // The reminder time that has come last (the shortest time before), and the next to come.
  std::optional<int64_t> before;
  for (int64_t o : rq.settings->remind_before) {  // longest first
    if (rq.now >= deadline - o) {
      before = o;
    } else if (*next == 0 || deadline - o < *next) {
      *next = deadline - o;
    }
  }
  if (!before) return Status::Ok();
  auto at = replay::OrderPositionOf(*w);
  if (!at.ok()) return Status::Ok();  // the game takes no orders now
  auto given = replay::OrdersGiven(db, rq.game, branch, *at);
  if (!given.ok()) return given.status();
  std::set<std::string> gave;
  for (const auto& g : given->orders) gave.insert(g.person);
  bool battle = IsBattle(*w);
  const Turn turn = sched->deadline->turn;
  const std::string words = TurnWords(turn, battle);
  std::vector<mail::Outgoing> out;
  std::vector<Row> batch;
  for (const auto& [person, box] : replay::MailOf(*w).boxes) {
    const P::Person* who = w->roster().Find(person);
    if (box.address.empty() || !who || who->roles.empty() || gave.count(person)) continue;
    replay::MailRecord rec;
    rec.person = person;
    rec.purpose = "reminder";
    rec.turn = turn;
    rec.message_id = "adjutant.remind." + Word(rq.game) + "." + Word(branch) + "." + turn.ToString() + "." +
                     Word(person) + "." + std::to_string(*before) + "." +
                     Hex16(rq.game + '\0' + branch + '\0' + person) + "@" + MailDomain(rq.settings);
    auto sent = replay::MailSentBefore(db, rq.game, branch, rec);
    if (!sent.ok()) return sent.status();
    if (*sent) continue;
    mail::Outgoing m;
    m.to_address = box.address;
    m.to_name = person;
    m.subject = "[" + rq.game + "] your orders for " + words + " are due by " + FormatUtc(deadline);
    m.text = person + ", you have given no orders for " + words + " of " + rq.game + " (branch " + branch +
             ").\nThey are due by " + FormatUtc(deadline) + ", in " + FormatDuration(deadline - rq.now) +
             ". Orders not given by then are\nwhat the rules make of orders missing, and your report after the " +
             (battle ? "move" : "turn") + " will say so.\n\n" +
             "To give them by mail, answer this message with your orders, under these lines:\n\n"
             "  Game: " + rq.game + "\n  Person: " + person + "\n  Password: YOUR PASSWORD\n\n" +
             "  ...your orders, one to a line...\n\n-- \nSent by Adjutant for the Game Administrator.\n";
    m.message_id = rec.message_id;
    m.references = {"adjutant." + Word(rq.game) + "." + Word(person) + "." + Hex16(rq.game + '\0' + person) + "@" +
                    MailDomain(rq.settings)};
    m.headers = {{"X-Adjutant-Game", rq.game + "/" + branch},
                 {"X-Adjutant-Turn", turn.ToString()},
                 {"X-Adjutant-Deadline", FormatUtc(deadline)}};
    batch.push_back(ExtraRow(person, turn, "reminder", m));
    batch.back().deadline = deadline;
    out.push_back(std::move(m));
  }
  return SendExtra(db, rq, branch, out, batch, rows, failed);
}

// SOW 2.5, 2.6: a blockade or an embargo takes effect on the receipt of its
// notice, which the declaring state's Foreign Minister sends to the other
// state's. The GA records it (a DeclareBlockade or DeclareEmbargo
// directive, its notice's text in it); Adjutant mails it to the Foreign
// Ministers of both states (the role STATE.foreign) who have an address
// given before it was recorded — once each (MailSent, purpose "notice",
// keyed by the directive's sequence number), the GA's account sending it
// and so keeping the copy the book asks for. A lifted one is mailed too.
Status Notices(ledger::Ledger& db, const MailOutRequest& rq, const std::string& branch, std::vector<Row>* rows,
               size_t* failed) {
  if (!rq.settings && !rq.dry_run) return Status::Ok();
  auto w = replay::Fold(db, rq.game, branch);
  if (!w.ok()) return w.status();
  const rules::GameKind* kind = w->kind();
  if (!kind) return Status::Ok();
  bool sow = false;
  for (auto r : kind->Rulesets()) sow |= r == "sow";
  if (!sow) return Status::Ok();
  const P::MailState& mail = replay::MailOf(*w);
  // The Foreign Ministers with an address, and from where the log is read.
  std::map<std::string, std::vector<std::pair<std::string, const P::MailBox*>>> ministers;  // state -> (person, box)
  uint64_t from = UINT64_MAX;
  for (const auto& [person, box] : mail.boxes) {
    const P::Person* who = w->roster().Find(person);
    if (box.address.empty() || !who) continue;
    for (const auto& role : who->roles) {
      if (role.size() > 8 && role.ends_with(".foreign")) {
        ministers[role.substr(0, role.size() - 8)].emplace_back(person, &box);
        from = std::min(from, box.since_seq + 1);
      }
    }
  }
  if (ministers.empty() || from > w->head.seq) return Status::Ok();
  struct Notice {
    uint64_t seq;
    Turn turn;
    std::string what, by, against, text;
    bool lift;
  };
  std::vector<Notice> notices;
  ADJ_RETURN_IF_ERROR(db.Read(rq.game, branch, from, w->head.seq, [&](const ledger::EventView& e) {
    const auto* d = e.event()->payload_as_Directive();
    const auto* sd = d ? d->body_as_SowDirective() : nullptr;
    if (!sd) return Status::Ok();
    const fb::Turn* t = e.event()->turn();
    const Turn turn = schema::TurnOf(t);
    auto str = [](const flatbuffers::String* x) { return x ? x->str() : std::string(); };
    if (const auto* b = sd->body_as_DeclareBlockade()) {
      notices.push_back({e.seq, turn, "blockade", str(b->by()), str(b->against()), str(b->notice()), b->lift()});
    } else if (const auto* m = sd->body_as_DeclareEmbargo()) {
      notices.push_back({e.seq, turn, "embargo", str(m->by()), str(m->against()), str(m->notice()), m->lift()});
    }
    return Status::Ok();
  }));
  std::vector<mail::Outgoing> out;
  std::vector<Row> batch;
  for (const Notice& n : notices) {
    const std::string rule = n.what == "blockade" ? "SOW 2.5" : "SOW 2.6";
    for (const std::string& state : {n.against, n.by}) {
      if (state == n.by && n.by == n.against) continue;
      auto it = ministers.find(state);
      if (it == ministers.end()) continue;
      for (const auto& [person, box] : it->second) {
        if (box->since_seq >= n.seq) continue;  // he had no address when it was recorded
        replay::MailRecord rec;
        rec.person = person;
        rec.purpose = "notice";
        rec.turn = n.turn;
        rec.message_id = "adjutant.notice." + Word(rq.game) + "." + Word(branch) + "." + std::to_string(n.seq) + "." +
                         Word(person) + "." + Hex16(rq.game + '\0' + branch + '\0' + person) + "@" +
                         MailDomain(rq.settings);
        auto sent = replay::MailSentBefore(db, rq.game, branch, rec);
        if (!sent.ok()) return sent.status();
        if (*sent) continue;
        const std::string title = std::string(n.lift ? "lifting of the " : "") + n.what + " of " + n.against +
                                  " by " + n.by;
        mail::Outgoing m;
        m.to_address = box->address;
        m.to_name = person;
        m.subject = "[" + rq.game + "] notice of the " + title + " (" + rule + ")";
        m.text = "Notice of the " + title + " (" + rule + "), received by the Game Administrator in turn " +
                 n.turn.ToString() + " of " + rq.game + " and recorded [seq " + std::to_string(n.seq) + "]. " +
                 (n.lift ? "It is lifted" : "It takes effect") + " from its receipt.\n\n" +
                 (n.text.empty() ? std::string("(the notice has no text)") : n.text) + "\n\n" +
                 "You receive it as the Foreign Minister of " + state + ".\n-- \nSent by Adjutant for the Game Administrator.\n";
        m.message_id = rec.message_id;
        m.references = {"adjutant." + Word(rq.game) + "." + Word(person) + "." + Hex16(rq.game + '\0' + person) + "@" +
                        MailDomain(rq.settings)};
        m.headers = {{"X-Adjutant-Game", rq.game + "/" + branch},
                     {"X-Adjutant-Turn", n.turn.ToString()},
                     {"X-Adjutant-Notice", n.what + (n.lift ? " lifted" : "") + " " + n.by + " " + n.against}};
        batch.push_back(ExtraRow(person, n.turn, "notice", m));
        out.push_back(std::move(m));
      }
    }
  }
  return SendExtra(db, rq, branch, out, batch, rows, failed);
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
  int64_t next_reminder = 0;
  ADJ_RETURN_IF_ERROR(Notices(**db, rq, branch, &rows, &failed));
  ADJ_RETURN_IF_ERROR(Remind(**db, rq, branch, &rows, &failed, &next_reminder));
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::MailOutRow>> out;
    for (const Row& r : rows) {
      out.push_back(fb::CreateMailOutRowDirect(f, r.due.person.c_str(), r.due.address.c_str(),
                                               r.due.turn.ToString().c_str(), r.message_id.c_str(), r.subject.c_str(),
                                               r.outcome.c_str(), r.error.c_str(), r.due.attempt, r.retry_at,
                                               r.body_hash.c_str(), r.due.digest.hex.c_str(), r.seq,
                                               r.purpose.c_str(), r.deadline));
    }
    f.Finish(fb::CreateMailOutReportDirect(f, rq.game.c_str(), branch.c_str(), rq.now, &out, next_reminder));
    ADJ_RETURN_IF_ERROR(p.Json("MailOutReport", f));
  } else {
    if (rows.empty()) p.Line("no mail due for " + rq.game + "/" + branch);
    for (const Row& r : rows) {
      const std::string to = r.due.person + " <" + r.due.address + ">";
      if (r.purpose == "notice") {
        const std::string what = "\"" + r.subject + "\"";
        if (r.outcome == "sent") p.Line("sent to " + to + ": " + what + " [seq " + std::to_string(r.seq) + "]");
        else if (r.outcome == "due") p.Line("due to " + to + ": " + what + " (a dry run: not sent)");
        else p.Line("NOT sent to " + to + ": " + what + ": " + r.error + "; tried again at the next run");
        continue;
      }
      if (r.purpose == "reminder") {
        const std::string what = "a reminder of his orders for " + TurnWords(r.due.turn, box.battle()) + ", due by " +
                                 FormatUtc(r.deadline);
        if (r.outcome == "sent") p.Line("sent to " + to + ": " + what + " [seq " + std::to_string(r.seq) + "]");
        else if (r.outcome == "due") p.Line("due to " + to + ": " + what + " (a dry run: not sent)");
        else p.Line("NOT sent to " + to + ": " + what + ": " + r.error + "; tried again at the next run");
        continue;
      }
      const std::string what = TurnWords(r.due.turn, box.battle());
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
