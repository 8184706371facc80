// `adjutant mail-in` (issue 20): orders mailed to the game's address. A
// message names its game and person and gives his password in a few
// `Key: value` lines at the top of its text, then the orders in the text
// form (rules/order_text.h) — or attaches them as an OrderFile JSON file
// (or a .txt file in the text form):
//
//   Game: trafalgar
//   Person: villeneuve
//   Password: ...
//
//   FR-BUC orders move ...
//
// Quoted lines ("> ...") and a signature (after "-- ") are left out; line
// numbers in a refusal are those of the message's text. The orders are
// recorded as `adjutant order` records them, under the message's
// Message-ID as the idempotency key; the message itself is recorded
// (MailReceived: from whom, the person it named, the hash of its text with
// the password blotted out, accepted or refused and why); the sender gets a
// reply threaded to it listing each order's fate with its rule (a refusal:
// why, and how an order message is written). A message read again records
// nothing new and is not answered twice. A message that names no game of
// this ledger is answered and recorded nowhere. Nothing is answered that
// would make mail loop: an automatic message (Auto-Submitted), a bounce,
// or one from the GA's own address.
#include <flatbuffers/flatbuffers.h>
#include <sodium.h>

#include <algorithm>
#include <cctype>

#include "base/limits.h"
#include "base/text.h"
#include "base/utc.h"
#include "mail/mail.h"
#include "ops/internal.h"
#include "projections/roster.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "replay/mail.h"
#include "rules/kind.h"
#include "rules/order_text.h"
#include "schema/reports_generated.h"

namespace adjutant::ops {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}


// What a message says: whose orders, for which game, and the orders.
struct Letter {
  std::string game, person, password, branch;
  std::string orders;       // the text form, header lines blanked (line numbers kept); or the attachment
  std::string orders_from;  // "the message" or the attachment's name
  std::string masked;       // the text with the password blotted out: what is hashed and recorded
  std::string problem;      // why it cannot be read as orders ("": it can)
};

const char* const kHowTo =
    "An order message names the game and you and gives your password, one to a line at the top of its\n"
    "text, then your orders in the text form, one to a line (the README of your game's rules lists them):\n"
    "\n"
    "  Game: GAME\n"
    "  Person: YOUR NAME IN THE GAME\n"
    "  Password: YOUR PASSWORD\n"
    "\n"
    "  ...your orders...\n"
    "\n"
    "Or attach the orders as a JSON order file (or a .txt file in the text form).\n";

Letter Read(const mail::Incoming& m) {
  Letter l;
  std::string text = m.text;
  std::vector<std::string> lines;
  {
    size_t at = 0;
    while (at <= text.size()) {
      size_t nl = text.find('\n', at);
      if (nl == std::string::npos) nl = text.size();
      lines.push_back(text.substr(at, nl - at));
      at = nl + 1;
    }
    if (!lines.empty() && lines.back().empty()) lines.pop_back();
  }
  bool in_head = true, signature = false;
  std::string orders, masked;
  bool any_order_line = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string keep = line, mask = line;
    if (signature) {
      keep.clear();
    } else if (line == "-- " || line == "--") {
      signature = true;
      keep.clear();
    } else if (!line.empty() && line[0] == '>') {
      keep.clear();  // quoted from an earlier message
    } else if (i + 1 < lines.size() && !lines[i + 1].empty() && lines[i + 1][0] == '>' &&
               Trim(line).size() > 6 && Lower(Trim(line)).ends_with("wrote:")) {
      keep.clear();  // "On ..., X wrote:" before a quotation
    } else if (in_head) {
      const std::string t = Trim(line);
      const size_t colon = t.find(':');
      const std::string key = colon == std::string::npos ? "" : Lower(Trim(t.substr(0, colon)));
      const std::string value = colon == std::string::npos ? "" : Trim(t.substr(colon + 1));
      // A game, person or branch is recorded and quoted back: as text, a
      // stray byte or an escape mended (a password is never shown).
      const auto named = [&] { return SafeText(value, TextRule::kName); };
      if (t.empty()) {
        keep.clear();
      } else if (key == "game") {
        l.game = named();
        keep.clear();
      } else if (key == "person" || key == "player") {
        l.person = named();
        keep.clear();
      } else if (key == "password") {
        l.password = value;
        keep.clear();
        mask = line.substr(0, line.find(':') + 1) + " ********";
      } else if (key == "branch") {
        l.branch = named();
        keep.clear();
      } else {
        in_head = false;
      }
    }
    if (!Trim(keep).empty()) any_order_line = true;
    orders += keep + "\n";
    masked += mask + "\n";
  }
  l.masked = masked;
  // An attached order file.
  std::vector<const mail::Attachment*> files;
  for (const auto& a : m.attachments) {
    const std::string name = Lower(a.name), type = Lower(a.media_type);
    if (name.ends_with(".json") || type == "application/json" || name.ends_with(".txt")) files.push_back(&a);
  }
  if (files.size() > 1) {
    l.problem = "it attaches " + std::to_string(files.size()) + " order files: send one";
  } else if (files.size() == 1 && any_order_line) {
    l.problem = "it has orders both in its text and in the attached " + files[0]->name + ": send them in one place";
  } else if (files.size() == 1) {
    l.orders = files[0]->bytes;
    l.orders_from = files[0]->name.empty() ? "the attached file" : files[0]->name;
    l.masked += "\n" + files[0]->bytes;
  } else if (!any_order_line) {
    l.orders_from = "the message";
    if (!l.game.empty() && !l.person.empty()) l.problem = "it holds no orders";
  } else {
    l.orders = orders;
    l.orders_from = "the message";
  }
  if (l.problem.empty()) {
    if (l.game.empty()) l.problem = "it names no game (a line 'Game: NAME' at the top of the text)";
    else if (l.person.empty()) l.problem = "it names no person (a line 'Person: NAME' at the top of the text)";
    else if (l.password.empty()) l.problem = "it gives no password (a line 'Password: ...' at the top of the text)";
  }
  return l;
}

// A message Adjutant must not answer (RFC 3834): automatic, a bounce, or
// from the GA's own address.
std::string NotToAnswer(const mail::Incoming& m, const mail::Settings* s) {
  const std::string auto_submitted = Lower(Trim(m.Header("Auto-Submitted")));
  if (!auto_submitted.empty() && auto_submitted != "no") return "an automatic message (Auto-Submitted: " + auto_submitted + ")";
  const std::string precedence = Lower(Trim(m.Header("Precedence")));
  if (precedence == "bulk" || precedence == "junk" || precedence == "list") return "a " + precedence + " message";
  const std::string from = Lower(m.from_address);
  if (from.empty()) return "it has no sender";
  if (from.starts_with("mailer-daemon@") || from.starts_with("postmaster@")) return "a delivery report";
  if (s && from == Lower(s->from_address)) return "it is from the GA's own address";
  return "";
}

struct Row {
  std::string message_id, from, subject, game, branch, person;
  std::string outcome, reason;
  uint64_t seq = 0;
  std::optional<replay::SubmitReport> orders;
  std::string reply = "none", reply_error, reply_message_id;
  bool keep_unseen = false;  // not finished: read again next time
};

std::string ReplyText(const Row& r, const Letter& l, bool battle) {
  std::string t;
  if (r.outcome == "accepted") {
    const auto& rep = *r.orders;
    t += "Your orders for " + std::string(battle ? "move " + std::to_string(rep.at.turn.minor) : "turn " + rep.at.turn.ToString()) +
         " of " + r.game + " (branch " + r.branch + ") are " + (rep.append.replayed ? "already recorded" : "recorded") +
         ", from " + l.orders_from + " of " + r.person + ":\n\n";
    for (const auto& o : rep.orders) {
      std::string line = "  #" + std::to_string(o.seq) + " " + o.slot + ": " + o.status;
      if (!o.rule.empty()) line += " (" + o.rule + ")";
      if (!o.reason.empty()) line += ": " + o.reason;
      t += line + "\n";
    }
    t += "\nAn order that stands may still be replaced or withdrawn until the deadline; the last word before it\n"
         "stands. Your report after the turn tells you what became of each.\n";
  } else {
    t += "Your message";
    if (!r.subject.empty()) t += " \"" + r.subject + "\"";
    t += " was not taken: " + r.reason + ".\n";
    t += r.seq ? "It is recorded as received and refused; no order of it was recorded.\n\n"
               : "Nothing of it was recorded.\n\n";
    t += kHowTo;
  }
  t += "\n-- \nSent by Adjutant for the Game Administrator.\n";
  return t;
}

class Reader {
 public:
  Reader(const MailInRequest& rq, ledger::Ledger& db) : rq_(rq), db_(db) {}

  void Handle(const mail::Incoming& m, std::vector<mail::Outgoing>* replies, Row& r) {
    turn_ = Turn{};
    r.from = m.from_address;
    r.subject = m.subject;
    r.message_id = m.message_id;
    if (!m.error.empty()) {
      r.outcome = "refused";
      r.reason = "it could not be read: " + m.error;
      Answer(m, r, Letter{}, false, replies);
      return;
    }
    if (r.message_id.empty()) {
      // No Message-ID: one is made of what it says, so it too is taken once.
      r.message_id = "no-id." + replay::Blake2bHex(m.from_address + '\0' + m.subject + '\0' + m.text).substr(0, 32) +
                     "@adjutant.invalid";
    }
    const std::string why_not = NotToAnswer(m, rq_.settings);
    Letter l = Read(m);
    r.game = l.game;
    r.person = l.person;
    if (!why_not.empty()) {
      r.outcome = "ignored";
      r.reason = why_not;
      return;
    }
    if (l.game.empty()) {
      r.outcome = "refused";
      r.reason = l.problem;
      Answer(m, r, l, false, replies);
      return;
    }
    auto games = db_.Games();
    bool known = false;
    if (games.ok()) {
      for (const auto& g : *games) known |= g.name == l.game;
    }
    if (!known) {
      r.outcome = "refused";
      r.reason = "there is no game '" + l.game + "' here";
      Answer(m, r, l, false, replies);
      return;
    }
    if (!l.branch.empty()) {
      r.branch = l.branch;
    } else {
      auto current = db_.Current(l.game);
      r.branch = current.ok() ? *current : "main";
    }
    Status st = rq_.in_sequence ? rq_.in_sequence(l.game, [&] { return Take(m, l, r); }) : Take(m, l, r);
    if (!st.ok()) {
      r.outcome = "not read";
      r.reason = st.message();
      r.keep_unseen = true;  // the ledger failed: read again next time, nothing answered
      return;
    }
    if (r.outcome == "seen before") return;
    Answer(m, r, l, battle_, replies);
  }

 private:
  // On the game's sequencer: the orders in, the message recorded.
  Status Take(const mail::Incoming& m, const Letter& l, Row& r) {
    auto world = replay::Fold(db_, l.game, r.branch);
    if (!world.ok()) return world.status();
    if (!world->kind()) return Status::NotFound("no game '" + l.game + "' (branch " + r.branch + ")");
    battle_ = false;
    for (auto rs : world->kind()->Rulesets()) battle_ |= rs == "dog";
    reply_id_ = ReplyId(r.message_id);
    auto seen = replay::MailReceivedBefore(db_, l.game, r.branch, r.message_id);
    if (!seen.ok()) return seen.status();
    if (*seen) {
      auto replied = replay::ReplySentBefore(db_, l.game, r.branch, reply_id_);
      if (!replied.ok()) return replied.status();
      if (*replied) {
        r.outcome = "seen before";
        r.reason = "recorded and answered before";
        return Status::Ok();
      }
    }
    Status refused = Status::Ok();
    if (!l.problem.empty()) {
      refused = Status::InvalidArgument(l.problem);
    } else {
      const projections::Person* p = world->roster().Find(l.person);
      // One answer for an unknown person and a wrong password.
      if (p == nullptr || p->pwhash.empty() ||
          crypto_pwhash_str_verify(p->pwhash.c_str(), l.password.c_str(), l.password.size()) != 0) {
        refused = Status::InvalidArgument("wrong person or password for game '" + l.game + "'");
      }
    }
    if (refused.ok()) {
      const auto rulesets = world->kind()->Rulesets();
      auto doc = rules::ParseOrderDocument(l.orders, l.orders_from, rulesets);
      if (!doc.ok()) {
        refused = doc.status();
      } else {
        // As `adjutant order` takes them: an order the rules refuse (one for
        // another's ship, a ministry's order its minister may not give) is
        // recorded with its refusal and rule, and he is told.
        const std::string key = "mail " + replay::Blake2bHex(r.message_id);
        auto rep = replay::SubmitOrders(db_, l.game, r.branch, l.person, *doc,
                                        {.idempotency_key = key, .received_at = rq_.now});
        if (rep.ok()) {
          r.orders = std::move(rep).value();
        } else if (rep.status().code() == Status::Code::kInvalidArgument ||
                   rep.status().code() == Status::Code::kNotFound) {
          refused = rep.status();
        } else {
          return rep.status();  // the ledger: read again next time
        }
      }
    }
    replay::ReceivedRecord rec;
    rec.message_id = r.message_id;
    rec.from = m.from_address;
    rec.person = l.person;
    rec.subject = m.subject;
    rec.body_hash = replay::Blake2bHex(l.masked);
    rec.accepted = refused.ok();
    rec.reason = refused.ok() ? "" : refused.message();
    rec.at = rq_.now;
    auto recorded = replay::RecordMailReceived(db_, l.game, r.branch, rec);
    if (!recorded.ok()) return recorded.status();
    r.seq = recorded->first_seq;
    r.outcome = refused.ok() ? "accepted" : "refused";
    r.reason = rec.reason;
    turn_ = world->head.at.turn;
    if (r.orders) turn_ = r.orders->at.turn;
    return Status::Ok();
  }

  std::string ReplyId(const std::string& message_id) const {
    return "adjutant.reply." + replay::Blake2bHex(message_id).substr(0, 32) + "@" + MailDomain(rq_.settings);
  }

  void Answer(const mail::Incoming& m, Row& r, const Letter& l, bool battle, std::vector<mail::Outgoing>* replies) {
    if (r.from.empty() || !NotToAnswer(m, rq_.settings).empty()) return;
    mail::Outgoing o;
    o.to_address = m.from_address;
    o.to_name = m.from_name;
    o.subject = Lower(r.subject).starts_with("re:") ? r.subject : "Re: " + r.subject;
    if (r.subject.empty()) o.subject = "Re: your orders";
    o.text = ReplyText(r, l, battle);
    o.message_id = ReplyId(r.message_id);
    if (!m.message_id.empty()) o.references = {m.message_id};
    o.headers = {{"Auto-Submitted", "auto-replied"}};
    if (!r.game.empty() && r.seq) o.headers.push_back({"X-Adjutant-Game", r.game + "/" + r.branch});
    r.reply_message_id = o.message_id;
    r.reply = "due";
    pending_turn_.push_back(turn_);
    replies->push_back(std::move(o));
  }

 public:
  const std::vector<Turn>& pending_turns() const { return pending_turn_; }

 private:
  const MailInRequest& rq_;
  ledger::Ledger& db_;
  bool battle_ = false;
  std::string reply_id_;
  Turn turn_;
  std::vector<Turn> pending_turn_;
};

Status DoMailIn(const Env& env, const MailInRequest& rq, Printer& p) {
  if (sodium_init() < 0) return Status::IOError("libsodium failed to initialise");
  if (!rq.settings) return Status::InvalidArgument("adjutant mail-in: --settings FILE (the GA's mail account) is required");
  // The database first: held by the order desk, nothing is fetched here.
  auto db = env.open(true);
  if (!db.ok()) return db.status();
  std::vector<mail::Incoming> in;
  if (rq.from_imap) {
    if (rq.settings->imap.host.empty()) {
      return Status::InvalidArgument(rq.settings->path + ": imap.host is not set: no mail comes in (or give --stdin)");
    }
    auto got = mail::Fetch(*rq.settings, true);
    if (!got.ok()) return got.status();
    in = std::move(got).value();
  } else {
    for (const auto& raw : rq.raw) {
      auto m = mail::Parse(raw);
      if (m.ok()) {
        in.push_back(std::move(m).value());
      } else {
        mail::Incoming bad;
        bad.error = m.status().message();
        in.push_back(std::move(bad));
      }
    }
  }
  Reader reader(rq, **db);
  std::vector<Row> rows(in.size());
  std::vector<mail::Outgoing> replies;
  std::vector<Row*> replied;
  for (size_t i = 0; i < in.size(); ++i) {
    const size_t before = replies.size();
    reader.Handle(in[i], &replies, rows[i]);
    if (replies.size() > before) replied.push_back(&rows[i]);
  }
  // The replies, over one connection; each that went is recorded.
  size_t failed = 0;
  if (!replies.empty()) {
    if (rq.settings->smtp.host.empty()) {
      for (Row* r : replied) {
        r->reply = "failed";
        r->reply_error = rq.settings->path + ": smtp.host is not set";
        r->keep_unseen = true;
        failed++;
      }
    } else {
      std::vector<Status> went;
      Status st = mail::Send(*rq.settings, replies, &went);
      for (size_t i = 0; i < replied.size(); ++i) {
        Row& r = *replied[i];
        const Status s = st.ok() ? went[i] : st;
        if (!s.ok()) {
          r.reply = "failed";
          r.reply_error = s.message();
          r.keep_unseen = true;  // answered next time (its orders are in, once)
          failed++;
          continue;
        }
        r.reply = "sent";
        if (r.seq == 0) continue;  // recorded nowhere: no game of it
        replay::MailRecord rec;
        rec.person = r.person;
        rec.address = replies[i].to_address;
        rec.purpose = "reply";
        rec.turn = reader.pending_turns()[i];
        rec.message_id = replies[i].message_id;
        rec.subject = replies[i].subject;
        rec.body_hash = replay::Blake2bHex(replies[i].text);
        rec.at = rq.now;
        auto record = [&] { return replay::RecordMailSent(**db, r.game, r.branch, rec).status(); };
        Status recorded = rq.in_sequence ? rq.in_sequence(r.game, record) : record();
        if (!recorded.ok()) {
          r.reply_error = "sent, but not recorded: " + recorded.message();
          failed++;
        }
      }
    }
  }
  if (rq.from_imap) {
    std::vector<uint64_t> seen;
    for (size_t i = 0; i < in.size(); ++i) {
      if (!rows[i].keep_unseen && in[i].uid != 0) seen.push_back(in[i].uid);
    }
    if (!seen.empty()) {
      Status st = mail::MarkSeen(*rq.settings, seen);
      if (!st.ok()) {
        // Read again next time: every record and reply is idempotent.
        p.Line("could not mark the messages read: " + st.message());
      }
    }
  }
  size_t not_read = 0;
  for (const Row& r : rows) not_read += r.outcome == "not read";
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::MailInRow>> out;
    for (const Row& r : rows) {
      flatbuffers::Offset<fb::SubmitSummary> orders;
      if (r.orders) {
        std::vector<flatbuffers::Offset<fb::OrderResult>> results;
        for (const auto& o : r.orders->orders) {
          results.push_back(fb::CreateOrderResultDirect(f, o.seq, o.slot.c_str(), o.status.c_str(), o.rule.c_str(),
                                                        o.reason.c_str()));
        }
        const Turn& t = r.orders->at.turn;
        fb::Turn ft(t.major, t.minor, t.step);
        orders = fb::CreateSubmitSummaryDirect(f, r.game.c_str(), r.branch.c_str(), &ft, r.orders->append.first_seq,
                                               r.orders->append.last_seq, r.orders->append.replayed, &results);
      }
      out.push_back(fb::CreateMailInRowDirect(f, r.message_id.c_str(), r.from.c_str(), r.subject.c_str(),
                                              r.game.c_str(), r.branch.c_str(), r.person.c_str(), r.outcome.c_str(),
                                              r.reason.c_str(), r.seq, orders, r.reply.c_str(), r.reply_error.c_str(),
                                              r.reply_message_id.c_str()));
    }
    f.Finish(fb::CreateMailInReportDirect(f, rq.now, &out));
    ADJ_RETURN_IF_ERROR(p.Json("MailInReport", f));
  } else {
    if (rows.empty()) p.Line("no new mail");
    for (const Row& r : rows) {
      std::string line = "<" + r.message_id + "> from " + (r.from.empty() ? "(nobody)" : r.from);
      if (!r.game.empty()) line += ", " + r.game + (r.person.empty() ? "" : "/" + r.person);
      line += ": " + r.outcome;
      if (r.orders) {
        size_t stand = 0;
        for (const auto& o : r.orders->orders) stand += o.status == "stands" || o.status == "withdrawal";
        line += ", " + std::to_string(r.orders->orders.size()) + (r.orders->orders.size() == 1 ? " order" : " orders") +
                " for turn " + r.orders->at.turn.ToString() + " (" + std::to_string(stand) + " stand)";
      }
      if (!r.reason.empty()) line += " (" + r.reason + ")";
      if (r.seq) line += " [seq " + std::to_string(r.seq) + "]";
      if (r.reply == "sent") line += "; answered";
      else if (r.reply == "failed") line += "; the answer was NOT sent (" + r.reply_error + "): tried again next time";
      else if (!r.reply_error.empty()) line += "; " + r.reply_error;
      p.Line(line);
    }
  }
  if (failed > 0 || not_read > 0) {
    return Status::IOError(std::to_string(failed + not_read) + (failed + not_read == 1 ? " message was" : " messages were") +
                           " not finished: left to be read again (nothing is taken twice)");
  }
  return Status::Ok();
}

}  // namespace

Answer MailIn(const Env& env, const MailInRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoMailIn(env, rq, p); });
}

}  // namespace adjutant::ops
