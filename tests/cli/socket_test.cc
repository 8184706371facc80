// The CLI while `adjutant serve` holds the database: the built binary's
// writes go to the running desk over its Unix socket (cli/socket.h), the
// files they name read by the command, never by the server; the socket is
// owner-only, a stale one is replaced, a bad or slow client harms no other.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "support/build_paths.h"
#include "cli/socket.h"
#include "ledger/ledger.h"
#include "support/run.h"
#include "support/serve.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::AdjutantFrom;
using adjutant::testing::AdjutantWithInput;
using adjutant::testing::Run;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;
using adjutant::testing::Serve;

namespace {

const std::string F = ADJUTANT_FIXTURES;

struct Talavera {
  TempDir dir;
  std::string db = dir.Sub("db");
  Talavera() {
    Run r = Adjutant({"--db", db, "new", "talavera", "--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"});
    INFO(r.err);
    REQUIRE(r.code == 0);
  }
  Run adj(std::vector<std::string> args, const std::optional<std::string>& input = std::nullopt) {
    args.insert(args.begin(), {"--db", db});
    return AdjutantWithInput(args, input);
  }
  // Lines of the game's log that contain `what`.
  size_t Count(const std::string& what) {
    Run r = adj({"log", "talavera"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    size_t n = 0;
    for (const auto& line : testing::Lines(r.out)) n += line.find(what) != std::string::npos;
    return n;
  }
};

// A raw connection to the socket (a client that misbehaves).
int Connect(const std::string& path) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  return fd;
}

std::string ReadAll(int fd) {
  timeval tv{60, 0};  // bounds a hang only
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;) got.append(buf, static_cast<size_t>(n));
  return got;
}

}  // namespace

TEST_CASE("socket: requests and answers survive the wire — malformed ones are refused", "[cli][socket]") {
  cli::SocketRequest r;
  r.argv = {"order", "talavera", "o.json", "--as", "victor"};
  r.files = {{"o.json", std::string("{\0}", 3)}, {"-", ""}};
  r.password = "secret";
  r.made = {"o.json"};
  const std::string frame = cli::EncodeRequest(r);
  REQUIRE(frame.substr(0, 4) == "ADJQ");
  auto back = cli::DecodeRequest(std::string_view(frame).substr(8));
  REQUIRE(back.ok());
  CHECK(back->argv == r.argv);
  CHECK(back->files == r.files);
  CHECK(back->password == r.password);
  CHECK(back->made == r.made);
  // A file said to be made that is not sent is refused.
  cli::SocketRequest odd = r;
  odd.made = {"elsewhere.json"};
  auto refused = cli::DecodeRequest(cli::EncodeRequest(odd).substr(8));
  CHECK_THAT(refused.status().message(), Catch::Contains("a file made that it does not send"));
  // Every truncation, and a byte too many, is refused.
  const std::string payload = frame.substr(8);
  for (size_t n = 0; n < payload.size(); ++n) CHECK_FALSE(cli::DecodeRequest(std::string_view(payload).substr(0, n)).ok());
  CHECK_FALSE(cli::DecodeRequest(payload + "x").ok());
  const std::string answer = cli::EncodeAnswer({4, "out", "err"});
  auto a = cli::DecodeAnswer(std::string_view(answer).substr(8));
  REQUIRE(a.ok());
  CHECK(a->code == 4);
  CHECK(a->out == "out");
  CHECK(a->err == "err");
}

TEST_CASE("socket: only the server's own user: the peer's uid and the socket file's owner and mode", "[cli][socket]") {
  CHECK(cli::CheckPeer(1000, 1000).ok());
  auto other = cli::CheckPeer(1001, 1000);
  CHECK_FALSE(other.ok());
  CHECK_THAT(other.message(), Catch::Contains("uid 1001, not uid 1000"));

  TempDir dir;
  const std::string path = dir.Sub("s.sock");
  CHECK(cli::CheckSocketFile(path, geteuid()).code() == Status::Code::kNotFound);
  std::ofstream(dir.Sub("plain")) << "x";
  CHECK_THAT(cli::CheckSocketFile(dir.Sub("plain"), geteuid()).message(), Catch::Contains("is not a socket"));
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(chmod(path.c_str(), 0666) == 0);
  CHECK_THAT(cli::CheckSocketFile(path, geteuid()).message(), Catch::Contains("open to other users (mode 0666)"));
  REQUIRE(chmod(path.c_str(), 0600) == 0);
  CHECK(cli::CheckSocketFile(path, geteuid()).ok());
  CHECK_THAT(cli::CheckSocketFile(path, geteuid() + 1).message(), Catch::Contains("belongs to uid"));
  close(fd);
}

TEST_CASE("socket: the CLI works while adjutant serve holds the database", "[cli][socket]") {
  Talavera t;
  Serve serve(t.db, t.dir.Sub("serve.out"));
  REQUIRE(serve.Ready());
  const std::string sock = cli::SocketPath(t.db);
  struct stat st{};
  REQUIRE(lstat(sock.c_str(), &st) == 0);
  CHECK(S_ISSOCK(st.st_mode));
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(st.st_uid == geteuid());

  // Without the desk: the database is busy, as before.
  Run direct = t.adj({"--no-server", "ruling", "talavera", "--reason", "r", "--text", "t"});
  CHECK(direct.code == 5);
  CHECK_THAT(direct.err, Catch::Contains("in use by another adjutant process"));

  // Reads.
  Run games = t.adj({"games"});
  CHECK(games.code == 0);
  CHECK_THAT(games.out, Catch::Contains("talavera  1 branch"));

  // A password on standard input, then another from a file named relative
  // to the command's own directory (not the server's).
  Run pw = t.adj({"password", "talavera", "--person", "wellesley", "--password-file", "-"}, "wellesley-1809\n");
  INFO(pw.err);
  CHECK(pw.code == 0);
  CHECK_THAT(pw.out, Catch::StartsWith("password set for wellesley in talavera/main"));
  std::filesystem::create_directories(t.dir.Sub("ga"));
  std::ofstream(t.dir.Sub("ga/victor.pw")) << "victor-1809\n";
  Run pw2 = AdjutantFrom(t.dir.Sub("ga"), {"--db", t.db, "password", "talavera", "--person", "victor", "--password-file",
                                           "victor.pw"});
  INFO(pw2.err);
  CHECK(pw2.code == 0);
  CHECK(t.Count("SetPassword") == 2);

  // A player's orders from a relative path, with the password in the environment.
  std::filesystem::copy_file(F + "/orders/dog-talavera/m1-French.orders.json", t.dir.Sub("ga/m1.json"));
  Run order = AdjutantFrom(t.dir.Sub("ga"), {"--db", t.db, "order", "talavera", "m1.json", "--as", "victor"},
                           std::nullopt, {"ADJUTANT_PASSWORD=victor-1809"});
  INFO(order.err);
  CHECK(order.code == 0);
  CHECK_THAT(order.out, Catch::Contains("from victor for turn"));
  // A wrong password: the desk's answer, its exit status.
  Run wrong = AdjutantFrom(t.dir.Sub("ga"), {"--db", t.db, "order", "talavera", "m1.json", "--as", "victor"},
                           std::nullopt, {"ADJUTANT_PASSWORD=not-his"});
  CHECK(wrong.code == 2);
  CHECK(wrong.err == "adjutant order: wrong person or password for game 'talavera'\n");

  // A directive file, relative.
  std::ofstream(t.dir.Sub("ga/d.json"))
      << R"({"reason": "test", "body_type": "DogDirective", "body": {"body_type": "DogCommanderKilled", "body": {"commander": "BR-HILL"}}})";
  Run d = AdjutantFrom(t.dir.Sub("ga"), {"--db", t.db, "directive", "talavera", "d.json"});
  INFO(d.err);
  CHECK(d.code == 0);
  CHECK_THAT(d.out, Catch::StartsWith("recorded directive from d.json on talavera/main"));
  Run missing = AdjutantFrom(t.dir.Sub("ga"), {"--db", t.db, "directive", "talavera", "nowhere.json"});
  CHECK(missing.code == 2);
  CHECK(missing.err == "adjutant directive: nowhere.json: cannot open file\n");

  // A new game, its scenario read by the command.
  Run created = t.adj({"new", "second", "--scenario", F + "/scenarios/nwol-1805.json", "--seed", "7"});
  INFO(created.err);
  CHECK(created.code == 0);
  CHECK_THAT(t.adj({"games"}).out, Catch::Contains("second  1 branch"));

  // A dice commitment whose fresh salt file the command writes beside itself.
  Run commit = AdjutantFrom(t.dir.Sub("ga"), {"--db", t.db, "dice-commit", "second", "--turn", "1805.1.1",
                                              "--salt-file", "salt"});
  INFO(commit.err);
  CHECK(commit.code == 0);
  CHECK_THAT(commit.out, Catch::Contains("the salt is in salt (new): keep it secret"));
  CHECK(std::filesystem::exists(t.dir.Sub("ga/salt")));
  // The same file again is not new (nor is the desk told it is).
  Run commit2 = AdjutantFrom(t.dir.Sub("ga"), {"--db", t.db, "dice-commit", "second", "--turn", "1805.1.2",
                                               "--salt-file", "salt"});
  INFO(commit2.err);
  CHECK(commit2.code == 0);
  CHECK_THAT(commit2.out, Catch::Contains("the salt is in salt: keep it secret"));

  // What must not run through the desk says so.
  Run again = t.adj({"serve", "--listen", "127.0.0.1:0"});
  CHECK(again.code == 5);
  CHECK_THAT(again.err, Catch::Contains("stop the order desk"));
  Run backup = t.adj({"backup", "--to", t.dir.Sub("bk")});
  CHECK(backup.code == 5);
  CHECK_THAT(backup.err, Catch::Contains("or stop it and run this again"));
  CHECK_FALSE(std::filesystem::exists(t.dir.Sub("bk")));

  CHECK(serve.Stop() == 0);
  CHECK_FALSE(std::filesystem::exists(sock));  // removed on the way out
  // Everything landed in the ledger.
  CHECK(t.Count("SetPassword") == 2);
  CHECK(t.Count("Directive") == 3);  // two passwords, a commander killed
  CHECK(t.Count("OrderSubmitted") == 10);
}

TEST_CASE("socket: the desk reads no file a request names and writes none", "[cli][socket]") {
  Talavera t;
  Serve serve(t.db, t.dir.Sub("serve.out"));
  REQUIRE(serve.Ready());
  const std::string sock = cli::SocketPath(t.db);
  std::ofstream(t.dir.Sub("d.json"))
      << R"({"reason": "test", "body_type": "DogDirective", "body": {"body_type": "DogCommanderKilled", "body": {"commander": "BR-HILL"}}})";
  // A request naming a file it did not send: the server does not open it.
  auto a = cli::AskServer(sock, {{"directive", "talavera", t.dir.Sub("d.json")}, {}, {}, {}});
  REQUIRE(a.ok());
  CHECK(a->code == 2);
  CHECK_THAT(a->err, Catch::Contains("the order desk reads no file"));
  // Nor makes one (dice-commit writes a fresh salt file where there is none).
  REQUIRE(t.adj({"new", "second", "--scenario", F + "/scenarios/nwol-1805.json", "--seed", "7"}).code == 0);
  auto b = cli::AskServer(
      sock, {{"dice-commit", "second", "--turn", "1805.1.1", "--salt-file", t.dir.Sub("salt")}, {}, {}, {}});
  REQUIRE(b.ok());
  CHECK(b->code == 2);
  CHECK_THAT(b->err, Catch::Contains("the order desk writes no file"));
  CHECK_FALSE(std::filesystem::exists(t.dir.Sub("salt")));
  // Nor takes a password from its own environment or terminal.
  auto c = cli::AskServer(sock, {{"password", "talavera", "--person", "victor"}, {}, {}, {}});
  REQUIRE(c.ok());
  CHECK(c->code == 2);
  CHECK_THAT(c->err, Catch::Contains("no password"));
  // Nor runs what must not run through it.
  for (const std::vector<std::string>& argv :
       std::vector<std::vector<std::string>>{{"serve"}, {"backup", "--to", t.dir.Sub("bk")}, {"conform", t.dir.Sub("x")},
                                             {"restore", "--from", t.dir.Sub("bk"), "--to", t.dir.Sub("r")}}) {
    auto r = cli::AskServer(sock, {argv, {}, {}, {}});
    REQUIRE(r.ok());
    INFO(argv[0]);
    CHECK(r->code == 2);
    CHECK_THAT(r->err, Catch::Contains("not through the order desk"));
  }
  // The file sent with the request is what is read.
  auto ok = cli::AskServer(sock, {{"directive", "talavera", "d.json"}, {{"d.json", Slurp(t.dir.Sub("d.json"))}}, {}, {}});
  REQUIRE(ok.ok());
  INFO(ok->err);
  CHECK(ok->code == 0);
}

TEST_CASE("socket: an oversized request is refused, unread, and the desk goes on", "[cli][socket]") {
  Talavera t;
  Serve serve(t.db, t.dir.Sub("serve.out"), {"--socket-max-bytes", "4096", "--socket-timeout", "600"});
  REQUIRE(serve.Ready());
  const std::string sock = cli::SocketPath(t.db);
  // A header announcing more than the limit: answered, closed, nothing read.
  int big = Connect(sock);
  const char header[] = {'A', 'D', 'J', 'Q', 0, 0, 0x10, 0x01};
  REQUIRE(send(big, header, sizeof header, MSG_NOSIGNAL) == sizeof header);
  const std::string refused = ReadAll(big);
  close(big);
  REQUIRE(refused.size() > 8);
  auto ans = cli::DecodeAnswer(std::string_view(refused).substr(8));
  REQUIRE(ans.ok());
  CHECK(ans->code == 2);
  CHECK_THAT(ans->err, Catch::Contains("request of 4097 bytes is over the limit of 4096 bytes (adjutant serve --socket-max-bytes)"));
  // Through the command: a file over the limit.
  std::ofstream(t.dir.Sub("big.json"))
      << std::string(8000, ' ')
      << R"({"reason": "test", "body_type": "DogDirective", "body": {"body_type": "DogCommanderKilled", "body": {"commander": "BR-HILL"}}})";
  Run r = t.adj({"directive", "talavera", t.dir.Sub("big.json")});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("over the limit of 4096 bytes"));
  // The desk still serves.
  Run ruling = t.adj({"ruling", "talavera", "--reason", "after", "--text", "the big one"});
  INFO(ruling.err);
  CHECK(ruling.code == 0);
  CHECK(serve.Stop() == 0);
}

TEST_CASE("socket: clients that stall mid-request block no other", "[cli][socket]") {
  Talavera t;
  Serve serve(t.db, t.dir.Sub("serve.out"), {"--socket-timeout", "600"});
  REQUIRE(serve.Ready());
  const std::string sock = cli::SocketPath(t.db);
  const char header[] = {'A', 'D', 'J', 'Q', 0, 0, 0x10, 0x01};
  // Two clients that stall mid-request (the timeout is long) while others are served.
  int stalled = Connect(sock);
  REQUIRE(send(stalled, "ADJ", 3, MSG_NOSIGNAL) == 3);
  int stalled2 = Connect(sock);
  REQUIRE(send(stalled2, header, 6, MSG_NOSIGNAL) == 6);
  // The commands run in a thread: a generous deadline bounds a hang (then
  // the server is killed, which ends them).
  auto rulings = std::async(std::launch::async, [&] {
    int ok = 0;
    for (int i = 0; i < 3; ++i) {
      ok += t.adj({"ruling", "talavera", "--reason", "r" + std::to_string(i), "--text", "t"}).code == 0;
    }
    return ok;
  });
  if (rulings.wait_for(std::chrono::seconds(120)) != std::future_status::ready) serve.Stop(SIGKILL);
  CHECK(rulings.get() == 3);
  close(stalled);
  close(stalled2);
  CHECK(t.Count(" because \"r") == 3);
  CHECK(serve.Stop() == 0);  // still running
}

TEST_CASE("socket: a client that stalls is closed after --socket-timeout", "[cli][socket]") {
  Talavera t;
  Serve serve(t.db, t.dir.Sub("serve.out"), {"--socket-timeout", "1"});
  REQUIRE(serve.Ready());
  int stalled = Connect(cli::SocketPath(t.db));
  REQUIRE(send(stalled, "ADJQ", 4, MSG_NOSIGNAL) == 4);
  timeval tv{60, 0};  // bounds a hang only
  setsockopt(stalled, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char c;
  CHECK(recv(stalled, &c, 1, 0) == 0);  // closed by the server, no answer (not our 60 s running out)
  close(stalled);
  CHECK(serve.Stop() == 0);
}

TEST_CASE("socket: a server stopping answers the command it already runs", "[cli][socket]") {
  TempDir dir;
  const std::string path = dir.Sub("s.sock");
  std::mutex mu;
  std::condition_variable cv;
  std::function<void(cli::SocketAnswer)> pending;
  cli::SocketSettings settings;
  settings.timeout_s = 600;  // bounds a hang only
  auto server = cli::SocketServer::Start(path, settings, [&](cli::SocketRequest rq, std::function<void(cli::SocketAnswer)> reply) {
    std::lock_guard<std::mutex> lock(mu);
    pending = std::move(reply);
    cv.notify_all();
  });
  REQUIRE(server.ok());
  auto asked = std::async(std::launch::async, [&] { return cli::AskServer(path, {{"ruling", "g"}, {}, {}, {}}); });
  {
    std::unique_lock<std::mutex> lock(mu);
    REQUIRE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return pending != nullptr; }));
  }
  auto stopping = std::async(std::launch::async, [&] { (*server)->Stop(); });
  // Once it accepts no more, the command's answer comes.
  bool closed = false;
  for (int i = 0; i < 6000 && !closed; ++i) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    closed = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0;
    close(fd);
    if (!closed) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(closed);
  pending({0, "recorded\n", ""});
  // A generous deadline bounds a hang: then the server and the connection go.
  if (asked.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    stopping.get();
    pending = nullptr;
    (*server).reset();
  }
  auto answer = asked.get();
  REQUIRE(answer.ok());
  CHECK(answer->out == "recorded\n");
  if (stopping.valid()) stopping.get();
  CHECK_FALSE(std::filesystem::exists(path));
  // The reply holds its connection, which lives on the server's context: it
  // goes before the server does (cli/socket.h).
  pending = nullptr;
  (*server).reset();
}

TEST_CASE("socket: a desk that never answers does not hang the command line (--server-wait)", "[cli][socket]") {
  Talavera t;
  // The database held by another process's lock (here: this one's), and on
  // its socket a listener that takes connections and never answers: a
  // stopped or wedged desk.
  auto held = ledger::Ledger::Open(t.db);
  REQUIRE(held.ok());
  const std::string sock = cli::SocketPath(t.db);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, sock.c_str(), sizeof a.sun_path - 1);
  const mode_t before = umask(0177);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  umask(before);
  REQUIRE(listen(fd, 8) == 0);

  auto r = cli::AskServer(sock, {{"games"}, {}, {}, {}}, std::chrono::milliseconds(300));
  CHECK(r.status().code() == Status::Code::kBusy);
  CHECK_THAT(r.status().message(), Catch::Contains("gave no answer within 0 s"));

  Run cli = t.adj({"--server-wait", "1", "ruling", "talavera", "--reason", "r", "--text", "t"});
  CHECK(cli.code == 5);
  CHECK_THAT(cli.err, Catch::Contains("gave no answer within 1 s (adjutant --server-wait S waits longer)"));
  Run bad = t.adj({"--server-wait", "0", "games"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--server-wait: '0' is not a number of seconds"));
  close(fd);
}

TEST_CASE("socket: a desk serves no other user even where the socket's mode would let him in", "[cli][socket]") {
  if (geteuid() != 0) {
    WARN("not root: cannot act as another user; the peer check is covered by the unit test above only");
    return;
  }
  Talavera t;
  Serve serve(t.db, t.dir.Sub("serve.out"));
  REQUIRE(serve.Ready());
  const std::string sock = cli::SocketPath(t.db);
  // Opened up by mistake (or by a race): the desk's own check still refuses.
  REQUIRE(chmod(sock.c_str(), 0666) == 0);
  REQUIRE(chmod(t.dir.path().c_str(), 0711) == 0);
  REQUIRE(chmod(t.db.c_str(), 0711) == 0);
  const size_t rulings = t.Count("Directive");
  int pipefd[2];
  REQUIRE(pipe(pipefd) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // As nobody: connect, send a ruling, report what came back.
    close(pipefd[0]);
    std::string verdict = "setuid failed";
    if (setgid(65534) == 0 && setuid(65534) == 0) {
      int fd = socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un a{};
      a.sun_family = AF_UNIX;
      std::strncpy(a.sun_path, sock.c_str(), sizeof a.sun_path - 1);
      if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        verdict = std::string("connect failed: ") + std::strerror(errno);
      } else {
        const std::string rq = cli::EncodeRequest({{"ruling", "talavera", "--reason", "r", "--text", "t"}, {}, {}, {}});
        (void)!send(fd, rq.data(), rq.size(), MSG_NOSIGNAL);  // the desk may have closed already
        verdict = "answered " + std::to_string(ReadAll(fd).size()) + " bytes";
      }
    }
    (void)!write(pipefd[1], verdict.data(), verdict.size());
    _exit(0);
  }
  close(pipefd[1]);
  std::string verdict;
  char buf[256];
  for (ssize_t n; (n = read(pipefd[0], buf, sizeof buf)) > 0;) verdict.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(verdict == "answered 0 bytes");  // closed at once, nothing run
  CHECK(t.Count("Directive") == rulings);
  // The desk's own user is still served (once the mode is mended: his
  // command line trusts no socket other users may open).
  CHECK_THAT(t.adj({"ruling", "talavera", "--reason", "r", "--text", "t"}).err, Catch::Contains("(mode 0666): not trusted"));
  REQUIRE(chmod(sock.c_str(), 0600) == 0);
  Run ok = t.adj({"ruling", "talavera", "--reason", "r", "--text", "t"});
  INFO(ok.err);
  CHECK(ok.code == 0);
  CHECK(t.Count("Directive") == rulings + 1);
}

TEST_CASE("socket: a stale socket a killed server left is replaced — a file that is not a socket is not", "[cli][socket]") {
  Talavera t;
  const std::string sock = cli::SocketPath(t.db);
  {
    Serve first(t.db, t.dir.Sub("first.out"));
    REQUIRE(first.Ready());
    first.Stop(SIGKILL);
  }
  struct stat st{};
  REQUIRE(lstat(sock.c_str(), &st) == 0);  // left behind
  Serve second(t.db, t.dir.Sub("second.out"));
  REQUIRE(second.Ready());
  Run r = t.adj({"ruling", "talavera", "--reason", "after", "--text", "restart"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(second.Stop() == 0);

  std::ofstream(sock) << "the GA's notes";
  Serve third(t.db, t.dir.Sub("third.out"));
  CHECK_FALSE(third.Ready());
  CHECK_THAT(Slurp(t.dir.Sub("third.out.err")), Catch::Contains("exists and is not a socket: not replaced"));
  CHECK(Slurp(sock) == "the GA's notes");
}
