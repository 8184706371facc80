#include "mail/mail.h"

#include "base/text.h"
#include "base/utc.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <vmime/net/defaultTimeoutHandler.hpp>
#include <vmime/platforms/posix/posixHandler.hpp>
#include <vmime/security/cert/defaultCertificateVerifier.hpp>
#include <vmime/vmime.hpp>

namespace adjutant::mail {
namespace {

void InitVmime() {
  static std::once_flag once;
  std::call_once(once, [] { vmime::platform::setHandler<vmime::platforms::posix::posixHandler>(); });
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(path + ": cannot be read");
  std::ostringstream b;
  b << in.rdbuf();
  return b.str();
}

// "Name <address>" or a bare address.
bool ParseMailbox(const std::string& v, std::string* name, std::string* address) {
  const size_t lt = v.rfind('<');
  if (lt == std::string::npos) {
    *address = Trim(v);
    name->clear();
  } else {
    const size_t gt = v.find('>', lt);
    if (gt == std::string::npos || Trim(v.substr(gt + 1)) != "") return false;
    *address = Trim(v.substr(lt + 1, gt - lt - 1));
    *name = Trim(v.substr(0, lt));
    if (name->size() >= 2 && name->front() == '"' && name->back() == '"') *name = name->substr(1, name->size() - 2);
  }
  const size_t at = address->find('@');
  return at != std::string::npos && at > 0 && at + 1 < address->size() &&
         address->find_first_of(" \t<>,;\"") == std::string::npos;
}

// A string as the ASCII word VMime puts in a header, or a message id's halves.
std::string Bare(std::string id) {
  id = Trim(id);
  if (id.size() >= 2 && id.front() == '<' && id.back() == '>') id = id.substr(1, id.size() - 2);
  return id;
}

vmime::messageId IdOf(const std::string& id) {
  const std::string b = Bare(id);
  const size_t at = b.find('@');
  if (at == std::string::npos) return vmime::messageId(b, "");
  return vmime::messageId(b.substr(0, at), b.substr(at + 1));
}

std::string IdText(const vmime::messageId& id) {
  return id.getRight().empty() ? id.getLeft() : id.getLeft() + "@" + id.getRight();
}

// VMime's default waits 30 s and gives up; ours waits the settings' timeout.
class Timeout final : public vmime::net::timeoutHandler {
 public:
  explicit Timeout(uint32_t seconds) : seconds_(seconds) { resetTimeOut(); }
  bool isTimeOut() override { return std::chrono::steady_clock::now() - start_ > std::chrono::seconds(seconds_); }
  void resetTimeOut() override { start_ = std::chrono::steady_clock::now(); }
  bool handleTimeOut() override { return false; }  // give up

 private:
  uint32_t seconds_;
  std::chrono::steady_clock::time_point start_;
};

class TimeoutFactory final : public vmime::net::timeoutHandlerFactory {
 public:
  explicit TimeoutFactory(uint32_t seconds) : seconds_(seconds) {}
  vmime::shared_ptr<vmime::net::timeoutHandler> create() override {
    return vmime::make_shared<Timeout>(seconds_);
  }

 private:
  uint32_t seconds_;
};

// The certificates of a PEM bundle (the system's, or the GA's own CA).
Result<vmime::shared_ptr<vmime::security::cert::defaultCertificateVerifier>> Verifier(const Settings& s) {
  auto pem = ReadFile(s.ca_file);
  if (!pem.ok()) return Status::InvalidArgument(s.path + ": ca_file " + s.ca_file + " cannot be read");
  std::vector<vmime::shared_ptr<vmime::security::cert::X509Certificate>> cas;
  static const std::string kBegin = "-----BEGIN CERTIFICATE-----", kEnd = "-----END CERTIFICATE-----";
  for (size_t b = pem->find(kBegin); b != std::string::npos; b = pem->find(kBegin, b + 1)) {
    const size_t e = pem->find(kEnd, b);
    if (e == std::string::npos) break;
    const std::string one = pem->substr(b, e + kEnd.size() - b) + "\n";
    auto cert = vmime::security::cert::X509Certificate::import(reinterpret_cast<const vmime::byte_t*>(one.data()),
                                                               one.size());
    if (cert) cas.push_back(cert);
  }
  if (cas.empty()) return Status::InvalidArgument(s.path + ": ca_file " + s.ca_file + " holds no certificate");
  auto v = vmime::make_shared<vmime::security::cert::defaultCertificateVerifier>();
  v->setX509RootCAs(cas);
  return v;
}

template <class Service>
void Configure(Service& svc, const Settings& s, const Endpoint& e,
               const vmime::shared_ptr<vmime::security::cert::defaultCertificateVerifier>& verifier) {
  svc.setCertificateVerifier(verifier);
  svc.setTimeoutHandlerFactory(vmime::make_shared<TimeoutFactory>(s.timeout_seconds));
  if (e.tls == Tls::kStartTls) {
    svc.setProperty("connection.tls", true);
    svc.setProperty("connection.tls.required", true);
  }
  svc.setProperty("auth.username", e.user);
  svc.setProperty("auth.password", e.password);
  svc.setProperty("options.need-authentication", true);
}

std::string What(const std::exception& x) {
  if (auto* v = dynamic_cast<const vmime::exception*>(&x)) {
    std::string m = v->what();
    for (const vmime::exception* o = v->other(); o; o = o->other()) m += ": " + std::string(o->what());
    return m;
  }
  return x.what();
}

// A display name or a subject: one word, encoded whole when it is not ASCII
// (VMime 0.9.2 split into words drops or doubles the spaces between them).
vmime::text NameText(const std::string& s) {
  const bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return vmime::text(vmime::word(s, ascii ? vmime::charset(vmime::charsets::US_ASCII) : vmime::charset(vmime::charsets::UTF_8)));
}

std::string Utf8(const vmime::text& t) { return t.getConvertedText(vmime::charsets::UTF_8); }

std::string Extract(const vmime::contentHandler& c) {
  std::string out;
  vmime::utility::outputStreamStringAdapter os(out);
  c.extract(os);
  return out;
}

// Where a bad key lies in the settings file.
Status Bad(const std::string& path, size_t line, const std::string& key, const std::string& why) {
  return Status::InvalidArgument(path + ":" + std::to_string(line) + ": " + key + ": " + why);
}

}  // namespace

std::string_view ExampleSettings() {
  return R"(# Adjutant's mail account (keep this file private: chmod 600 FILE)
from = Game Administrator <ga@example.org>
# Outbound: SMTP submission with STARTTLS (smtp.tls = tls for port 465)
smtp.host = mail.example.org
smtp.port = 587
smtp.user = ga@example.org
smtp.password_file = /home/ga/.adjutant-mail-password
# Inbound: the account players mail their orders to, read over IMAP
imap.host = mail.example.org
imap.port = 143
imap.user = ga@example.org
imap.password_file = /home/ga/.adjutant-mail-password
imap.folder = INBOX
# Reminders to players who owe orders, this long before each deadline (none if unset)
# remind = 24h, 2h
# The CAs the servers' certificates are checked against (default: the system's)
# ca_file = /etc/ssl/certs/ca-certificates.crt
timeout = 30
)";
}

Result<Settings> ParseSettings(std::string_view text, const std::string& path) {
  Settings s;
  s.path = path;
  std::map<std::string, size_t> seen;
  size_t n = 0;
  std::istringstream in{std::string(text)};
  std::string raw;
  while (std::getline(in, raw)) {
    ++n;
    std::string line = raw;
    if (const size_t hash = line.find('#'); hash != std::string::npos) line = line.substr(0, hash);
    line = Trim(line);
    if (line.empty()) continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) {
      return Status::InvalidArgument(path + ":" + std::to_string(n) + ": '" + line + "' is not `key = value`");
    }
    const std::string key = Lower(Trim(line.substr(0, eq)));
    std::string value = Trim(line.substr(eq + 1));
    if (value.empty()) return Bad(path, n, key, "has no value");
    if (seen.count(key)) return Bad(path, n, key, "given twice (first on line " + std::to_string(seen[key]) + ")");
    seen[key] = n;
    const size_t dot = key.find('.');
    const std::string server = dot == std::string::npos ? "" : key.substr(0, dot);
    const std::string field = dot == std::string::npos ? key : key.substr(dot + 1);
    Endpoint* e = server == "smtp" ? &s.smtp : server == "imap" ? &s.imap : nullptr;
    if (key == "from") {
      if (!ParseMailbox(value, &s.from_name, &s.from_address)) {
        return Bad(path, n, key, "'" + value + "' is not an address (Name <user@host> or user@host)");
      }
    } else if (key == "ca_file") {
      s.ca_file = value;
    } else if (key == "timeout") {
      char* end = nullptr;
      const unsigned long t = std::strtoul(value.c_str(), &end, 10);
      if (*end || t == 0 || t > 3600) return Bad(path, n, key, "'" + value + "' is not a number of seconds (1..3600)");
      s.timeout_seconds = static_cast<uint32_t>(t);
    } else if (key == "remind") {
      s.remind_before.clear();
      size_t at = 0;
      while (at <= value.size()) {
        size_t comma = value.find(',', at);
        if (comma == std::string::npos) comma = value.size();
        std::string one = value.substr(at, comma - at);
        while (!one.empty() && std::isspace(static_cast<unsigned char>(one.front()))) one.erase(0, 1);
        while (!one.empty() && std::isspace(static_cast<unsigned char>(one.back()))) one.pop_back();
        auto d = ParseDuration(one);
        if (!d || *d <= 0) {
          return Bad(path, n, key, "'" + one + "' is not a duration (24h, 2d, 90m; several: 24h, 2h)");
        }
        s.remind_before.push_back(*d);
        at = comma + 1;
      }
      std::sort(s.remind_before.begin(), s.remind_before.end(), std::greater<>());
      s.remind_before.erase(std::unique(s.remind_before.begin(), s.remind_before.end()), s.remind_before.end());
    } else if (key == "imap.folder") {
      s.imap_folder = value;
    } else if (e && field == "host") {
      e->host = value;
    } else if (e && field == "port") {
      char* end = nullptr;
      const unsigned long p = std::strtoul(value.c_str(), &end, 10);
      if (*end || p == 0 || p > 65535) return Bad(path, n, key, "'" + value + "' is not a port");
      e->port = static_cast<uint16_t>(p);
    } else if (e && field == "user") {
      e->user = value;
    } else if (e && field == "password") {
      e->password = value;
      s.holds_password = true;
    } else if (e && field == "password_file") {
      auto pw = ReadFile(value);
      if (!pw.ok()) return Bad(path, n, key, value + " cannot be read");
      const size_t nl = pw->find_first_of("\r\n");
      e->password = pw->substr(0, nl);
      if (e->password.empty()) return Bad(path, n, key, value + " is empty");
    } else if (e && field == "tls") {
      const std::string t = Lower(value);
      if (t == "starttls") {
        e->tls = Tls::kStartTls;
      } else if (t == "tls") {
        e->tls = Tls::kImplicit;
      } else {
        return Bad(path, n, key, "'" + value + "' is not starttls or tls (mail goes only over TLS)");
      }
    } else {
      return Bad(path, n, key, "no such setting (from, smtp.*, imap.*, ca_file, timeout)");
    }
  }
  if (seen.count("smtp.password") && seen.count("smtp.password_file")) {
    return Bad(path, seen["smtp.password_file"], "smtp.password_file", "smtp.password is given too");
  }
  if (seen.count("imap.password") && seen.count("imap.password_file")) {
    return Bad(path, seen["imap.password_file"], "imap.password_file", "imap.password is given too");
  }
  for (auto* e : {&s.smtp, &s.imap}) {
    const std::string server = e == &s.smtp ? "smtp" : "imap";
    if (e->host.empty()) {
      if (seen.count(server + ".user") || seen.count(server + ".port")) {
        return Status::InvalidArgument(path + ": " + server + ".host is missing");
      }
      continue;
    }
    if (e->port == 0) e->port = server == "smtp" ? (e->tls == Tls::kImplicit ? 465 : 587) : (e->tls == Tls::kImplicit ? 993 : 143);
    if (e->user.empty()) return Status::InvalidArgument(path + ": " + server + ".user is missing");
    if (e->password.empty()) {
      return Status::InvalidArgument(path + ": " + server + ".password (or " + server + ".password_file) is missing");
    }
  }
  if (s.smtp.host.empty() && s.imap.host.empty()) {
    return Status::InvalidArgument(path + ": neither smtp.host nor imap.host is set");
  }
  if (!s.smtp.host.empty() && s.from_address.empty()) return Status::InvalidArgument(path + ": from is missing");
  return s;
}

Result<Settings> LoadSettings(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return Status::NotFound("mail settings " + path + " cannot be read");
  auto s = ParseSettings(*text, path);
  if (!s.ok()) return s.status();
  // A password in a file named by it is the GA's to guard; one written in it is ours.
  struct stat st{};
  if (s->holds_password && stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO))) {
    return Status::InvalidArgument("mail settings " + path + " hold a password and others may read them: chmod 600 " +
                                   path);
  }
  return s;
}

std::string Incoming::Header(std::string_view name) const {
  const std::string want = Lower(std::string(name));
  for (const auto& [k, v] : headers) {
    if (Lower(k) == want) return v;
  }
  return "";
}

Result<std::string> Compose(const Settings& s, const Outgoing& m) {
  InitVmime();
  try {
    vmime::messageBuilder mb;
    mb.setExpeditor(vmime::mailbox(NameText(s.from_name), vmime::emailAddress(s.from_address)));
    mb.getRecipients().appendAddress(
        vmime::make_shared<vmime::mailbox>(NameText(m.to_name), vmime::emailAddress(m.to_address)));
    mb.setSubject(NameText(m.subject));
    if (m.html.empty()) {
      mb.getTextPart()->setCharset(vmime::charsets::UTF_8);
      mb.getTextPart()->setText(vmime::make_shared<vmime::stringContentHandler>(m.text));
    } else {
      mb.constructTextPart(vmime::mediaType(vmime::mediaTypes::TEXT, vmime::mediaTypes::TEXT_HTML));
      auto html = vmime::dynamicCast<vmime::htmlTextPart>(mb.getTextPart());
      html->setCharset(vmime::charsets::UTF_8);
      html->setText(vmime::make_shared<vmime::stringContentHandler>(m.html));
      html->setPlainText(vmime::make_shared<vmime::stringContentHandler>(m.text));
    }
    for (const Attachment& a : m.attachments) {
      mb.appendAttachment(vmime::make_shared<vmime::defaultAttachment>(
          vmime::make_shared<vmime::stringContentHandler>(a.bytes), vmime::mediaType(a.media_type), vmime::text(),
          vmime::word(a.name)));
    }
    auto msg = mb.construct();
    auto hdr = msg->getHeader();
    if (!m.message_id.empty()) hdr->MessageId()->setValue(IdOf(m.message_id));
    if (!m.references.empty()) {
      vmime::messageIdSequence parent;
      parent.appendMessageId(vmime::make_shared<vmime::messageId>(IdOf(m.references.back())));
      hdr->InReplyTo()->setValue(parent);
      vmime::messageIdSequence refs;
      for (const auto& r : m.references) refs.appendMessageId(vmime::make_shared<vmime::messageId>(IdOf(r)));
      hdr->References()->setValue(refs);
    }
    for (const auto& [k, v] : m.headers) {
      hdr->appendField(vmime::headerFieldFactory::getInstance()->create(k, v));
    }
    return msg->generate();
  } catch (const std::exception& x) {
    return Status::InvalidArgument("cannot compose the message to " + m.to_address + ": " + What(x));
  }
}

Status Send(const Settings& s, const std::vector<Outgoing>& messages, std::vector<Status>* sent) {
  InitVmime();
  sent->assign(messages.size(), Status::IOError("not sent"));
  if (s.smtp.host.empty()) return Status::InvalidArgument(s.path + ": smtp.host is not set: no mail goes out");
  // Each message as bytes, its headers' words encoded (RFC 2047), and sent
  // as they are: VMime's own send(message) would write UTF-8 headers raw to
  // a server offering SMTPUTF8 and ask for it on every hop, and a hop
  // without it (Dovecot's LMTP, say) bounces the message.
  std::vector<std::optional<std::string>> built(messages.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    auto bytes = Compose(s, messages[i]);
    if (!bytes.ok()) {
      (*sent)[i] = bytes.status();
      continue;
    }
    built[i] = std::move(bytes).value();
  }
  auto verifier = Verifier(s);
  if (!verifier.ok()) return verifier.status();
  const std::string where = "smtp " + s.smtp.host + ":" + std::to_string(s.smtp.port);
  try {
    auto session = vmime::net::session::create();
    auto tr = session->getTransport(
        vmime::utility::url(s.smtp.tls == Tls::kImplicit ? "smtps" : "smtp", s.smtp.host, s.smtp.port));
    Configure(*tr, s, s.smtp, *verifier);
    tr->connect();
    for (size_t i = 0; i < messages.size(); ++i) {
      if (!built[i]) continue;
      try {
        vmime::mailboxList to;
        to.appendMailbox(vmime::make_shared<vmime::mailbox>(vmime::emailAddress(messages[i].to_address)));
        vmime::utility::inputStreamStringAdapter in(*built[i]);
        tr->send(vmime::mailbox(vmime::emailAddress(s.from_address)), to, in, built[i]->size());
        (*sent)[i] = Status::Ok();
      } catch (const vmime::exceptions::connection_error&) {
        throw;
      } catch (const std::exception& x) {
        (*sent)[i] = Status::IOError(where + " refused the message to " + messages[i].to_address + ": " + What(x));
      }
    }
    tr->disconnect();
  } catch (const std::exception& x) {
    for (auto& st : *sent) {
      if (st.code() == Status::Code::kIOError && st.message() == "not sent") st = Status::IOError(where + ": " + What(x));
    }
    return Status::IOError(where + ": " + What(x));
  }
  return Status::Ok();
}

Result<Incoming> Parse(std::string_view raw) {
  InitVmime();
  try {
    auto msg = vmime::make_shared<vmime::message>();
    msg->parse(std::string(raw));
    Incoming in;
    auto hdr = msg->getHeader();
    // What the headers say is the sender's to choose: it is recorded and
    // shown only as text (base/text.h), a stray byte or an escape mended.
    const auto safe = [](std::string_view t) { return SafeText(t, TextRule::kName); };
    for (const auto& f : hdr->getFieldList()) in.headers.emplace_back(f->getName(), f->getValue()->generate());
    if (auto f = hdr->findField(vmime::fields::MESSAGE_ID)) {
      in.message_id = safe(IdText(*vmime::dynamicCast<const vmime::messageId>(f->getValue())));
    }
    if (auto f = hdr->findField(vmime::fields::IN_REPLY_TO)) {
      auto seq = vmime::dynamicCast<const vmime::messageIdSequence>(f->getValue());
      if (seq && seq->getMessageIdCount() > 0) in.in_reply_to = safe(IdText(*seq->getMessageIdAt(0)));
    }
    vmime::messageParser mp(msg);
    if (!mp.getExpeditor().getEmail().isEmpty()) in.from_address = safe(mp.getExpeditor().getEmail().toString());
    in.from_name = safe(Utf8(mp.getExpeditor().getName()));
    in.subject = safe(Utf8(mp.getSubject()));
    std::shared_ptr<const vmime::textPart> first;
    for (const auto& tp : mp.getTextPartList()) {
      if (!first) first = tp;
      if (tp->getType().getSubType() == vmime::mediaTypes::TEXT_PLAIN) {
        first = tp;
        break;
      }
    }
    if (first) {
      std::string bytes = Extract(*first->getText());
      std::string utf8;
      vmime::charset::convert(bytes, utf8, first->getCharset(), vmime::charsets::UTF_8);
      // Lines end in CRLF on the wire; the text is the lines (LF), as written.
      in.text.reserve(utf8.size());
      for (size_t i = 0; i < utf8.size(); ++i) {
        if (utf8[i] == '\r' && i + 1 < utf8.size() && utf8[i + 1] == '\n') continue;
        in.text.push_back(utf8[i]);
      }
    }
    for (const auto& a : mp.getAttachmentList()) {
      in.attachments.push_back({safe(a->getName().getConvertedText(vmime::charsets::UTF_8)),
                                safe(a->getType().generate()), Extract(*a->getData())});
    }
    return in;
  } catch (const std::exception& x) {
    return Status::InvalidArgument("the message cannot be read: " + What(x));
  }
}

namespace {

uint64_t UidNumber(const std::string& uid) {
  const size_t colon = uid.rfind(':');
  const std::string digits = colon == std::string::npos ? uid : uid.substr(colon + 1);
  return std::strtoull(digits.c_str(), nullptr, 10);
}

template <class F>
Status WithFolder(const Settings& s, int mode, F&& f) {
  InitVmime();
  if (s.imap.host.empty()) return Status::InvalidArgument(s.path + ": imap.host is not set: no mail comes in");
  auto verifier = Verifier(s);
  if (!verifier.ok()) return verifier.status();
  const std::string where = "imap " + s.imap.host + ":" + std::to_string(s.imap.port);
  try {
    auto session = vmime::net::session::create();
    auto st = session->getStore(
        vmime::utility::url(s.imap.tls == Tls::kImplicit ? "imaps" : "imap", s.imap.host, s.imap.port));
    Configure(*st, s, s.imap, *verifier);
    st->connect();
    auto folder = st->getFolder(vmime::net::folder::path(vmime::net::folder::path::component(s.imap_folder)));
    folder->open(mode);
    Status r = f(*folder);
    folder->close(false);
    st->disconnect();
    return r;
  } catch (const std::exception& x) {
    return Status::IOError(where + ": " + What(x));
  }
}

}  // namespace

Result<std::vector<Incoming>> Fetch(const Settings& s, bool unseen) {
  std::vector<Incoming> out;
  Status r = WithFolder(s, vmime::net::folder::MODE_READ_ONLY, [&](vmime::net::folder& f) -> Status {
    if (f.getMessageCount() == 0) return Status::Ok();
    auto msgs = f.getMessages(vmime::net::messageSet::byNumber(1, f.getMessageCount()));
    f.fetchMessages(msgs, vmime::net::fetchAttributes(vmime::net::fetchAttributes::FLAGS |
                                                      vmime::net::fetchAttributes::UID));
    for (auto& m : msgs) {
      if (unseen && (m->getFlags() & vmime::net::message::FLAG_SEEN)) continue;
      std::string raw;
      vmime::utility::outputStreamStringAdapter os(raw);
      m->extract(os, nullptr, 0, static_cast<size_t>(-1), /*peek=*/true);
      auto in = Parse(raw);
      if (!in.ok()) {
        Incoming bad;
        bad.uid = UidNumber(m->getUID());
        bad.error = in.status().message();
        out.push_back(std::move(bad));
        continue;
      }
      in->uid = UidNumber(m->getUID());
      out.push_back(std::move(in).value());
    }
    std::stable_sort(out.begin(), out.end(), [](const Incoming& a, const Incoming& b) { return a.uid < b.uid; });
    return Status::Ok();
  });
  if (!r.ok()) return r;
  return out;
}

Status MarkSeen(const Settings& s, const std::vector<uint64_t>& uids) {
  if (uids.empty()) return Status::Ok();
  return WithFolder(s, vmime::net::folder::MODE_READ_WRITE, [&](vmime::net::folder& f) -> Status {
    std::vector<vmime::net::message::uid> set;
    for (uint64_t u : uids) set.emplace_back(static_cast<unsigned long>(u));
    f.setMessageFlags(vmime::net::messageSet::byUID(set), vmime::net::message::FLAG_SEEN,
                      vmime::net::message::FLAG_MODE_ADD);
    return Status::Ok();
  });
}

}  // namespace adjutant::mail
