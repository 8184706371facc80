// The event store: games, branches, append, read, the hash chain, verify.
// Key layout and record bytes: ledger/format.h. RocksDB and the generated
// schema headers stay behind this header (pimpl).
//
// Invariants this API keeps (docs/ARCHITECTURE.md):
//  - append-only (ARCHITECTURE I1): no call rewrites or deletes an event;
//  - all or nothing (I3): one batch → one synced WriteBatch;
//  - every stored event is chained to its predecessor (I2); reads run the
//    FlatBuffers Verifier on each event, and Verify() checks the chain.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/hash.h"
#include "base/status.h"
#include "base/turn.h"
#include "schema/draft.h"

namespace adjutant::fb { struct Event; }
namespace rocksdb { class Env; class DB; }

namespace adjutant::ledger {

inline constexpr std::string_view kMainBranch = "main";
inline constexpr std::string_view kDefaultDir = "./adjutant-data";

using adjutant::Actor;
using adjutant::ActorKind;
using adjutant::Draft;
using adjutant::PayloadBuilder;
using adjutant::PayloadRef;

struct GameInfo {
  std::string name;
  uint64_t seed = 0;
};

struct BranchInfo {
  std::string game;
  std::string name;
  uint64_t id = 0;
  std::string parent;     // empty for main
  uint64_t fork_seq = 0;  // 0 for main
  Hash128 fork_hash;
  uint64_t dice_salt = 0;
};

struct Head {
  uint64_t seq = 0;
  Hash128 hash;
  TurnPhase at;
};

struct AppendResult {
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  Hash128 head_hash;
  bool replayed = false;  // true: the idempotency key was seen; nothing appended
};

// One stored event, valid only inside the visitor call that receives it.
// `bytes` is 8-byte aligned and has passed the FlatBuffers Verifier.
struct EventView {
  uint64_t seq = 0;
  Hash128 hash;
  std::span<const uint8_t> bytes;
  const fb::Event* event() const;
};
using Visitor = std::function<Status(const EventView&)>;

struct VerifyReport {
  uint64_t events = 0;       // events checked
  Head head;
  bool ok = true;
  uint64_t bad_seq = 0;      // the first bad sequence number when !ok
  std::string reason;
  // The branch ends before the head acknowledged outside RocksDB (acked.h).
  // Every open checks that again, so it is not remembered as damage: a
  // read-only process beside a live writer may see an older moment.
  bool acknowledged_missing = false;
};

struct Snapshot {
  uint64_t seq = 0;
  std::string bytes;
};

struct OpenOptions {
  bool read_only = false;         // several readers may open one database
  bool create_if_missing = true;  // ignored when read_only
  // RocksDB's cache of index and filter blocks. Bounded, so that the memory
  // a process needs does not grow with the log; a long-lived server may
  // want more for random reads.
  size_t index_cache_bytes = 1 << 20;
  // The environment RocksDB writes through (tests: a file system that fails
  // as disks do, tests/support/fault_fs.h); null: the default.
  rocksdb::Env* env = nullptr;
  // A read or verify of at least this many events of one branch id reads
  // the records ahead on a thread of its own while the caller checks and
  // folds them (ledger.cc RecordScan); shorter ones stay on the caller's
  // thread. 0: always ahead; UINT64_MAX: never (tests run both).
  uint64_t scan_ahead_min_events = 2048;
  // Snapshots are thinned as they are written (Ledger::PutSnapshot): of one
  // view's snapshots under one branch id the newest `snapshots_kept_recent`
  // stay, and of the older ones the first in each span of
  // `snapshot_sparse_events` seqs, so what is kept grows by one snapshot a
  // view per span while any point still folds from at most about two spans
  // back. Snapshots written before their index are never thinned; 0 kept
  // recent: none are (every snapshot stays, as before thinning).
  uint64_t snapshots_kept_recent = 16;
  uint64_t snapshot_sparse_events = 8192;
};

class Ledger {
 public:
  static Result<std::unique_ptr<Ledger>> Open(const std::string& dir, const OpenOptions& opts = {});
  ~Ledger();
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;

  const std::string& dir() const;
  bool read_only() const;

  // Creates a game with its main branch and its first event (GameCreated,
  // seq 1) holding the seed and `scenario`, a verified Scenario buffer;
  // `more` events (e.g. the naval map) follow it in the same batch.
  // `signing_key`: the Ed25519 public key (32 bytes) that signs the game's
  // tree heads (issue 23); empty: none. `rules_versions`: the version of
  // each of its rulesets the game starts under (`new --rules-version`;
  // GameCreated's rules_versions), empty: the newest.
  Result<Head> CreateGame(std::string_view game, uint64_t seed,
                          std::span<const uint8_t> scenario, const TurnPhase& at,
                          const Actor& actor, std::span<const Draft> more = {},
                          std::span<const uint8_t> signing_key = {},
                          std::span<const std::pair<std::string, uint32_t>> rules_versions = {});

  Result<std::vector<GameInfo>> Games() const;
  Result<GameInfo> Game(std::string_view game) const;
  Result<BranchInfo> Branch(std::string_view game, std::string_view branch) const;
  // The branch commands use when none is named: main, until the GA makes
  // another current (a corrected branch). A pointer, not history: the
  // branches themselves are never changed by it.
  Status SetCurrent(std::string_view game, std::string_view branch);
  Result<std::string> Current(std::string_view game) const;
  // Every branch of a game, main first, then in creation order.
  Result<std::vector<BranchInfo>> Branches(std::string_view game) const;

  // A new branch continuing `parent`'s history after `at_seq`, in O(1): one
  // branch record and its first event (BranchForked, seq at_seq + 1). The
  // dice salt is the parent's unless `new_salt` is given.
  Result<BranchInfo> Fork(std::string_view game, std::string_view parent, uint64_t at_seq,
                          std::string_view name, std::optional<uint64_t> new_salt,
                          const Actor& actor);

  Result<Head> HeadOf(std::string_view game, std::string_view branch) const;

  // Appends `drafts` after `expected_head` in one synced WriteBatch, or
  // nothing. A different head → kConflict. A repeated idempotency key →
  // the original result (replayed = true) if the batch is the same, else
  // kConflict. Turns and phases may not go backwards. `request_fingerprint`
  // (non-zero) identifies the request instead of its events: a caller whose
  // events depend on a moving state (orders checked against it) passes a
  // hash of the request itself, and answers retries via FindIdempotent.
  Result<AppendResult> Append(std::string_view game, std::string_view branch,
                              uint64_t expected_head, std::span<const Draft> drafts,
                              std::string_view idempotency_key = {}, uint64_t request_fingerprint = 0);

  // The result an idempotency key was first used for, if it was: lets a
  // caller whose batch is not reproducible (fresh dice) answer a retry.
  struct Idempotent {
    uint64_t branch_id = 0;
    uint64_t fingerprint = 0;  // of the batch's events (ledger/format.h)
    AppendResult result;
  };
  // `owner` is IdempotencyOwner(...) of whoever sends the request: keys are
  // his own, and another's use of the same key is another key.
  Result<std::optional<Idempotent>> FindIdempotent(std::string_view game, std::string_view owner,
                                                   std::string_view key) const;

  // Visits events from..to (inclusive, clipped to the head) in order,
  // reading below fork points from the parent. Stops at the first non-ok
  // status from the visitor, which is returned. A record that fails its
  // checks gives kCorruption naming its sequence number.
  Status Read(std::string_view game, std::string_view branch, uint64_t from, uint64_t to,
              const Visitor& visit) const;

  // The first sequence number at or after (turn, phase), from the turn
  // index; nullopt when the branch has none that late.
  Result<std::optional<uint64_t>> SeekTurn(std::string_view game, std::string_view branch,
                                           const TurnPhase& at) const;

  // Walks the branch from seq 1: verifier, chain, gaps, envelopes, fork
  // points. Corruption is reported in the VerifyReport, not as an error.
  // `each`, when given, has every event that passed, in seq order from the
  // lineage's first (its Event flatbuffer as stored, valid for the call):
  // what else a caller checks over the whole branch rides on this one scan
  // (ledger/tree.h KeptNodesChecker) instead of reading every event again.
  using EachVerified = std::function<void(std::span<const uint8_t>)>;
  Result<VerifyReport> Verify(std::string_view game, std::string_view branch, const EachVerified& each = {}) const;

  // Snapshots are a cache: written unsynced, found through the lineage.
  // Each is bound to the chain hash of the event it follows (`hash`, read
  // from the log when null): one is used only while that event is stored
  // with that hash, so a report from a snapshot is a fold of the history
  // that hash commits to, verified when the snapshot was made. A snapshot
  // that cannot be read is a cache miss; a changed event is corruption.
  Status PutSnapshot(std::string_view game, std::string_view branch, std::string_view projection,
                     uint64_t seq, std::string_view bytes, const Hash128* hash = nullptr);
  // Several views' snapshots after one event (a turn's end), in one write:
  // each as PutSnapshot would, with one lookup of the lineage and one
  // iterator for the thinning.
  struct SnapshotPut {
    std::string_view projection;
    std::string_view bytes;
  };
  Status PutSnapshots(std::string_view game, std::string_view branch, uint64_t seq,
                      std::span<const SnapshotPut> snaps, const Hash128* hash = nullptr);
  Result<std::optional<Snapshot>> FindSnapshot(std::string_view game, std::string_view branch,
                                               std::string_view projection, uint64_t upto) const;
  Status DeleteSnapshots(std::string_view game);

  // The cache of a branch's Merkle tree (issue 23; format.h; ledger/tree.h
  // makes and reads it): the SHA-256 of its perfect subtree over leaves
  // [index << level, (index + 1) << level), leaf i being event seq i + 1,
  // found through the lineage like the events (a node below a fork point
  // is the parent's); nullopt when not stored (or not 32 bytes). Put
  // writes unsynced, and nothing in a read-only ledger.
  using TreeHash = std::array<uint8_t, 32>;
  struct TreeNode {
    unsigned level = 0;
    uint64_t index = 0;
    TreeHash hash{};
  };
  Result<std::optional<TreeHash>> GetTreeNode(std::string_view game, std::string_view branch, unsigned level,
                                              uint64_t index) const;
  Status PutTreeNodes(std::string_view game, std::string_view branch, std::span<const TreeNode> nodes);
  // Whether any node is kept under the segments of `branch`'s lineage (one
  // seek a segment; a parent's past the fork point counts): a hint that
  // the tree is kept at all, not a count.
  Result<bool> HasTreeNodes(std::string_view game, std::string_view branch) const;
  // Every node kept for `branch` (each under the segment of its lineage
  // that holds its last event, as GetTreeNode finds it), in one scan a
  // segment: by segment, then level, then index.
  Status ForEachTreeNode(std::string_view game, std::string_view branch,
                         const std::function<void(const TreeNode&)>& each) const;

  // Damage found in a game (by Verify, or by a read that failed its
  // checks) is remembered outside RocksDB, in `DIR/adjutant-damage/GAME`,
  // by every process: from then on every read of the game and every write
  // to it fails with what was found, as verify does, until the GA restores
  // a backup or a full verify of every branch of the game passes again
  // (ClearDamage). nullopt: none recorded.
  std::optional<std::string> DamageOf(std::string_view game) const;
  void ClearDamage(std::string_view game);

 private:
  struct Impl;
  explicit Ledger(std::unique_ptr<Impl> impl);
  Result<VerifyReport> VerifyWalk(std::string_view game, std::string_view branch, const EachVerified& each) const;
  Status ReadChecked(std::string_view game, std::string_view branch, uint64_t from, uint64_t to,
                     const Visitor& visit) const;
  std::unique_ptr<Impl> impl_;
  friend Status WithRocksDb(const Ledger& db, const std::function<Status(rocksdb::DB&)>& fn);
};

// Whose an idempotency key is: a player's ("person:NAME"), or the GA's
// (his directives and adjudications, "GA"). Append takes the owner of a
// batch from its first player's event, else the GA.
std::string IdempotencyOwner(ActorKind kind, std::string_view person);

// For ledger/backup.cc only: runs `fn` on the open RocksDB database, held
// so that a reopen after a write error cannot close it meanwhile.
Status WithRocksDb(const Ledger& db, const std::function<Status(rocksdb::DB&)>& fn);

// Names of games and branches: 1–64 of [A-Za-z0-9_-], starting with a
// letter or digit. Returns a message naming `what` when `name` is not one.
Status CheckName(std::string_view what, std::string_view name);

}  // namespace adjutant::ledger
