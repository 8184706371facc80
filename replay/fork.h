// Forking at a turn (issue 5): the branch point just before turn T (its
// orders included in what follows) or before phase P of T, and the orders
// recorded after that point, carried over to the new branch on request.
#pragma once

#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "base/turn.h"
#include "ledger/ledger.h"

namespace adjutant::fb {
struct OrderSubmitted;
struct OrderSuperseded;
}  // namespace adjutant::fb

namespace adjutant::replay {

// The last sequence number before the first event of `at` (turn T, phase P;
// phase 0 is T's orders) on `branch`. NotFound if the branch has not reached it.
Result<uint64_t> ForkPoint(ledger::Ledger& db, std::string_view game, std::string_view branch, const TurnPhase& at);

// An adjudicated phase's recorded events: its PhaseStarted at `started`, its
// PhaseCompleted at `completed` (one synced batch, issue 1).
struct PhaseSpan {
  uint64_t started = 0, completed = 0;
  TurnPhase at;
};

// The phase of `branch` that `seq` falls inside (started <= seq < completed):
// a branch cut there would hold half a phase, which neither the driver nor an
// audit can take up again. nullopt where `seq` lies between phases (before a
// PhaseStarted, at a PhaseCompleted, or at the head).
Result<std::optional<PhaseSpan>> PhaseAround(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                             uint64_t seq);

// A recorded order given again: an OrderFile of that one item (person and
// role as recorded), and one file of several such items, in order.
std::vector<uint8_t> OrderFileOf(const fb::OrderSubmitted& o);
std::vector<uint8_t> JoinOrderFiles(const std::vector<std::vector<uint8_t>>& one_item_files);

// A run of one person's consecutive orders at one position, given again as
// one file (the intake emits each item's events in turn, so joined they make
// the same events) — except in a kind whose new file replaces the earlier
// (rules/kind.h GameKind::FilesReplace, Y1.3): there each file is given
// again as it was sent, and the OrderSuperseded events of the log mark
// where a file began (CutAt).
// Whether the GA entered the order of `ev` (an OrderSubmitted) on its
// person's behalf: its actor is the GA's (issue 20).
bool EnteredByGa(const fb::Event& ev);

struct OrderRun {
  std::vector<std::vector<uint8_t>> items;  // one-item OrderFiles, in order
  std::vector<uint64_t> seqs;               // their seqs on the old branch
  std::vector<bool> withdrawal;             // each: a Withdrawal
  bool by_ga = false;                       // the GA entered them, on the person's behalf
  int64_t received_at = 0;                  // when they reached Adjutant (the new branch records the same)
  void Add(uint64_t seq, const fb::Event& ev, const fb::OrderSubmitted& o);
  // Whether the order `o` of `ev` cannot join the run: one the GA entered
  // and one the person gave are files of their own, and so are orders
  // received at different times; in a kind whose files
  // replace, a withdrawal is a file of its own (rules/y1820: sent alone).
  bool Ends(const fb::Event& ev, const fb::OrderSubmitted& o, bool files_replace) const;
  // `s` read after the run's last order: in a kind whose files replace,
  // an earlier order of the run replaced by a later one that is no
  // withdrawal means a new file began with that later order; the run is
  // cut there and the rest (from it on) returned. Else nullopt.
  std::optional<OrderRun> CutAt(const fb::OrderSuperseded& s, bool files_replace);
};

// Records on `to` every order `from` recorded for turn `t`'s orders window
// after `after_seq`, each as its sender gave it (person, role, body), through
// the intake of `to` — so they stand, are superseded or are refused there as
// that branch's state says; consecutive orders of one sender go in as one
// file (the same events, one synced batch), each file its own where the
// kind's files replace (OrderRun). Returns how many were carried; `files`,
// when given, has how many files (submissions) carried them.
Result<size_t> CarryOrders(ledger::Ledger& db, std::string_view game, std::string_view from, std::string_view to,
                           uint64_t after_seq, const Turn& t, size_t* files = nullptr);

}  // namespace adjutant::replay
