#include "replay/mail.h"

#include "base/text.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "rules/kind.h"
#include "schema/event_generated.h"

namespace adjutant::replay {
namespace {

const Actor kAdjutant{ActorKind::kGameAdministrator, "", ""};

// A directive of mail at the branch's directive position, as one batch,
// after the branch's head as it stands (folded again if another writer
// moved it meanwhile).
Result<ledger::AppendResult> AppendMail(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                        const PayloadBuilder& payload, std::string_view key = {},
                                        uint64_t fingerprint = 0) {
  for (int attempt = 0;; ++attempt) {
    auto world = Fold(db, game, branch);
    if (!world.ok()) return world.status();
    const rules::GameKind* kind = world->kind();
    Draft d;
    d.at = kind ? kind->DirectivePosition(world->projections) : world->head.at;
    d.actor = kAdjutant;
    d.payload = payload;
    auto r = db.Append(game, branch, world->head.seq, std::vector<Draft>{std::move(d)}, key, fingerprint);
    if (r.ok() || r.status().code() != Status::Code::kConflict || attempt >= 4) return r;
    if (!key.empty()) {
      auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""), key,
                                fingerprint);
      if (!prior.ok()) return prior.status();
      if (prior->has_value()) return **prior;  // another writer recorded it
    }
  }
}

fb::Turn FbTurn(const Turn& t) { return fb::Turn(t.major, t.minor, t.step); }

// A reply is known by the message it answers (its id is made from it),
// whatever turn it went out in.
std::string SentKey(const MailRecord& m) {
  if (m.purpose == "reply") return "mail reply " + Blake2bHex(m.message_id);
  return "mail " + m.purpose + " " + m.person + " " + m.turn.ToString() + " " + m.message_id;
}

}  // namespace

const projections::MailState& MailOf(const World& w) { return rules::Get<projections::Mail>(w.projections).state(); }

Status CheckMailAddress(std::string_view a) {
  if (a.empty()) return Status::Ok();
  if (a.size() > 254) return Status::InvalidArgument("mail address: longer than 254 characters");
  for (char c : a) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u == 0x7f || c == '<' || c == '>' || c == '"' || c == ',' || c == ';' || c == '(' || c == ')' ||
        c == '\\' || c == '[' || c == ']') {
      return Status::InvalidArgument("mail address '" + std::string(a) + "': no spaces, quotes, brackets, commas or control characters");
    }
  }
  const size_t at = a.find('@');
  if (at == std::string_view::npos || at == 0 || at + 1 >= a.size() || a.find('@', at + 1) != std::string_view::npos ||
      a.substr(at + 1).find('.') == std::string_view::npos || a.back() == '.') {
    return Status::InvalidArgument("mail address '" + std::string(a) + "' is not user@domain");
  }
  return Status::Ok();
}

Result<ledger::AppendResult> SetMailAddress(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                            const std::string& person, const std::string& address) {
  ADJ_RETURN_IF_ERROR(CheckMailAddress(address));
  auto world = Fold(db, game, branch);
  if (!world.ok()) return world.status();
  if (!world->kind()) return Status::NotFound("no game '" + std::string(game) + "' (branch " + std::string(branch) + ")");
  if (!world->roster().Find(person)) {
    return Status::InvalidArgument("there is no person '" + person + "' in game '" + std::string(game) + "'");
  }
  return AppendMail(db, game, branch, [person, address](flatbuffers::FlatBufferBuilder& f) {
    auto body = fb::CreateSetMailAddressDirect(f, person.c_str(), address.c_str());
    auto x = fb::CreateDirective(f, f.CreateString(address.empty() ? "mail address cleared by the GA"
                                                                    : "mail address set by the GA"),
                                 fb::DirectiveBody_SetMailAddress, body.Union());
    return PayloadRef{fb::Payload_Directive, x.o};
  });
}

Result<ledger::AppendResult> RecordMailSent(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                            const MailRecord& m) {
  const std::string key = SentKey(m);
  const uint64_t fingerprint = RequestFingerprint("mail-sent", branch, m.purpose == "reply" ? "" : m.person, key);
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""), key,
                            fingerprint);
  if (!prior.ok()) return prior.status();
  if (prior->has_value()) return **prior;
  return AppendMail(
      db, game, branch,
      [m](flatbuffers::FlatBufferBuilder& f) {
        const fb::Turn t = FbTurn(m.turn);
        auto body = fb::CreateMailSentDirect(f, m.person.c_str(), m.address.c_str(), m.purpose.c_str(), &t,
                                             m.message_id.c_str(), m.subject.c_str(), m.body_hash.c_str(),
                                             m.digest.c_str(), m.attempt, m.at);
        auto x = fb::CreateDirective(f, f.CreateString("mail sent"), fb::DirectiveBody_MailSent, body.Union());
        return PayloadRef{fb::Payload_Directive, x.o};
      },
      key, fingerprint);
}

Result<ledger::AppendResult> RecordMailFailed(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                              const MailRecord& m) {
  // The server's answer is the server's to word: recorded as text (base/text.h).
  const std::string error = SafeText(m.error, TextRule::kFreeText);
  return AppendMail(db, game, branch, [m, error](flatbuffers::FlatBufferBuilder& f) {
    const fb::Turn t = FbTurn(m.turn);
    auto body = fb::CreateMailFailedDirect(f, m.person.c_str(), m.address.c_str(), m.purpose.c_str(), &t,
                                           m.message_id.c_str(), error.c_str(), m.attempt, m.at, m.retry_at);
    auto x = fb::CreateDirective(f, f.CreateString("mail not sent"), fb::DirectiveBody_MailFailed, body.Union());
    return PayloadRef{fb::Payload_Directive, x.o};
  });
}

namespace {
std::string ReceivedKey(const std::string& message_id) { return "mail-in " + Blake2bHex(message_id); }

Result<bool> KeyRecorded(ledger::Ledger& db, std::string_view game, std::string_view branch, const std::string& kind,
                         const std::string& who, const std::string& key) {
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""), key,
                            RequestFingerprint(kind, branch, who, key));
  if (!prior.ok()) return prior.status();
  return prior->has_value();
}
}  // namespace

Result<ledger::AppendResult> RecordMailReceived(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                                const ReceivedRecord& r, bool* first) {
  const std::string key = ReceivedKey(r.message_id);
  const uint64_t fingerprint = RequestFingerprint("mail-received", branch, "", key);
  auto prior = PriorRequest(db, game, branch, ledger::IdempotencyOwner(ActorKind::kGameAdministrator, ""), key,
                            fingerprint);
  if (!prior.ok()) return prior.status();
  if (first) *first = !prior->has_value();
  if (prior->has_value()) return **prior;
  // What the sender chose (and a refusal that quotes it) is recorded as
  // text: mail::Parse mended the headers; this mends the rest.
  const auto safe = [](const std::string& t) { return SafeText(t, TextRule::kName); };
  return AppendMail(
      db, game, branch,
      [r, from = safe(r.from), person = safe(r.person), subject = safe(r.subject),
       reason = SafeText(r.reason, TextRule::kFreeText)](flatbuffers::FlatBufferBuilder& f) {
        auto body = fb::CreateMailReceivedDirect(f, r.message_id.c_str(), from.c_str(), person.c_str(),
                                                 subject.c_str(), r.body_hash.c_str(), r.accepted, reason.c_str(),
                                                 r.at);
        auto x = fb::CreateDirective(f, f.CreateString(r.accepted ? "orders received by mail" : "mail received and refused"),
                                     fb::DirectiveBody_MailReceived, body.Union());
        return PayloadRef{fb::Payload_Directive, x.o};
      },
      key, fingerprint);
}

Result<bool> MailReceivedBefore(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                const std::string& message_id) {
  return KeyRecorded(db, game, branch, "mail-received", "", ReceivedKey(message_id));
}

Result<bool> ReplySentBefore(ledger::Ledger& db, std::string_view game, std::string_view branch,
                             const std::string& reply_message_id) {
  MailRecord m;
  m.purpose = "reply";
  m.message_id = reply_message_id;
  return MailSentBefore(db, game, branch, m);
}

Result<bool> MailSentBefore(ledger::Ledger& db, std::string_view game, std::string_view branch, const MailRecord& m) {
  return KeyRecorded(db, game, branch, "mail-sent", m.purpose == "reply" ? "" : m.person, SentKey(m));
}

int64_t MailBackoff(uint32_t attempt) {
  int64_t wait = 60;
  for (uint32_t i = 1; i < attempt && wait < 3600; ++i) wait *= 2;
  return wait < 3600 ? wait : 3600;
}

}  // namespace adjutant::replay
