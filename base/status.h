// Errors as values. Nothing in the ledger's API throws: a call returns a
// Status (or a Result<T>), and its message names what was wrong — the
// file and line, the field, or the sequence number at fault.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace adjutant {

class [[nodiscard]] Status {
 public:
  enum class Code {
    kOk = 0,
    kNotFound,
    kInvalidArgument,  // bad input: nothing was changed
    kAlreadyExists,
    kConflict,         // a stale expected head, a reused idempotency key
    kCorruption,       // stored bytes fail a check
    kIOError,
    kBusy,             // the database is held by another process
  };

  Status() = default;
  static Status Ok() { return {}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {Code::kAlreadyExists, std::move(m)}; }
  static Status Conflict(std::string m) { return {Code::kConflict, std::move(m)}; }
  static Status Corruption(std::string m) { return {Code::kCorruption, std::move(m)}; }
  static Status IOError(std::string m) { return {Code::kIOError, std::move(m)}; }
  static Status Busy(std::string m) { return {Code::kBusy, std::move(m)}; }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

  // The process exit code a command reports for this status.
  int exit_code() const {
    switch (code_) {
      case Code::kOk: return 0;
      case Code::kCorruption: return 3;
      case Code::kConflict: return 4;
      case Code::kIOError: case Code::kBusy: return 5;
      default: return 2;
    }
  }

 private:
  Status(Code c, std::string m) : code_(c), message_(std::move(m)) {}
  Code code_ = Code::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status s) : v_(std::move(s)) { assert(!std::get<Status>(v_).ok()); }  // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { assert(ok()); return std::get<T>(v_); }
  const T& value() const& { assert(ok()); return std::get<T>(v_); }
  T&& value() && { assert(ok()); return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

// Propagate a failed Status from an expression.
#define ADJ_RETURN_IF_ERROR(expr)            \
  do {                                       \
    ::adjutant::Status adj_s_ = (expr);      \
    if (!adj_s_.ok()) return adj_s_;         \
  } while (0)

}  // namespace adjutant
