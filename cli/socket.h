// The way from the `adjutant` command to a running order desk: a Unix
// domain socket beside the database (DIR/adjutant.sock), owner-only.
//
// RocksDB lets one process write a database. While `adjutant serve` holds
// it, a command whose open for writing is refused as busy sends itself to
// the desk over this socket — its arguments, and the bytes of every file
// (and the password) it has read — and the desk runs it on the game's
// sequencer (cli::RunShared) and answers with its output, error and exit
// status. The desk never opens a file a request names: what a command
// would read comes in the request.
//
// Wire format (every integer unsigned 32-bit big-endian; a string is its
// length then its bytes):
//   request: "ADJQ" LENGTH, then LENGTH bytes: version (1), the number of
//            arguments and each argument, the number of files and each
//            (name, bytes), then 0 or 1 and the password if 1.
//   answer:  "ADJA" LENGTH, then LENGTH bytes: version (1), the exit status,
//            the output, the error message.
// Boost stays in socket.cc.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace adjutant::cli {

// DIR/adjutant.sock: a name none of the database's own files take (RocksDB's
// CURRENT, LOCK, LOG*, MANIFEST-*, OPTIONS-*, *.sst, *.log; the ledger's
// acknowledged heads and wal-at-open).
std::string SocketPath(const std::string& db_dir);

struct SocketRequest {
  std::vector<std::string> argv;             // the command and its arguments (no --db)
  std::map<std::string, std::string> files;  // what the command read, by the name it was given ("-": stdin)
  std::optional<std::string> password;       // a password read from $ADJUTANT_PASSWORD or the terminal
  std::set<std::string> made;                // files among `files` the command line made for this command
};

struct SocketAnswer {
  int code = 0;
  std::string out, err;
};

// The frames, whole (header and payload). Decoding takes the payload alone
// and checks every length against what is left.
std::string EncodeRequest(const SocketRequest& r);
Result<SocketRequest> DecodeRequest(std::string_view payload);
std::string EncodeAnswer(const SocketAnswer& a);
Result<SocketAnswer> DecodeAnswer(std::string_view payload);

// Only the server's own user is served, and a client talks only to a server
// of its own user: `peer` is the other end's uid (SO_PEERCRED).
Status CheckPeer(uid_t peer, uid_t own);
// A socket file a client may trust: a socket, owned by `own`, that no other
// user may read or write (mode 0600 or narrower).
Status CheckSocketFile(const std::string& path, uid_t own);

// Every limit is a named setting (`adjutant serve --help`).
struct SocketSettings {
  size_t max_request_bytes = 32 << 20;  // a request's payload: arguments and the files sent
  int timeout_s = 30;                   // to send a whole request, and to take the whole answer
  size_t max_connections = 16;          // open at once; more are closed at once
  size_t max_answer_bytes = 16 << 20;   // an answer's output
};

// Runs a request; `reply` is called once, from any thread. A `reply` holds
// its connection, which lives on the server's I/O context: it must be called
// or dropped before the server is destroyed (adjutant serve stops the server
// before the desk that runs its commands goes).
using SocketHandler = std::function<void(SocketRequest, std::function<void(SocketAnswer)> reply)>;

// The server: listens on `path` (a stale socket there, one no server
// answers on, is replaced; anything else there is refused), created 0600,
// on a thread of its own; each request, once read whole, goes to `handler`.
class SocketServer {
 public:
  static Result<std::unique_ptr<SocketServer>> Start(const std::string& path, const SocketSettings& settings,
                                                     SocketHandler handler);
  ~SocketServer();  // Stop()
  // Accepts no more, answers the commands already handed to the handler
  // (waiting for them --socket-timeout at most), closes the rest and removes
  // the socket file. The handler is not called after it: stop
  // the server before what its handler uses goes (adjutant serve: the desk).
  void Stop();
  SocketServer(const SocketServer&) = delete;
  SocketServer& operator=(const SocketServer&) = delete;
  struct Impl;

 private:
  explicit SocketServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The client: checks the socket file and the server's uid, sends `r`, and
// waits for the answer (a command such as adjudicate may take long, and waits
// its turn on the game's sequencer) — `wait` at most, from connecting to the
// last byte of the answer: a desk that is stopped or wedged does not hang the
// command line (`adjutant --server-wait S`). NotFound when nothing is
// listening on `path`; Busy when the wait ran out.
constexpr int kDefaultServerWaitS = 900;
Result<SocketAnswer> AskServer(const std::string& path, const SocketRequest& r,
                               std::chrono::milliseconds wait = std::chrono::seconds(kDefaultServerWaitS));

}  // namespace adjutant::cli
