#include "cli/socket.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <thread>

#include <boost/asio.hpp>

namespace adjutant::cli {
namespace {

namespace net = boost::asio;
using local = net::local::stream_protocol;

constexpr uint32_t kVersion = 2;  // 2: the files the client made
constexpr size_t kHeaderBytes = 8;
constexpr char kRequestMagic[] = "ADJQ";
constexpr char kAnswerMagic[] = "ADJA";
// What a client takes from the server it trusts, at most.
constexpr size_t kClientAnswerBytesMax = size_t{1} << 30;
constexpr uint32_t kArgsMax = 10000, kFilesMax = 1000;

void PutU32(std::string& s, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) s += static_cast<char>((v >> shift) & 0xff);
}
void PutStr(std::string& s, std::string_view v) {
  PutU32(s, static_cast<uint32_t>(v.size()));
  s.append(v);
}
uint32_t GetU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

struct Reader {
  std::string_view rest;
  bool U32(uint32_t* v) {
    if (rest.size() < 4) return false;
    *v = GetU32(rest.data());
    rest.remove_prefix(4);
    return true;
  }
  bool Str(std::string* s) {
    uint32_t n = 0;
    if (!U32(&n) || rest.size() < n) return false;
    s->assign(rest.substr(0, n));
    rest.remove_prefix(n);
    return true;
  }
};

std::string Frame(const char* magic, const std::string& payload) {
  std::string f(magic, 4);
  PutU32(f, static_cast<uint32_t>(payload.size()));
  return f + payload;
}

Result<uid_t> PeerUid(int fd) {
  ucred cred{};
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
    return Status::IOError(std::string("cannot tell who is at the other end of the socket: ") + std::strerror(errno));
  }
  return cred.uid;
}

}  // namespace

std::string SocketPath(const std::string& db_dir) { return db_dir + "/adjutant.sock"; }

std::string EncodeRequest(const SocketRequest& r) {
  std::string p;
  PutU32(p, kVersion);
  PutU32(p, static_cast<uint32_t>(r.argv.size()));
  for (const auto& a : r.argv) PutStr(p, a);
  PutU32(p, static_cast<uint32_t>(r.files.size()));
  for (const auto& [name, bytes] : r.files) {
    PutStr(p, name);
    PutStr(p, bytes);
  }
  PutU32(p, r.password ? 1 : 0);
  if (r.password) PutStr(p, *r.password);
  PutU32(p, static_cast<uint32_t>(r.made.size()));
  for (const auto& name : r.made) PutStr(p, name);
  return Frame(kRequestMagic, p);
}

Result<SocketRequest> DecodeRequest(std::string_view payload) {
  const auto bad = [](const std::string& what) { return Status::InvalidArgument("a malformed request: " + what); };
  Reader in{payload};
  SocketRequest r;
  uint32_t version = 0, n = 0;
  if (!in.U32(&version) || version != kVersion) return bad("version " + std::to_string(version) + ", not " + std::to_string(kVersion));
  if (!in.U32(&n) || n == 0 || n > kArgsMax) return bad("its number of arguments");
  r.argv.resize(n);
  for (auto& a : r.argv) if (!in.Str(&a)) return bad("an argument");
  if (!in.U32(&n) || n > kFilesMax) return bad("its number of files");
  for (uint32_t i = 0; i < n; ++i) {
    std::string name, bytes;
    if (!in.Str(&name) || !in.Str(&bytes)) return bad("a file");
    r.files[name] = std::move(bytes);
  }
  uint32_t has_password = 0;
  if (!in.U32(&has_password) || has_password > 1) return bad("its password flag");
  if (has_password) {
    std::string pw;
    if (!in.Str(&pw)) return bad("its password");
    r.password = std::move(pw);
  }
  if (!in.U32(&n) || n > kFilesMax) return bad("its number of files made");
  for (uint32_t i = 0; i < n; ++i) {
    std::string name;
    if (!in.Str(&name) || !r.files.count(name)) return bad("a file made that it does not send");
    r.made.insert(std::move(name));
  }
  if (!in.rest.empty()) return bad(std::to_string(in.rest.size()) + " bytes after its end");
  return r;
}

std::string EncodeAnswer(const SocketAnswer& a) {
  std::string p;
  PutU32(p, kVersion);
  PutU32(p, static_cast<uint32_t>(a.code));
  PutStr(p, a.out);
  PutStr(p, a.err);
  return Frame(kAnswerMagic, p);
}

Result<SocketAnswer> DecodeAnswer(std::string_view payload) {
  Reader in{payload};
  SocketAnswer a;
  uint32_t version = 0, code = 0;
  if (!in.U32(&version) || version != kVersion || !in.U32(&code) || code > 255 || !in.Str(&a.out) ||
      !in.Str(&a.err) || !in.rest.empty()) {
    return Status::IOError("a malformed answer from the order desk");
  }
  a.code = static_cast<int>(code);
  return a;
}

Status CheckPeer(uid_t peer, uid_t own) {
  if (peer != own) {
    return Status::InvalidArgument("the other end of the socket is uid " + std::to_string(peer) + ", not uid " +
                                   std::to_string(own) + ": refused");
  }
  return Status::Ok();
}

Status CheckSocketFile(const std::string& path, uid_t own) {
  struct stat st{};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::NotFound("no order desk socket at " + path);
    return Status::IOError(path + ": " + std::strerror(errno));
  }
  if (!S_ISSOCK(st.st_mode)) return Status::InvalidArgument(path + " is not a socket: not trusted");
  if (st.st_uid != own) {
    return Status::InvalidArgument(path + " belongs to uid " + std::to_string(st.st_uid) + ", not to uid " +
                                   std::to_string(own) + ": not trusted");
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return Status::InvalidArgument(path + " is open to other users (mode " + mode + "): not trusted");
  }
  return Status::Ok();
}

// ---- the server --------------------------------------------------------------

struct SocketServer::Impl {
  std::string path;
  SocketSettings settings;
  SocketHandler handler;
  std::atomic<size_t> open{0};
  std::atomic<size_t> answering{0};  // connections whose command has been handed to the handler
  uid_t own = geteuid();
  ino_t inode = 0;  // of the socket file made, removed at the end only if still there
  std::atomic<bool> stopped{false};
  // Destroyed first: the connections its handlers hold touch the members above.
  net::io_context ioc;
  local::acceptor acceptor{ioc};
  // Keeps the loop running while a command is out with the handler and
  // nothing else is pending (once Stop has closed the acceptor).
  net::executor_work_guard<net::io_context::executor_type> work = net::make_work_guard(ioc);
  std::thread thread;

  void Accept();
};

namespace {

struct Conn : std::enable_shared_from_this<Conn> {
  SocketServer::Impl& server;
  local::socket sock;
  net::steady_timer timer;
  char header[kHeaderBytes];
  std::string payload, answer;

  bool handed = false;  // to the handler: counted in server.answering until the answer is written

  Conn(SocketServer::Impl& s, local::socket so) : server(s), sock(std::move(so)), timer(server.ioc) { ++server.open; }
  ~Conn() {
    --server.open;
    if (handed) --server.answering;
  }

  // A half-open or slow client is closed after the timeout; the others go on.
  void Deadline() {
    timer.expires_after(std::chrono::seconds(server.settings.timeout_s));
    timer.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (!ec) {
        boost::system::error_code ignored;
        self->sock.close(ignored);
      }
    });
  }

  void Start() {
    Deadline();
    net::async_read(sock, net::buffer(header), [self = shared_from_this()](boost::system::error_code ec, size_t) {
      if (!ec) self->OnHeader();
      else self->timer.cancel();  // the client went: nothing holds the connection
    });
  }

  void OnHeader() {
    if (std::memcmp(header, kRequestMagic, 4) != 0) return Answer({2, "", "not an adjutant request"});
    const uint32_t n = GetU32(header + 4);
    if (n > server.settings.max_request_bytes) {
      return Answer({2, "", "the request of " + std::to_string(n) + " bytes is over the limit of " +
                                std::to_string(server.settings.max_request_bytes) +
                                " bytes (adjutant serve --socket-max-bytes)"});
    }
    payload.resize(n);
    net::async_read(sock, net::buffer(payload), [self = shared_from_this()](boost::system::error_code ec, size_t) {
      if (!ec) self->OnPayload();
      else self->timer.cancel();
    });
  }

  void OnPayload() {
    auto rq = DecodeRequest(payload);
    payload.clear();
    if (!rq.ok()) return Answer({2, "", rq.status().message()});
    timer.cancel();  // the command may take long: only the exchange is timed
    handed = true;
    ++server.answering;
    auto self = shared_from_this();
    server.handler(std::move(rq).value(), [self](SocketAnswer a) {
      net::post(self->server.ioc, [self, a = std::move(a)]() mutable { self->Answer(std::move(a)); });
    });
  }

  void Answer(SocketAnswer a) {
    if (a.out.size() > server.settings.max_answer_bytes) {
      a = {5, "", "the output of " + std::to_string(a.out.size()) + " bytes is over the limit of " +
                      std::to_string(server.settings.max_answer_bytes) + " bytes (adjutant serve --max-answer-bytes)"};
    }
    answer = EncodeAnswer(a);
    Deadline();
    net::async_write(sock, net::buffer(answer), [self = shared_from_this()](boost::system::error_code, size_t) {
      if (self->handed) {
        self->handed = false;
        --self->server.answering;
      }
      boost::system::error_code ignored;
      self->sock.shutdown(local::socket::shutdown_both, ignored);
      self->sock.close(ignored);
      self->timer.cancel();
    });
  }
};

}  // namespace

void SocketServer::Impl::Accept() {
  acceptor.async_accept([this](boost::system::error_code ec, local::socket sock) {
    if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
    if (!ec) {
      auto peer = PeerUid(sock.native_handle());
      // Another user is never served (the socket's mode keeps him out too).
      if (peer.ok() && CheckPeer(*peer, own).ok() && open < settings.max_connections) {
        std::make_shared<Conn>(*this, std::move(sock))->Start();
      } else {
        boost::system::error_code ignored;
        sock.close(ignored);
      }
    }
    Accept();
  });
}

SocketServer::SocketServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

SocketServer::~SocketServer() { Stop(); }

void SocketServer::Stop() {
  Impl* raw = impl_.get();
  if (raw->stopped.exchange(true)) return;
  net::post(raw->ioc, [raw] {
    boost::system::error_code ignored;
    raw->acceptor.close(ignored);
  });
  // A command already handed over is answered first (for --socket-timeout
  // at most: one whose answer never comes does not hold the stop).
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(raw->settings.timeout_s);
  while (raw->answering > 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  net::post(raw->ioc, [raw] { raw->ioc.stop(); });
  if (raw->thread.joinable()) raw->thread.join();
  struct stat st{};
  if (lstat(raw->path.c_str(), &st) == 0 && st.st_ino == raw->inode) ::unlink(raw->path.c_str());
}

Result<std::unique_ptr<SocketServer>> SocketServer::Start(const std::string& path, const SocketSettings& settings,
                                                          SocketHandler handler) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->settings = settings;
  impl->handler = std::move(handler);
  if (path.size() >= sizeof(sockaddr_un::sun_path)) {
    return Status::InvalidArgument(path + ": a socket path has at most " +
                                   std::to_string(sizeof(sockaddr_un::sun_path) - 1) + " bytes");
  }
  struct stat st{};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) return Status::InvalidArgument(path + " exists and is not a socket: not replaced");
    // A socket file: another server's if one answers on it, else a stale one
    // a killed server left, replaced.
    net::io_context probe_io;
    local::socket probe(probe_io);
    boost::system::error_code ec;
    probe.connect(local::endpoint(path), ec);
    if (!ec) return Status::Busy("a server already answers on " + path);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return Status::IOError(path + ": cannot remove the stale socket: " + std::strerror(errno));
    }
  }
  boost::system::error_code ec;
  impl->acceptor.open(local(), ec);
  if (!ec) {
    // Owner-only from its creation: no moment at which another user may connect.
    const mode_t before = ::umask(0177);
    impl->acceptor.bind(local::endpoint(path), ec);
    ::umask(before);
  }
  if (!ec && ::chmod(path.c_str(), 0600) != 0) ec = boost::system::error_code(errno, boost::system::system_category());
  if (!ec) impl->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return Status::IOError(path + ": cannot listen: " + ec.message());
  if (lstat(path.c_str(), &st) == 0) impl->inode = st.st_ino;
  Impl* raw = impl.get();
  raw->Accept();
  raw->thread = std::thread([raw] { raw->ioc.run(); });
  return std::unique_ptr<SocketServer>(new SocketServer(std::move(impl)));
}

// ---- the client --------------------------------------------------------------

Result<SocketAnswer> AskServer(const std::string& path, const SocketRequest& r, std::chrono::milliseconds wait) {
  const uid_t own = geteuid();
  ADJ_RETURN_IF_ERROR(CheckSocketFile(path, own));
  net::io_context io;
  local::socket sock(io);
  boost::system::error_code ec;
  sock.connect(local::endpoint(path), ec);
  if (ec == net::error::connection_refused || ec == net::error::not_found) {
    return Status::NotFound("no order desk answers on " + path);
  }
  if (ec) return Status::IOError(path + ": " + ec.message());
  auto peer = PeerUid(sock.native_handle());
  if (!peer.ok()) return peer.status();
  ADJ_RETURN_IF_ERROR(CheckPeer(*peer, own));
  // The exchange runs on the io_context for `wait` at most. A refused
  // request is answered before the server has read it all: the answer is
  // read whatever became of the writing.
  const std::string request = EncodeRequest(r);
  char header[kHeaderBytes];
  std::string payload;
  Status result = Status::IOError("the order desk on " + path + " closed the connection without an answer");
  std::optional<SocketAnswer> answer;
  net::async_write(sock, net::buffer(request), [](boost::system::error_code, size_t) {});
  net::async_read(sock, net::buffer(header), [&](boost::system::error_code rec, size_t) {
    if (rec) return;
    if (std::memcmp(header, kAnswerMagic, 4) != 0) {
      result = Status::IOError(path + ": not an adjutant order desk");
      return;
    }
    const uint32_t n = GetU32(header + 4);
    if (n > kClientAnswerBytesMax) {
      result = Status::IOError(path + ": an answer of " + std::to_string(n) + " bytes");
      return;
    }
    payload.resize(n);
    result = Status::IOError("the order desk on " + path + " closed the connection mid-answer");
    net::async_read(sock, net::buffer(payload), [&](boost::system::error_code pec, size_t) {
      if (pec) return;
      auto a = DecodeAnswer(payload);
      if (a.ok()) answer = std::move(a).value();
      else result = a.status();
    });
  });
  io.run_for(wait);
  if (answer) return std::move(*answer);
  if (!io.stopped()) {
    // The wait ran out with the exchange still open.
    boost::system::error_code ignored;
    sock.close(ignored);
    return Status::Busy("the order desk on " + path + " gave no answer within " +
                        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(wait).count()) +
                        " s (adjutant --server-wait S waits longer); the command may still be running there: "
                        "see adjutant log before sending it again");
  }
  return result;
}

}  // namespace adjutant::cli
