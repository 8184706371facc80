// A spawner of measuring children, shared by the benchmarks: a small
// single-threaded process forked first thing in main, before any database
// is opened, that forks one child per request to run a piece of work and
// report its peak resident memory. Forked from the benchmark instead, a
// child would inherit tens of MiB of resident heap left by earlier work —
// pages its own allocations reuse without raising its RSS, which would hide
// any growth — and RocksDB's background threads, which fork(2) does not
// copy, with whatever locks they held.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/common.h"

namespace adjutant::bench {

// What a child sends back: plain bytes, under PIPE_BUF so that one write(2)
// delivers all of it or nothing.
struct ChildReport {
  int ok = 0;
  uint64_t events = 0;
  double seconds = 0;
  long baseline_kib = 0;  // max RSS on entry: what fork(2) copied from the spawner
  long max_rss_kib = 0;
  char error[200] = {};
};
static_assert(sizeof(ChildReport) <= PIPE_BUF);

// The work a child does: events 1..upto of `game` (the work may ignore it)
// in the database in `dir`; it fills `events`, `seconds` and `ok` (or
// `error`).
using ChildWork = void (*)(const std::string& dir, const std::string& game, uint64_t upto, ChildReport* rep);

inline long MaxRssKib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;  // KiB on Linux
}

inline bool ReadFull(int fd, void* buf, size_t n) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    ssize_t got = read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

inline bool WriteFull(int fd, const void* buf, size_t n) {
  auto* p = static_cast<const char*>(buf);
  while (n > 0) {
    ssize_t put = write(fd, p, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    p += put;
    n -= static_cast<size_t>(put);
  }
  return true;
}

class Spawner {
 public:
  explicit Spawner(ChildWork work) : work_(work) {
    int req[2], rep[2];
    if (pipe(req) != 0 || pipe(rep) != 0) Die("pipe", Status::IOError(std::strerror(errno)));
    std::fflush(stdout);
    std::fflush(stderr);
    pid_ = fork();
    if (pid_ < 0) Die("fork", Status::IOError(std::strerror(errno)));
    if (pid_ == 0) {
      close(req[1]);
      close(rep[0]);
      Serve(work_, req[0], rep[1]);
    }
    close(req[0]);
    close(rep[1]);
    request_fd_ = req[1];
    report_fd_ = rep[0];
  }
  ~Spawner() {
    Request stop;  // upto 0
    (void)WriteFull(request_fd_, &stop, sizeof stop);
    close(request_fd_);
    close(report_fd_);
    waitpid(pid_, nullptr, 0);
  }
  Spawner(const Spawner&) = delete;
  Spawner& operator=(const Spawner&) = delete;

  // Runs the work on events 1..upto of `game` in `dir` in a fresh child;
  // waits for it.
  ChildReport Run(const std::string& dir, const std::string& game, uint64_t upto) {
    Request req;
    req.upto = upto;
    std::snprintf(req.dir, sizeof req.dir, "%s", dir.c_str());
    std::snprintf(req.game, sizeof req.game, "%s", game.c_str());
    ChildReport rep;
    if (!WriteFull(request_fd_, &req, sizeof req) || !ReadFull(report_fd_, &rep, sizeof rep)) {
      Die("measuring child", Status::IOError("the spawner process is gone"));
    }
    if (!rep.ok) Die("measuring child", Status::IOError(rep.error));
    return rep;
  }

 private:
  struct Request {
    uint64_t upto = 0;  // 0: the spawner exits
    char dir[PATH_MAX] = {};
    char game[128] = {};
  };

  [[noreturn]] static void Child(ChildWork work, int report_fd, const std::string& dir, const std::string& game,
                                 uint64_t upto) {
    ChildReport rep;
    rep.baseline_kib = MaxRssKib();
    work(dir, game, upto, &rep);
    rep.max_rss_kib = MaxRssKib();
    // _exit: the spawner's atexit handlers and static state are not ours to run.
    _exit(WriteFull(report_fd, &rep, sizeof rep) ? 0 : 1);
  }

  // One child per request, one at a time, so no two children share the
  // machine. A child that dies without reporting is reported for it.
  [[noreturn]] static void Serve(ChildWork work, int request_fd, int report_fd) {
    Request req;
    while (ReadFull(request_fd, &req, sizeof req) && req.upto != 0) {
      pid_t pid = fork();
      if (pid == 0) Child(work, report_fd, req.dir, req.game, req.upto);
      int wstatus = 0;
      if (pid < 0 || waitpid(pid, &wstatus, 0) != pid || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
        ChildReport failed;
        std::snprintf(failed.error, sizeof failed.error, "measuring child failed (wait status %d)", wstatus);
        (void)WriteFull(report_fd, &failed, sizeof failed);
      }
    }
    _exit(0);
  }

  ChildWork work_ = nullptr;
  pid_t pid_ = -1;
  int request_fd_ = -1;
  int report_fd_ = -1;
};

}  // namespace adjutant::bench
