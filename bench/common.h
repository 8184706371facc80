// What the benchmark programs share: dying with a message, progress on
// stderr, wall and CPU clocks, the one-line JSON figures on stdout, and the
// working directory a run makes.
// Each program defines kProgram, its name in messages.
#pragma once

#include <rocksdb/status.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include "base/scratch.h"
#include "base/status.h"

namespace adjutant::bench {

extern const char* const kProgram;

using Clock = std::chrono::steady_clock;

[[noreturn]] inline void Die(std::string_view what, const Status& s) {
  std::fprintf(stderr, "%s: %.*s: %s\n", kProgram, static_cast<int>(what.size()), what.data(), s.message().c_str());
  std::exit(1);
}
[[noreturn]] inline void Die(std::string_view what, const rocksdb::Status& s) { Die(what, Status::IOError(s.ToString())); }

template <typename T>
T Must(Result<T> r, std::string_view what) {
  if (!r.ok()) Die(what, r.status());
  return std::move(r).value();
}
inline void Must(const Status& s, std::string_view what) {
  if (!s.ok()) Die(what, s);
}

inline void Progress(const char* format, ...) __attribute__((format(printf, 1, 2)));
inline void Progress(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::fprintf(stderr, "[%s] ", kProgram);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

inline double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// User + system CPU of this process: near the wall time, the work ran on
// one core unhindered; well below it, the machine was busy with other work.
inline double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto secs = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

// CPU time of the calling thread alone (not RocksDB's background flushes
// and compactions, nor time spent waiting for a sync).
inline double ThreadCpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  auto secs = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

// One figure: a flat JSON object written on one line of stdout.
class JsonLine {
 public:
  explicit JsonLine(std::string_view bench) { Str("bench", bench); }
  JsonLine& Str(std::string_view key, std::string_view value) {
    Key(key);
    out_ += '"';
    for (char c : value) {
      if (c == '"' || c == '\\') out_ += '\\';
      out_ += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
    out_ += '"';
    return *this;
  }
  JsonLine& Int(std::string_view key, uint64_t value) {
    Key(key);
    out_ += std::to_string(value);
    return *this;
  }
  JsonLine& Num(std::string_view key, double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    Key(key);
    out_ += buf;
    return *this;
  }
  JsonLine& Bool(std::string_view key, bool value) {
    Key(key);
    out_ += value ? "true" : "false";
    return *this;
  }
  void Print() {
    std::printf("%s}\n", out_.c_str());
    std::fflush(stdout);  // each figure shows as soon as it is measured, even into a pipe
  }

 private:
  void Key(std::string_view key) {
    out_ += out_.empty() ? '{' : ',';
    out_ += '"';
    out_ += key;
    out_ += "\":";
  }
  std::string out_;
};

// A run's working directory: the user's --dir (`dir`, kept at exit) or a
// fresh scratch directory named by `prefix` (set into `dir`, removed at exit
// when `remove` is true). The entries named in `fresh` must not exist yet:
// a run never writes over another's databases.
class WorkDir {
 public:
  WorkDir(std::string& dir, bool remove, const std::string& prefix, std::initializer_list<std::string_view> fresh)
      : remove_(remove) {
    if (dir.empty()) dir = Must(ScratchDir(prefix), "a scratch directory");
    dir_ = dir;
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) Die("--dir", Status::IOError(dir_ + ": " + ec.message()));
    for (std::string_view name : fresh) {
      const std::string d = path(name);
      if (std::filesystem::exists(d)) Die("--dir", Status::AlreadyExists(d + " already exists: give a fresh directory"));
    }
  }
  ~WorkDir() {
    if (!remove_) return;
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;

  std::string path(std::string_view name) const { return dir_ + "/" + std::string(name); }

 private:
  std::string dir_;
  bool remove_;
};

}  // namespace adjutant::bench
