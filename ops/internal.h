// What the operations of ops/ share (private to ops/): their output, the
// branch a request means, and the readers of counts.
#pragma once

#include <string>
#include <string_view>

#include "base/text.h"
#include "ledger/ledger.h"
#include "ops/ops.h"

namespace flatbuffers { class FlatBufferBuilder; }

namespace adjutant::ops {

inline const Actor kGa{ActorKind::kGameAdministrator, "", ""};

// An operation's output: to Env::print as it is produced, else into the answer.
// Always text: a stray byte, a terminal's escape or a bidirectional control
// that reached a line (a refusing mail server's answer, a string an older
// version recorded) is shown as U+FFFD, never sent to the GA's terminal.
class Printer {
 public:
  Printer(const Env& env, Answer& answer) : env_(env), answer_(answer) {}
  void Out(const std::string& s) {
    if (FindTextFault(s, TextRule::kFreeText)) return Emit(SafeText(s, TextRule::kFreeText));
    Emit(s);
  }
  void Line(const std::string& s) { Out(s + "\n"); }
  // A finished buffer of schema table `table`, as one JSON line.
  Status Json(std::string_view table, flatbuffers::FlatBufferBuilder& fbb);

 private:
  void Emit(const std::string& s) {
    if (env_.print) env_.print(s);
    else answer_.out += s;
  }
  const Env& env_;
  Answer& answer_;
};

// Runs `body` with a printer and makes its answer.
template <typename F>
Answer Answering(const Env& env, F&& body) {
  Answer a;
  Printer p(env, a);
  a.status = body(p);
  return a;
}

// The branch given, else the game's current branch, else main.
std::string BranchOf(const Env& env, const Opt& branch, const std::string& game);

// A whole number given as `--NAME`, or `fallback` when none is.
Result<uint64_t> Count(const std::string& name, const Opt& value, uint64_t fallback);

// The domain of the GA's address (the right of Message-IDs Adjutant makes);
// "adjutant.invalid" without one.
std::string MailDomain(const mail::Settings* s);

}  // namespace adjutant::ops
