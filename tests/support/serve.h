// `adjutant serve` as a child process of a test (tests/cli): started on a
// database, waited for until it listens, stopped or killed.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "support/build_paths.h"
#include "support/run.h"

namespace adjutant::testing {

// `adjutant serve` on `db`, as a child process, until Stop or Kill.
struct Serve {
  pid_t pid = -1;
  std::string log;
  Serve(const std::string& db, const std::string& log_path, std::vector<std::string> extra = {}) : log(log_path) {
    std::vector<std::string> args = {ADJUTANT_BIN, "--db", db, "serve", "--listen", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      std::freopen(log.c_str(), "w", stdout);
      std::freopen((log + ".err").c_str(), "w", stderr);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(ADJUTANT_BIN, argv.data());
      _exit(127);
    }
  }
  // Waits (bounded) for the line it prints once listening; false if it exited.
  bool Ready() {
    for (int i = 0; i < 600; ++i) {
      if (Slurp(log).find("SIGTERM or Ctrl-C stops it") != std::string::npos) return true;
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  int Stop(int sig = SIGTERM) {
    if (pid < 0) return -1;
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  ~Serve() { Stop(SIGKILL); }
};

}  // namespace adjutant::testing
