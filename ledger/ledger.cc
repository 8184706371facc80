#include "ledger/ledger.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/slice.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstring>
#include <chrono>
#include <ctime>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include <filesystem>
#include <fstream>
#include <map>

#include "base/limits.h"
#include "ledger/acked.h"
#include "ledger/format.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/records_generated.h"
#include "schema/values.h"

namespace adjutant::ledger {


namespace fmt = format;

const fb::Event* EventView::event() const { return flatbuffers::GetRoot<fb::Event>(bytes.data()); }

std::string IdempotencyOwner(ActorKind kind, std::string_view person) {
  return kind == ActorKind::kPlayer ? "person:" + std::string(person) : std::string("GA");
}

Status CheckName(std::string_view what, std::string_view name) {
  bool ok = !name.empty() && name.size() <= limits::kNameBytesMax;
  for (size_t i = 0; ok && i < name.size(); ++i) {
    char c = name[i];
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    ok = alnum || (i > 0 && (c == '_' || c == '-'));
  }
  if (ok) return Status::Ok();
  return Status::InvalidArgument(std::string(what) + " name '" + std::string(name) +
                                 "' must be 1-64 letters, digits, '_' or '-', starting with a letter or digit");
}

namespace {

fb::Hash128 ToFb(const Hash128& h) { return fb::Hash128(h.hi, h.lo); }
Hash128 FromFb(const fb::Hash128* h) { return h ? Hash128{h->hi(), h->lo()} : Hash128{}; }

TurnPhase AtOf(const fb::Event& e) {
  TurnPhase tp;
  if (const fb::Turn* t = e.turn()) tp.turn = schema::TurnOf(t);
  tp.phase = e.phase();
  return tp;
}

// Whether another process holds the database's LOCK (a writer: RocksDB
// takes it with fcntl). Read from /proc/locks, never by opening the file: a
// process that closes any descriptor of a file loses its own POSIX locks on
// it, and this one may hold the database open for writing itself.
constexpr int kReadOnlyOpenAttempts = 12;

bool AnotherProcessWrites(const std::string& dir) {
  struct stat st {};
  if (::stat((dir + "/LOCK").c_str(), &st) != 0) return false;
  std::ifstream in("/proc/locks");
  if (!in) return false;
  char want[64];
  std::snprintf(want, sizeof want, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  const std::string self = std::to_string(::getpid());
  std::string line;
  while (std::getline(in, line)) {
    // "N: POSIX ADVISORY WRITE PID MAJ:MIN:INODE START END" ("N: -> ..." for a waiter)
    std::vector<std::string> f;
    size_t i = 0;
    while (i < line.size()) {
      const size_t j = line.find(' ', i);
      if (j != i) f.push_back(line.substr(i, j == std::string::npos ? std::string::npos : j - i));
      if (j == std::string::npos) break;
      i = j + 1;
    }
    for (size_t k = 1; k < f.size(); ++k) {
      if (f[k] == want && f[k - 1] != self && line.find("->") == std::string::npos) return true;
    }
  }
  return false;
}

Status FromRocks(const rocksdb::Status& s, std::string_view context) {
  if (s.ok()) return Status::Ok();
  std::string m = std::string(context) + ": " + s.ToString();
  if (s.IsNotFound()) return Status::NotFound(m);
  if (s.IsCorruption()) return Status::Corruption(m);
  return Status::IOError(m);
}

// An 8-byte aligned copy of a stored event, reused across reads.
class AlignedBuffer {
 public:
  std::span<const uint8_t> Assign(const char* data, size_t size) {
    words_.resize((size + 7) / 8 + 1);
    std::memcpy(words_.data(), data, size);
    return {reinterpret_cast<const uint8_t*>(words_.data()), size};
  }
 private:
  std::vector<uint64_t> words_;
};

// The event records of one stretch [start, upper) of the events column
// family, in key order. Ahead: a thread of its own iterates RocksDB and
// copies the records, in chunks, into a short queue, while the caller
// checks each record (chain hash, verifier) and folds it, so that on two
// cores a long read costs about the larger of the two, not their sum.
// Otherwise the caller's own thread iterates, as a short read should (a
// thread costs more than a few hundred records). Both give the same
// records in the same order; a storage error ends them and status() says
// it. Destroying the scan stops and joins its thread, wherever the caller
// stopped reading.
class RecordScan {
 public:
  struct Record {
    std::string_view key;
    std::string_view value;
  };

  RecordScan(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const rocksdb::ReadOptions& ro, std::string start,
             std::string upper, bool ahead)
      : start_(std::move(start)), upper_(std::move(upper)), upper_slice_(upper_), ro_(ro) {
    ro_.iterate_upper_bound = &upper_slice_;
    if (!ahead) {
      it_.reset(db->NewIterator(ro_, cf));
      return;
    }
    worker_ = std::thread([this, db, cf] { Pump(db, cf); });
  }
  ~RecordScan() {
    if (!worker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }
  RecordScan(const RecordScan&) = delete;
  RecordScan& operator=(const RecordScan&) = delete;

  // The next record (valid until the next call), or false at the end.
  bool Next(Record* r) {
    if (it_) {
      if (!started_) {
        it_->Seek(start_);
        started_ = true;
      } else {
        it_->Next();
      }
      if (!it_->Valid()) return false;
      r->key = std::string_view(it_->key().data(), it_->key().size());
      r->value = std::string_view(it_->value().data(), it_->value().size());
      return true;
    }
    while (!cur_ || pos_ >= cur_->entries.size()) {
      std::unique_lock<std::mutex> lock(mu_);
      if (cur_) spare_.push_back(std::move(cur_));
      cv_.notify_all();
      cv_.wait(lock, [&] { return !ready_.empty() || done_; });
      if (ready_.empty()) return false;
      cur_ = std::move(ready_.front());
      ready_.pop_front();
      pos_ = 0;
    }
    const Entry& e = cur_->entries[pos_++];
    r->key = std::string_view(cur_->data.data() + e.key, e.key_size);
    r->value = std::string_view(cur_->data.data() + e.value, e.value_size);
    return true;
  }

  // After Next returned false: how the iteration ended.
  rocksdb::Status status() {
    if (it_) return it_->status();
    std::lock_guard<std::mutex> lock(mu_);
    return final_;
  }

 private:
  static constexpr size_t kChunkRecords = 256;
  static constexpr size_t kChunkBytes = 1 << 20;
  static constexpr size_t kQueuedChunks = 4;
  struct Entry {
    size_t key, key_size, value, value_size;
  };
  struct Chunk {
    std::string data;
    std::vector<Entry> entries;
  };

  void Pump(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf) {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro_, cf));
    std::unique_ptr<Chunk> chunk = std::make_unique<Chunk>();
    // Hands a chunk over; false when the reader has stopped.
    auto publish = [&]() {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stop_ || ready_.size() < kQueuedChunks; });
      if (stop_) return false;
      ready_.push_back(std::move(chunk));
      if (!spare_.empty()) {
        chunk = std::move(spare_.back());
        spare_.pop_back();
      } else {
        chunk = std::make_unique<Chunk>();
      }
      chunk->data.clear();
      chunk->entries.clear();
      cv_.notify_all();
      return true;
    };
    for (it->Seek(start_); it->Valid(); it->Next()) {
      const rocksdb::Slice k = it->key();
      const rocksdb::Slice v = it->value();
      Entry e{chunk->data.size(), k.size(), chunk->data.size() + k.size(), v.size()};
      chunk->data.append(k.data(), k.size());
      chunk->data.append(v.data(), v.size());
      chunk->entries.push_back(e);
      if (chunk->entries.size() >= kChunkRecords || chunk->data.size() >= kChunkBytes) {
        if (!publish()) return;
      }
    }
    const rocksdb::Status s = it->status();
    if (!chunk->entries.empty() && !publish()) return;
    std::lock_guard<std::mutex> lock(mu_);
    final_ = s;
    done_ = true;
    cv_.notify_all();
  }

  const std::string start_;
  const std::string upper_;
  const rocksdb::Slice upper_slice_;
  rocksdb::ReadOptions ro_;
  // In the caller's thread:
  std::unique_ptr<rocksdb::Iterator> it_;
  bool started_ = false;
  // Ahead:
  std::thread worker_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::unique_ptr<Chunk>> ready_;     // under mu_
  std::vector<std::unique_ptr<Chunk>> spare_;    // under mu_
  bool stop_ = false;                            // under mu_
  bool done_ = false;                            // under mu_
  rocksdb::Status final_;                        // under mu_
  std::unique_ptr<Chunk> cur_;                   // the caller's
  size_t pos_ = 0;
};

// One stretch of a branch's history that lives under one branch id.
struct Segment {
  uint64_t id;
  std::string name;
  uint64_t lo;  // first seq stored under this id
  uint64_t hi;  // last seq visible through this lineage (UINT64_MAX: to the head)
  Hash128 fork_hash;  // for segments after the first: the chain hash at lo - 1
};

// The newest snapshot seqs (at most snapshots_kept_recent, oldest first) of
// each view under each branch id, as this process wrote them, keyed by
// SnapshotIndexPrefix: so that thinning (PutSnapshots) need not walk back
// through them with an iterator each time (a RocksDB Prev costs
// microseconds). Only this process writes the database (RocksDB's lock).
// Filled by one walk (NewestSnapshotSeqs), kept while snapshots come in
// order and their writes succeed; dropped by DeleteSnapshots. Two threads
// writing one view's snapshots at once can leave it short of one, and that
// is harmless: a snapshot thinned early or left (the first of a span is
// found in the database, never here).
class RecentSnapshots {
 public:
  // Views (by SnapshotIndexPrefix) and their newest seqs after a write;
  // nullopt: not to be remembered.
  using Remembered = std::vector<std::pair<std::string, std::optional<std::deque<uint64_t>>>>;
  // A view's remembered seqs, when they all lie below `seq` (a snapshot
  // written in order); nullopt when they must be walked to.
  std::optional<std::deque<uint64_t>> Below(const std::string& prefix, uint64_t seq) {
    std::lock_guard<std::mutex> lock(mu_);
    auto r = seqs_.find(prefix);
    if (r == seqs_.end() || (!r->second.empty() && r->second.back() >= seq)) return std::nullopt;
    return r->second;
  }
  // After a batch's write: each view's newest seqs are remembered if the
  // write succeeded and they are known (nullopt: out of order), else forgotten.
  void After(bool written, Remembered& views) {
    std::lock_guard<std::mutex> lock(mu_);
    if (seqs_.size() > 65536) seqs_.clear();  // bounded: a long-lived desk
    for (auto& [prefix, newest] : views) {
      if (written && newest) seqs_[prefix] = std::move(*newest);
      else seqs_.erase(prefix);
    }
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mu_);
    seqs_.clear();
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::deque<uint64_t>, std::less<>> seqs_;
};

// The newest `keep` snapshot seqs of a view below `seq`, oldest first,
// walked back to through its index keys with `it`; `in_order` says whether
// none lies above `seq`. nullopt when a read fails.
std::optional<std::deque<uint64_t>> NewestSnapshotSeqs(rocksdb::Iterator* it, uint64_t id, std::string_view projection,
                                                       uint64_t seq, uint64_t keep, bool* in_order) {
  const std::string prefix = fmt::SnapshotIndexPrefix(id, projection);
  auto index_key = [&](const rocksdb::Slice& k) { return k.starts_with(prefix) && k.size() == prefix.size() + 8; };
  auto key_at = [&](uint64_t s) { return fmt::SnapshotIndexKey(id, projection, s); };
  std::deque<uint64_t> newest;
  for (it->SeekForPrev(key_at(seq - 1)); it->Valid() && index_key(it->key()); it->Prev()) {
    newest.push_front(fmt::GetU64(it->key().data() + prefix.size()));
    if (newest.size() == keep) break;
  }
  if (!it->status().ok()) return std::nullopt;
  // One above this seq (written out of order) is not remembered past this write.
  it->Seek(key_at(seq + 1));
  *in_order = !(it->Valid() && index_key(it->key())) && it->status().ok();
  return newest;
}

}  // namespace

struct Ledger::Impl {
  std::string dir;
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::ColumnFamilyHandle* games = nullptr;
  rocksdb::ColumnFamilyHandle* branches = nullptr;
  rocksdb::ColumnFamilyHandle* events = nullptr;
  rocksdb::ColumnFamilyHandle* turns = nullptr;
  rocksdb::ColumnFamilyHandle* idempotency = nullptr;
  rocksdb::ColumnFamilyHandle* snapshots = nullptr;
  bool read_only = false;
  uint64_t scan_ahead_min_events = 2048;  // OpenOptions
  uint64_t snapshots_kept_recent = 16;     // OpenOptions
  uint64_t snapshot_sparse_events = 8192;  // OpenOptions
  std::mutex write_mu;  // one writer at a time inside this process

  // After a write error (a full disk) RocksDB refuses writes until resumed,
  // and a failed WAL write cannot be resumed in-process: Recover closes
  // and reopens the database, so a long-running process (the desk) goes on
  // once there is space, without a restart. Every use of `db` holds
  // `use_mu` shared (Use()); Recover holds it exclusively. glibc's rwlock
  // prefers readers, so a reader that calls back into the ledger while
  // Recover waits does not deadlock.
  mutable std::shared_mutex use_mu;
  std::atomic<bool> write_failed{false};
  bool degraded = false;     // reopened read-only: the read-write open failed too (under use_mu)
  std::string write_error;   // why writes are refused meanwhile (under use_mu)
  rocksdb::DBOptions dbo;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;

  // The acknowledged heads (acked.h): the file, open for writing in a
  // read-write ledger, and what it says (under write_mu once open). In a
  // read-only ledger `short_of` holds, for each branch id that ends before
  // its acknowledged head, why: every read of it fails with that.
  AckedHeads acked;
  mutable std::mutex acked_mu;  // acked_heads: written under write_mu, read by Verify
  RecentSnapshots recent_snapshots;
  std::map<uint64_t, Acked> acked_heads;
  std::map<uint64_t, std::string> short_of;

  ~Impl() { CloseDb(); }

  // A use of `db`: use_mu held shared, and counted on this thread, so that
  // a write made from inside a read (a fold's snapshot) never waits for
  // Recover's exclusive lock against its own shared one.
  static int& UsesOnThisThread() {
    thread_local int n = 0;
    return n;
  }
  struct UseGuard {
    std::shared_lock<std::shared_mutex> lock;
    explicit UseGuard(std::shared_mutex& mu) : lock(mu) { ++UsesOnThisThread(); }
    ~UseGuard() { --UsesOnThisThread(); }
    UseGuard(const UseGuard&) = delete;
    UseGuard& operator=(const UseGuard&) = delete;
  };
  [[nodiscard]] UseGuard Use() const { return UseGuard(use_mu); }  // (guaranteed copy elision)

  // Under Use(): the database is there to read.
  Status Ready() const {
    if (!db) return Status::IOError("database " + dir + " is closed after a write error (" + write_error + ")");
    return Status::Ok();
  }
  // Under Use(): the database takes writes.
  Status CheckWritable() const {
    if (read_only) return Status::InvalidArgument("database " + dir + " is open read-only");
    ADJ_RETURN_IF_ERROR(Ready());
    if (degraded) {
      return Status::IOError("database " + dir + " cannot take writes after a write error (" + write_error +
                             "); nothing was recorded; writes are tried again with the next request");
    }
    return Status::Ok();
  }

  void CloseDb() {
    if (!db) return;
    for (auto* h : handles) (void)db->DestroyColumnFamilyHandle(h);
    handles.clear();
    (void)db->Close();
    db.reset();
  }

  rocksdb::Status OpenDb(bool ro) {
    rocksdb::DB* raw = nullptr;
    rocksdb::Status s = ro ? rocksdb::DB::OpenForReadOnly(dbo, dir, cfs, &handles, &raw)
                           : rocksdb::DB::Open(dbo, dir, cfs, &handles, &raw);
    if (!s.ok()) return s;
    db.reset(raw);
    games = handles[1];
    branches = handles[2];
    events = handles[3];
    turns = handles[4];
    idempotency = handles[5];
    snapshots = handles[6];
    return s;
  }

  // Before a write, not under Use(): after a write error, resume RocksDB or
  // reopen the database; if the cause is still there, reopen it read-only
  // (reads go on) and refuse the write with the reason.
  Status Recover() {
    if (!write_failed.load()) return Status::Ok();
    // Inside a read on this thread: recovering would wait for ourselves; the
    // write is refused (CheckWritable or RocksDB says why) and a later one recovers.
    if (UsesOnThisThread() > 0) return Status::Ok();
    std::unique_lock<std::shared_mutex> lk(use_mu);
    if (!write_failed.load()) return Status::Ok();  // another thread did it
    if (db && !degraded) {
      rocksdb::Status r = db->Resume();
      for (int i = 0; r.IsBusy() && i < 100; ++i) {  // RocksDB may be recovering on its own
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        r = db->Resume();
      }
      if (r.ok()) {
        write_failed = false;
        return Status::Ok();
      }
    }
    CloseDb();
    rocksdb::Status s = OpenDb(false);
    if (s.ok()) {
      degraded = false;
      write_error.clear();
      write_failed = false;
      return Status::Ok();
    }
    write_error = s.ToString();
    degraded = OpenDb(true).ok();
    return Status::Ok();  // the caller's CheckWritable says why it cannot write
  }

  Result<BranchInfo> LoadBranch(std::string_view game, std::string_view branch) const {
    std::string v;
    auto s = db->Get(rocksdb::ReadOptions(), branches, fmt::BranchKey(game, branch), &v);
    if (s.IsNotFound()) {
      std::string gv;
      if (db->Get(rocksdb::ReadOptions(), games, std::string(game), &gv).IsNotFound()) {
        return Status::NotFound("no game '" + std::string(game) + "' in " + dir);
      }
      return Status::NotFound("game '" + std::string(game) + "' has no branch '" + std::string(branch) + "'");
    }
    ADJ_RETURN_IF_ERROR(FromRocks(s, "reading branch record"));
    flatbuffers::Verifier ver(reinterpret_cast<const uint8_t*>(v.data()), v.size());
    if (!ver.VerifyBuffer<fb::BranchRecord>(nullptr)) {
      return Status::Corruption("branch record of " + std::string(game) + "/" + std::string(branch) + " is damaged");
    }
    auto* r = flatbuffers::GetRoot<fb::BranchRecord>(v.data());
    BranchInfo b;
    b.game = r->game()->str();
    b.name = r->name()->str();
    b.id = r->id();
    b.parent = r->parent() ? r->parent()->str() : "";
    b.fork_seq = r->fork_seq();
    b.fork_hash = FromFb(r->fork_hash());
    b.dice_salt = r->dice_salt();
    return b;
  }

  // Segments from the root of the lineage down to `branch`.
  Result<std::vector<Segment>> Lineage(std::string_view game, std::string_view branch) const {
    std::vector<Segment> rev;
    uint64_t hi = UINT64_MAX;
    std::string name(branch);
    for (int depth = 0;; ++depth) {
      if (depth > 10'000) return Status::Corruption("branch lineage of " + std::string(branch) + " loops");
      auto b = LoadBranch(game, name);
      if (!b.ok()) return b.status();
      rev.push_back({b->id, b->name, b->fork_seq + 1, hi, b->fork_hash});
      if (b->parent.empty()) break;
      // A fork below its parent's own fork point sees none of the parent's
      // own events: the visible range only ever narrows going up.
      hi = std::min(hi, b->fork_seq);
      name = b->parent;
    }
    return std::vector<Segment>(rev.rbegin(), rev.rend());
  }

  // The last event stored under `id` (every branch has one).
  Result<Head> LastOwn(uint64_t id, std::string_view label) const {
    if (auto sh = short_of.find(id); sh != short_of.end()) return Status::Corruption(sh->second);
    // The last event and the head record from one snapshot: an append in
    // between would otherwise look like a damaged head.
    rocksdb::ManagedSnapshot snap(db.get());
    rocksdb::ReadOptions ro;
    ro.snapshot = snap.snapshot();
    // The head record names the last seq: the event there is stored and
    // the next one is not. Two point reads, which pass every table file
    // whose key range does not hold them, where a backward seek of the
    // events opens an iterator on every file of level 0 and every level
    // below (with more table files than the 64 kept open, reopening them:
    // a cost that grew with the log, issue 22). Anything else takes the
    // seek below, which says what is wrong. (A stray record further beyond
    // the head is left to verify, which reads every record.)
    auto recorded = RecordedHead(id, ro);
    if (recorded.ok() && recorded->has_value() && **recorded > 0) {
      const uint64_t seq = **recorded;
      std::string v, next;
      if (db->Get(ro, events, fmt::EventKey(id, seq), &v).ok() &&
          db->Get(ro, events, fmt::EventKey(id, seq + 1), &next).IsNotFound()) {
        if (auto h = HeadOfRecord(seq, v); h.ok()) return h;
      }
    }
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro, events));
    it->SeekForPrev(fmt::EventKey(id, UINT64_MAX));
    ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "reading head"));
    if (!it->Valid() || it->key().size() != fmt::kEventKeyBytes || fmt::GetU64(it->key().data()) != id) {
      return Status::Corruption("branch " + std::string(label) + " has no events of its own");
    }
    uint64_t seq = fmt::GetU64(it->key().data() + 8);
    if (!recorded.ok()) return recorded.status();
    if (recorded->has_value() && **recorded != seq) {
      return Status::Corruption("branch " + std::string(label) + ": its head is seq " + std::to_string(**recorded) +
                                " but the last event stored is seq " + std::to_string(seq) +
                                (**recorded > seq ? " (events are missing)" : ""));
    }
    return HeadOfRecord(seq, std::string_view(it->value().data(), it->value().size()));
  }

  // The head a stored record of event `seq` stands for (its chain hash, its
  // turn and phase), once the verifier has passed it.
  static Result<Head> HeadOfRecord(uint64_t seq, std::string_view v) {
    if (v.size() <= fmt::kRecordHeaderBytes) return Status::Corruption("seq " + std::to_string(seq) + ": record too short");
    AlignedBuffer buf;
    auto bytes = buf.Assign(v.data() + fmt::kRecordHeaderBytes, v.size() - fmt::kRecordHeaderBytes);
    if (!schema::VerifyEventBuffer(bytes.data(), bytes.size())) {
      return Status::Corruption("seq " + std::to_string(seq) + ": event fails the FlatBuffers verifier");
    }
    Head h;
    h.seq = seq;
    h.hash = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data()));
    h.at = AtOf(*flatbuffers::GetRoot<fb::Event>(bytes.data()));
    return h;
  }

  // In the snapshots column family, the last key `prefix` ‖ seq (u64) with
  // lo <= seq <= hi: its seq, and its value in `*value` when asked. The seek
  // is bounded below, so it never lands on another view's or branch's keys
  // (megabytes to read only to reject). A key that cannot be read (a
  // damaged block) is none: a snapshot is a cache, and a miss folds the
  // events instead.
  std::optional<uint64_t> LastSnapshotKey(const std::string& prefix, uint64_t lo, uint64_t hi, std::string* value) const {
    std::string lower = prefix, target = prefix;
    fmt::PutU64(&lower, lo);
    fmt::PutU64(&target, hi);
    rocksdb::Slice lower_slice(lower);
    rocksdb::ReadOptions ro;
    ro.iterate_lower_bound = &lower_slice;
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro, snapshots));
    it->SeekForPrev(target);
    if (!it->status().ok() || !it->Valid() || !it->key().starts_with(prefix) || it->key().size() != prefix.size() + 8) {
      return std::nullopt;
    }
    if (value) *value = it->value().ToString();
    return fmt::GetU64(it->key().data() + prefix.size());
  }

  Result<uint64_t> NextBranchId(rocksdb::WriteBatch* batch) {
    std::string v;
    auto s = db->Get(rocksdb::ReadOptions(), "next_branch_id", &v);
    uint64_t id = 1;
    if (s.ok() && v.size() == 8) id = fmt::GetU64(v.data());
    else if (!s.IsNotFound()) return FromRocks(s, "reading next branch id");
    std::string nv;
    fmt::PutU64(&nv, id + 1);
    (void)batch->Put("next_branch_id", nv);
    return id;
  }

  // Under Use() and write_mu. A failed write leaves the database refusing
  // writes until Recover (the next write method) has resumed or reopened it.
  Status Write(rocksdb::WriteBatch* batch) {
    rocksdb::WriteOptions wo;
    wo.sync = true;  // nobody is told "done" before the WAL is on disk (ARCHITECTURE I3)
    rocksdb::Status s = db->Write(wo, batch);
    if (!s.ok()) write_failed = true;
    return FromRocks(s, "writing batch");
  }

  // ---- damage found, remembered outside RocksDB (ledger.h DamageOf) ----
  std::string DamagePath(std::string_view game) const { return dir + "/adjutant-damage/" + std::string(game); }
  std::optional<std::string> DamageOf(std::string_view game) const {
    // Asked before every append: one stat when there is nothing (the usual
    // case), the stream only when there is something to read.
    const std::string path = DamagePath(game);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return std::nullopt;
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::string line;
    std::getline(in, line);
    return line.empty() ? std::string("damage was found in this game") : line;
  }
  Status DamageStatus(std::string_view game) const {
    auto d = DamageOf(game);
    if (!d) return Status::Ok();
    return Status::Corruption(*d + " (recorded in " + DamagePath(game) +
                              "; restore a backup, or run `adjutant verify " + std::string(game) +
                              " --all`, which clears this when every branch verifies)");
  }
  // Best effort: the read that found the damage fails either way.
  void RecordDamage(std::string_view game, const std::string& what) const {
    if (DamageOf(game)) return;
    std::error_code ec;
    std::filesystem::create_directories(dir + "/adjutant-damage", ec);
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
    const std::string tmp = DamagePath(game) + ".tmp";
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << "damage found in game " << game << " (" << stamp << "): " << what << "\n";
      if (!out) return;
    }
    std::filesystem::rename(tmp, DamagePath(game), ec);
  }

  // After a batch's synced write: its branch's head is acknowledged outside
  // RocksDB (acked.h, ARCHITECTURE I10) before anyone is told "done". The batch is on disk
  // either way; a failure here is reported, and a retry with the same
  // idempotency key is answered from the log.
  Status Ack(uint64_t id, uint64_t seq, const Hash128& h) {
    if (!acked.open()) return Status::Ok();
    Status s = acked.Record(id, seq, h);
    if (!s.ok()) {
      return Status::IOError("the batch ending at seq " + std::to_string(seq) +
                             " is recorded, but its acknowledgement could not be written (" + s.message() + ")");
    }
    std::lock_guard<std::mutex> lock(acked_mu);
    acked_heads[id] = {seq, h};
    return Status::Ok();
  }

  // Each acknowledged head against the database: the event at its seq must
  // be stored with its hash. Returns, per short branch id, what is missing.
  std::map<uint64_t, std::string> Shortfalls(const std::map<uint64_t, Acked>& heads) const {
    std::map<uint64_t, std::string> out;
    for (const auto& [id, a] : heads) {
      std::string v;
      auto s = db->Get(rocksdb::ReadOptions(), events, fmt::EventKey(id, a.seq), &v);
      if (s.ok() && v.size() > fmt::kRecordHeaderBytes &&
          Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data())) == a.hash) {
        continue;
      }
      // The branch's name and its last stored seq, for the message.
      std::string label = "branch id " + std::to_string(id);
      std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), branches));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string bv = it->value().ToString();
        flatbuffers::Verifier ver(reinterpret_cast<const uint8_t*>(bv.data()), bv.size());
        if (!ver.VerifyBuffer<fb::BranchRecord>(nullptr)) continue;
        auto* r = flatbuffers::GetRoot<fb::BranchRecord>(bv.data());
        if (r->id() == id) {
          label = "branch '" + r->name()->str() + "' of game '" + r->game()->str() + "'";
          break;
        }
      }
      std::unique_ptr<rocksdb::Iterator> ev(db->NewIterator(rocksdb::ReadOptions(), events));
      ev->SeekForPrev(fmt::EventKey(id, UINT64_MAX));
      uint64_t last = 0;
      if (ev->Valid() && ev->key().size() == fmt::kEventKeyBytes && fmt::GetU64(ev->key().data()) == id) {
        last = fmt::GetU64(ev->key().data() + 8);
      }
      std::string what;
      if (!s.ok() && !s.IsNotFound()) what = "cannot be read (" + s.ToString() + ")";
      else if (s.IsNotFound()) what = "is missing: the database ends at seq " + std::to_string(last);
      else what = "is stored with another chain hash";
      out[id] = label + " was acknowledged up to seq " + std::to_string(a.seq) + " (" + kAckedHeadsFile +
                "), but seq " + std::to_string(a.seq) + " " + what +
                "; acknowledged history is gone from the write-ahead log or a table file";
    }
    return out;
  }

  // An event record: the key, the chain hash and the event go into the
  // batch in parts, so no record is assembled (and allocated) on the way.
  static void PutRecord(rocksdb::WriteBatch* batch, rocksdb::ColumnFamilyHandle* cf, uint64_t id,
                        uint64_t seq, const Hash128& h, const uint8_t* data, size_t size) {
    char key[fmt::kEventKeyBytes];
    fmt::EncodeEventKey(key, id, seq);
    uint8_t header[fmt::kRecordHeaderBytes];
    h.ToBytes(header);
    const rocksdb::Slice key_part(key, sizeof key);
    const rocksdb::Slice value_parts[2] = {rocksdb::Slice(reinterpret_cast<const char*>(header), sizeof header),
                                           rocksdb::Slice(reinterpret_cast<const char*>(data), size)};
    (void)batch->Put(cf, rocksdb::SliceParts(&key_part, 1), rocksdb::SliceParts(value_parts, 2));
  }
  // The branch's head record: once a batch, after its last event.
  static void PutHead(rocksdb::WriteBatch* batch, uint64_t id, uint64_t seq, const Hash128& h) {
    std::string head;
    fmt::PutU64(&head, seq);
    head.resize(8 + 16);
    h.ToBytes(reinterpret_cast<uint8_t*>(head.data() + 8));
    (void)batch->Put(fmt::HeadKey(id), head);
  }

  // The head a branch's last batch recorded (nullopt in a database older
  // than the head record).
  Result<std::optional<uint64_t>> RecordedHead(uint64_t id, const rocksdb::ReadOptions& ro = {}) const {
    std::string v;
    auto s = db->Get(ro, fmt::HeadKey(id), &v);
    if (s.IsNotFound()) return std::optional<uint64_t>();
    ADJ_RETURN_IF_ERROR(FromRocks(s, "reading a branch's head"));
    if (v.size() != 24) return Status::Corruption("branch head record of unexpected size");
    return std::optional<uint64_t>(fmt::GetU64(v.data()));
  }
};

Ledger::Ledger(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Ledger::~Ledger() = default;
const std::string& Ledger::dir() const { return impl_->dir; }
bool Ledger::read_only() const { return impl_->read_only; }

Status WithRocksDb(const Ledger& db, const std::function<Status(rocksdb::DB&)>& fn) {
  auto use = db.impl_->Use();
  ADJ_RETURN_IF_ERROR(db.impl_->Ready());
  return fn(*db.impl_->db);
}

Result<std::unique_ptr<Ledger>> Ledger::Open(const std::string& dir, const OpenOptions& opts) {
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->read_only = opts.read_only;
  impl->scan_ahead_min_events = opts.scan_ahead_min_events;
  impl->snapshots_kept_recent = opts.snapshots_kept_recent;
  impl->snapshot_sparse_events = std::max<uint64_t>(1, opts.snapshot_sparse_events);
  rocksdb::DBOptions dbo;
  dbo.create_if_missing = !opts.read_only && opts.create_if_missing;
  dbo.create_missing_column_families = !opts.read_only;
  dbo.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  if (opts.env) dbo.env = opts.env;
  dbo.keep_log_file_num = 4;
  // A record in the middle of the write-ahead log that fails its checksum
  // stops the open (the default would replay up to it and silently drop
  // the rest); only a record cut off at the very end, a write torn by a
  // crash before it was acknowledged, is dropped. That such a drop took
  // nothing acknowledged is proved against the heads kept outside the log
  // (acked.h), below.
  dbo.wal_recovery_mode = rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  // The small column families would otherwise pin every WAL file until the
  // default cap (GBs), making each read-only open replay them all.
  dbo.max_total_wal_size = 64 << 20;
  // Each open table file keeps a reader in memory: a bounded number of them
  // keeps a rebuild's memory flat however long the log grows.
  dbo.max_open_files = 64;
  rocksdb::ColumnFamilyOptions cfo;
  // Index and filter blocks live in one bounded cache, so the memory a
  // rebuild needs does not grow with the number of table files.
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(opts.index_cache_bytes);
  table.cache_index_and_filter_blocks = true;
  table.pin_l0_filter_and_index_blocks_in_cache = true;
  cfo.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  // Snapshots are read by key once the index has named one (FindSnapshot):
  // a Bloom filter lets that read pass the levels that do not hold it
  // without reading their blocks, which hold large values.
  rocksdb::ColumnFamilyOptions snapshot_cfo = cfo;
  rocksdb::BlockBasedTableOptions snapshot_table = table;
  snapshot_table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  snapshot_cfo.table_factory.reset(rocksdb::NewBlockBasedTableFactory(snapshot_table));
  impl->cfs = {{rocksdb::kDefaultColumnFamilyName, cfo}, {fmt::kCfGames, cfo},
               {fmt::kCfBranches, cfo}, {fmt::kCfEvents, cfo}, {fmt::kCfTurns, cfo},
               {fmt::kCfIdempotency, cfo}, {fmt::kCfSnapshots, snapshot_cfo}};
  impl->dbo = dbo;
  // RocksDB makes the directory even when it is told not to create a
  // database: a mistyped --db must leave nothing behind.
  // A database's own files there (CURRENT, or a manifest or the heads when
  // CURRENT is gone): a database, damaged or not.
  auto looks_like_db = [&] {
    if ((dbo.env ? dbo.env : rocksdb::Env::Default())->FileExists(dir + "/CURRENT").ok()) return true;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string();
      if (n.rfind("MANIFEST-", 0) == 0 || n == kAckedHeadsFile) return true;
    }
    return false;
  };
  if (!dbo.create_if_missing && !looks_like_db()) {
    return Status::NotFound("no database at " + dir + " (create a game first, or pass --db DIR)");
  }
  // Without CURRENT, RocksDB would start a new, empty database beside the
  // old one's files: refused before it touches anything.
  if (looks_like_db() && !(dbo.env ? dbo.env : rocksdb::Env::Default())->FileExists(dir + "/CURRENT").ok()) {
    return Status::Corruption("database " + dir + " is damaged and was not opened: its CURRENT file is missing. "
                              "Nothing in it was changed or deleted. Keep the directory as it is, and restore the "
                              "last backup into a new one: adjutant restore --from BACKUP --to NEWDIR");
  }
  // The acknowledged heads are read before RocksDB opens: a read-only open
  // beside a writer then sees at least everything they acknowledge.
  bool heads_exist = false;
  Result<std::map<uint64_t, Acked>> heads = std::map<uint64_t, Acked>();
  // A read-write open may drop a torn tail of the write-ahead log and then
  // delete the log: the log files as they are now are kept (hard links) until
  // the open is proved complete, and kept for good if it is not.
  namespace fs = std::filesystem;
  const fs::path kept = fs::path(dir) / "wal-at-open";
  if (!opts.read_only) {
    std::error_code ec;
    fs::remove_all(kept, ec);
    if (fs::exists(fs::path(dir) / "CURRENT", ec)) {
      fs::create_directory(kept, ec);
      for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.path().extension() == ".log") fs::create_hard_link(e.path(), kept / e.path().filename(), ec);
      }
    }
  }
  // A read-only open beside a live writer may catch it between two steps of
  // its own work on its files (a log or manifest listed, then deleted by a
  // flush; an older moment than the heads just read): that open is tried
  // again, each with the heads read afresh, for up to ~2 s while another
  // process holds the database for writing, and once more in any case (the
  // writer may have just exited). What still fails is damage, said as before.
  std::map<uint64_t, std::string> shortfalls;
  rocksdb::Status s;
  for (int attempt = 1;; ++attempt) {
    heads = AckedHeads::Load(dir, &heads_exist);
    if (!heads.ok()) return heads.status();
    s = impl->OpenDb(opts.read_only);
    shortfalls.clear();
    if (s.ok()) shortfalls = impl->Shortfalls(*heads);
    if (!opts.read_only || (s.ok() && shortfalls.empty())) break;
    if (attempt >= kReadOnlyOpenAttempts || (attempt > 1 && !AnotherProcessWrites(dir))) break;
    if (s.ok()) impl->CloseDb();
    impl->handles.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(5 << (attempt - 1), 200)));
  }
  if (!s.ok()) {
    std::error_code ec;
    fs::remove_all(kept, ec);  // a failed open deletes nothing: the originals are there
    std::string m = s.ToString();
    if (s.IsCorruption()) {
      std::string wals;
      for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.path().extension() == ".log" || e.path().filename().string().rfind("MANIFEST-", 0) == 0) {
          wals += (wals.empty() ? "" : ", ") + e.path().filename().string();
        }
      }
      return Status::Corruption("database " + dir + " is damaged and was not opened: " + m +
                                " (its log and manifest files: " + wals +
                                "). Nothing in it was changed or deleted. Keep the directory as it is, and restore "
                                "the last backup into a new one: adjutant restore --from BACKUP --to NEWDIR");
    }
    if (m.find("lock file") != std::string::npos || m.find("/LOCK") != std::string::npos) {
      return Status::Busy("database " + dir + " is in use by another adjutant process");
    }
    // CURRENT gone but the database's other files there: damage, not a
    // directory without a database.
    const bool has_current = looks_like_db();
    if (!has_current && (s.IsNotFound() || m.find("does not exist") != std::string::npos ||
                         m.find("No such file") != std::string::npos)) {
      return Status::NotFound("no database at " + dir + " (create a game first, or pass --db DIR)");
    }
    if (has_current && (m.find("No such file") != std::string::npos || s.IsNotFound())) {
      // A database whose own files are gone (a table file, a manifest) or
      // whose CURRENT names nothing: damage, not a missing database.
      return Status::Corruption("database " + dir + " is damaged and was not opened: " + m +
                                ". Nothing in it was changed or deleted. Keep the directory as it is, and restore "
                                "the last backup into a new one: adjutant restore --from BACKUP --to NEWDIR");
    }
    return Status::IOError("cannot open database " + dir + ": " + m);
  }
  // Every acknowledged head must be there, with its hash.
  if (!shortfalls.empty() && !opts.read_only) {
    impl->CloseDb();
    std::error_code ec;
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", std::gmtime(&now));
    const fs::path damaged = fs::path(dir) / (std::string("damaged-wal-") + stamp);
    fs::rename(kept, damaged, ec);
    std::string m;
    for (const auto& [id, why] : shortfalls) m += (m.empty() ? "" : "; ") + why;
    return Status::Corruption("database " + dir + " is damaged and was not opened for writing: " + m +
                              ". The write-ahead log files as found are kept in " + damaged.string() +
                              ". Nothing will be written to this database: restore the last backup into a new "
                              "directory (adjutant restore --from BACKUP --to NEWDIR); `adjutant verify` still says "
                              "what is missing");
  }
  impl->short_of = std::move(shortfalls);
  impl->acked_heads = *heads;
  if (!opts.read_only) {
    std::error_code ec;
    fs::remove_all(kept, ec);
    ADJ_RETURN_IF_ERROR(impl->acked.OpenForWrite(dir, *heads));
    if (!heads_exist) {
      // A database older than the file, or a restored one: its heads as they
      // stand are the first acknowledgements.
      std::unique_ptr<rocksdb::Iterator> it(impl->db->NewIterator(rocksdb::ReadOptions()));
      const std::string prefix = "head/";
      for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
        if (it->key().size() != prefix.size() + 8 || it->value().size() != 24) continue;
        const uint64_t id = fmt::GetU64(it->key().data() + prefix.size());
        const Hash128 h = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(it->value().data() + 8));
        ADJ_RETURN_IF_ERROR(impl->Ack(id, fmt::GetU64(it->value().data()), h));
      }
      ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "reading branch heads"));
    }
  }
  rocksdb::DB* raw = impl->db.get();
  std::string v;
  auto fstatus = raw->Get(rocksdb::ReadOptions(), "format", &v);
  if (fstatus.ok()) {
    if (v.size() != 4 || fmt::GetU32(v.data()) != fmt::kFormatVersion) {
      return Status::Corruption("database " + dir + " has an unknown format version");
    }
  } else if (fstatus.IsNotFound() && !opts.read_only) {
    std::string nv;
    fmt::PutU32(&nv, fmt::kFormatVersion);
    rocksdb::WriteOptions wo;
    wo.sync = true;
    auto ps = raw->Put(wo, "format", nv);
    if (!ps.ok()) return FromRocks(ps, "writing format version");
  } else if (!fstatus.IsNotFound()) {
    return FromRocks(fstatus, "reading format version");
  }
  return std::unique_ptr<Ledger>(new Ledger(std::move(impl)));
}

Result<Head> Ledger::CreateGame(std::string_view game, uint64_t seed, std::span<const uint8_t> scenario,
                                const TurnPhase& at, const Actor& actor, std::span<const Draft> more,
                                std::span<const uint8_t> signing_key,
                                std::span<const std::pair<std::string, uint32_t>> rules_versions) {
  if (!signing_key.empty() && signing_key.size() != 32) {
    return Status::InvalidArgument("a signing key is an Ed25519 public key of 32 bytes, not " +
                                   std::to_string(signing_key.size()));
  }
  ADJ_RETURN_IF_ERROR(impl_->Recover());
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  ADJ_RETURN_IF_ERROR(CheckName("game", game));
  if (!schema::VerifyTableBuffer("Scenario", scenario.data(), scenario.size())) {
    return Status::InvalidArgument("scenario buffer fails the FlatBuffers verifier");
  }
  std::lock_guard<std::mutex> lock(impl_->write_mu);
  std::string v;
  auto gs = impl_->db->Get(rocksdb::ReadOptions(), impl_->games, std::string(game), &v);
  if (gs.ok()) return Status::AlreadyExists("game '" + std::string(game) + "' already exists in " + impl_->dir);
  if (!gs.IsNotFound()) return FromRocks(gs, "reading game record");

  rocksdb::WriteBatch batch;
  auto id = impl_->NextBranchId(&batch);
  if (!id.ok()) return id.status();

  flatbuffers::FlatBufferBuilder rb;
  rb.Finish(fb::CreateGameRecord(rb, rb.CreateString(game.data(), game.size()), seed, *id));
  (void)batch.Put(impl_->games, std::string(game),
                  rocksdb::Slice(reinterpret_cast<const char*>(rb.GetBufferPointer()), rb.GetSize()));
  rb.Clear();
  fb::Hash128 zero(0, 0);
  rb.Finish(fb::CreateBranchRecord(rb, rb.CreateString(game.data(), game.size()),
                                   rb.CreateString(kMainBranch.data(), kMainBranch.size()), *id, 0, 0, 0,
                                   &zero, 0));
  (void)batch.Put(impl_->branches, fmt::BranchKey(game, kMainBranch),
                  rocksdb::Slice(reinterpret_cast<const char*>(rb.GetBufferPointer()), rb.GetSize()));

  Draft d;
  d.at = at;
  d.actor = actor;
  d.payload = [&](flatbuffers::FlatBufferBuilder& fbb) {
    auto sc = schema::CopyRootTable(fbb, "Scenario", scenario.data());
    auto key = signing_key.empty() ? flatbuffers::Offset<flatbuffers::Vector<uint8_t>>()
                                   : fbb.CreateVector(signing_key.data(), signing_key.size());
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::RulesVersionPin>>> pins;
    if (!rules_versions.empty()) {
      std::vector<flatbuffers::Offset<fb::RulesVersionPin>> v;
      for (const auto& [ruleset, version] : rules_versions) {
        v.push_back(fb::CreateRulesVersionPin(fbb, fbb.CreateString(ruleset), version));
      }
      pins = fbb.CreateVector(v);
    }
    auto gc = fb::CreateGameCreated(fbb, seed, flatbuffers::Offset<fb::Scenario>(sc), key, pins);
    return PayloadRef{fb::Payload_GameCreated, gc.o};
  };
  flatbuffers::FlatBufferBuilder fbb(1024);
  BuildEventBuffer(fbb, game, kMainBranch, 1, d, {});
  if (fbb.GetSize() > limits::kEventBytesMax) {
    return Status::InvalidArgument("scenario too large: the GameCreated event would be " +
                                   std::to_string(fbb.GetSize()) + " bytes (limit " +
                                   std::to_string(limits::kEventBytesMax) + ")");
  }
  std::string_view bytes(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  Hash128 h = ChainHash(Hash128{}, bytes);
  Impl::PutRecord(&batch, impl_->events, *id, 1, h, fbb.GetBufferPointer(), fbb.GetSize());
  (void)batch.Put(impl_->turns, fmt::TurnKey(*id, at), [] { std::string s; fmt::PutU64(&s, 1); return s; }());
  uint64_t seq = 1;
  for (const Draft& d : more) {
    if (d.at != at) return Status::InvalidArgument("the events created with a game are at its first turn");
    BuildEventBuffer(fbb, game, kMainBranch, ++seq, d, {});
    if (fbb.GetSize() > limits::kEventBytesMax || !schema::VerifyEventBuffer(fbb.GetBufferPointer(), fbb.GetSize())) {
      return Status::InvalidArgument("event " + std::to_string(seq) + " of the new game is too large or malformed");
    }
    h = ChainHash(h, std::string_view(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize()));
    Impl::PutRecord(&batch, impl_->events, *id, seq, h, fbb.GetBufferPointer(), fbb.GetSize());
  }
  Impl::PutHead(&batch, *id, seq, h);
  if (impl_->acked.open()) ADJ_RETURN_IF_ERROR(impl_->acked.Reserve(*id));
  ADJ_RETURN_IF_ERROR(impl_->Write(&batch));
  ADJ_RETURN_IF_ERROR(impl_->Ack(*id, seq, h));
  return Head{seq, h, at};
}

Result<std::vector<GameInfo>> Ledger::Games() const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  std::vector<GameInfo> out;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->games));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    // Copied: an iterator's value may be misaligned for FlatBuffers reads.
    const std::string v = it->value().ToString();
    flatbuffers::Verifier ver(reinterpret_cast<const uint8_t*>(v.data()), v.size());
    if (!ver.VerifyBuffer<fb::GameRecord>(nullptr)) {
      return Status::Corruption("game record '" + it->key().ToString() + "' is damaged");
    }
    auto* r = flatbuffers::GetRoot<fb::GameRecord>(v.data());
    out.push_back({r->name()->str(), r->seed()});
  }
  ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "listing games"));
  return out;
}

Result<GameInfo> Ledger::Game(std::string_view game) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  std::string v;
  auto s = impl_->db->Get(rocksdb::ReadOptions(), impl_->games, std::string(game), &v);
  if (s.IsNotFound()) return Status::NotFound("no game '" + std::string(game) + "' in " + impl_->dir);
  ADJ_RETURN_IF_ERROR(FromRocks(s, "reading game record"));
  flatbuffers::Verifier ver(reinterpret_cast<const uint8_t*>(v.data()), v.size());
  if (!ver.VerifyBuffer<fb::GameRecord>(nullptr)) {
    return Status::Corruption("game record '" + std::string(game) + "' is damaged");
  }
  auto* r = flatbuffers::GetRoot<fb::GameRecord>(v.data());
  return GameInfo{r->name()->str(), r->seed()};
}

Result<BranchInfo> Ledger::Branch(std::string_view game, std::string_view branch) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  return impl_->LoadBranch(game, branch);
}

Status Ledger::SetCurrent(std::string_view game, std::string_view branch) {
  ADJ_RETURN_IF_ERROR(impl_->Recover());
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  auto b = Branch(game, branch);
  if (!b.ok()) return b.status();
  rocksdb::WriteBatch batch;
  (void)batch.Put(fmt::CurrentKey(game), std::string(branch));
  return impl_->Write(&batch);
}

Result<std::string> Ledger::Current(std::string_view game) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto g = Game(game);
  if (!g.ok()) return g.status();
  std::string v;
  auto s = impl_->db->Get(rocksdb::ReadOptions(), fmt::CurrentKey(game), &v);
  if (s.IsNotFound()) return std::string("main");
  ADJ_RETURN_IF_ERROR(FromRocks(s, "reading the current branch"));
  return v;
}

Result<std::vector<BranchInfo>> Ledger::Branches(std::string_view game) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto g = Game(game);
  if (!g.ok()) return g.status();
  std::vector<BranchInfo> out;
  std::string prefix = fmt::BranchPrefix(game);
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->branches));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    std::string name = it->key().ToString().substr(prefix.size());
    auto b = impl_->LoadBranch(game, name);
    if (!b.ok()) return b.status();
    out.push_back(std::move(b).value());
  }
  ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "listing branches"));
  std::stable_sort(out.begin(), out.end(), [](const BranchInfo& a, const BranchInfo& b) { return a.id < b.id; });
  return out;
}

Result<Head> Ledger::HeadOf(std::string_view game, std::string_view branch) const {
  ADJ_RETURN_IF_ERROR(impl_->DamageStatus(game));
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto b = impl_->LoadBranch(game, branch);
  if (!b.ok()) return b.status();
  return impl_->LastOwn(b->id, branch);
}

Result<BranchInfo> Ledger::Fork(std::string_view game, std::string_view parent, uint64_t at_seq,
                                std::string_view name, std::optional<uint64_t> new_salt, const Actor& actor) {
  ADJ_RETURN_IF_ERROR(impl_->Recover());
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  ADJ_RETURN_IF_ERROR(CheckName("branch", name));
  ADJ_RETURN_IF_ERROR(impl_->DamageStatus(game));
  std::lock_guard<std::mutex> lock(impl_->write_mu);
  auto p = impl_->LoadBranch(game, parent);
  if (!p.ok()) return p.status();
  auto existing = impl_->LoadBranch(game, name);
  if (existing.ok()) {
    return Status::AlreadyExists("game '" + std::string(game) + "' already has a branch '" + std::string(name) + "'");
  }
  // Only a clean "not found" means the name is free: a damaged record or an
  // I/O error must not be overwritten.
  if (existing.status().code() != Status::Code::kNotFound) return existing.status();
  auto head = impl_->LastOwn(p->id, parent);
  if (!head.ok()) return head.status();
  if (at_seq < 1 || at_seq > head->seq) {
    return Status::InvalidArgument("cannot fork " + std::string(parent) + "@" + std::to_string(at_seq) +
                                   ": its events are 1.." + std::to_string(head->seq));
  }
  // The hash and calendar position of the fork point.
  Hash128 fork_hash;
  TurnPhase at;
  ADJ_RETURN_IF_ERROR(Read(game, parent, at_seq, at_seq, [&](const EventView& e) {
    fork_hash = e.hash;
    at = AtOf(*e.event());
    return Status::Ok();
  }));

  rocksdb::WriteBatch batch;
  auto id = impl_->NextBranchId(&batch);
  if (!id.ok()) return id.status();
  BranchInfo info;
  info.game = std::string(game);
  info.name = std::string(name);
  info.id = *id;
  info.parent = std::string(parent);
  info.fork_seq = at_seq;
  info.fork_hash = fork_hash;
  info.dice_salt = new_salt.value_or(p->dice_salt);

  flatbuffers::FlatBufferBuilder rb;
  fb::Hash128 fh = ToFb(fork_hash);
  rb.Finish(fb::CreateBranchRecord(rb, rb.CreateString(game.data(), game.size()),
                                   rb.CreateString(name.data(), name.size()), info.id,
                                   rb.CreateString(parent.data(), parent.size()), p->id, at_seq, &fh,
                                   info.dice_salt));
  (void)batch.Put(impl_->branches, fmt::BranchKey(game, name),
                  rocksdb::Slice(reinterpret_cast<const char*>(rb.GetBufferPointer()), rb.GetSize()));
  Draft d;
  d.at = at;
  d.actor = actor;
  d.payload = [&](flatbuffers::FlatBufferBuilder& fbb) {
    auto pn = fbb.CreateString(parent.data(), parent.size());
    auto bf = fb::CreateBranchForked(fbb, pn, at_seq, &fh, info.dice_salt, new_salt.has_value());
    return PayloadRef{fb::Payload_BranchForked, bf.o};
  };
  flatbuffers::FlatBufferBuilder fbb(512);
  BuildEventBuffer(fbb, game, name, at_seq + 1, d, {});
  std::string_view bytes(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  const Hash128 fh2 = ChainHash(fork_hash, bytes);
  Impl::PutRecord(&batch, impl_->events, info.id, at_seq + 1, fh2, fbb.GetBufferPointer(), fbb.GetSize());
  Impl::PutHead(&batch, info.id, at_seq + 1, fh2);
  if (impl_->acked.open()) ADJ_RETURN_IF_ERROR(impl_->acked.Reserve(info.id));
  ADJ_RETURN_IF_ERROR(impl_->Write(&batch));
  ADJ_RETURN_IF_ERROR(impl_->Ack(info.id, at_seq + 1, fh2));
  return info;
}

Result<AppendResult> Ledger::Append(std::string_view game, std::string_view branch, uint64_t expected_head,
                                    std::span<const Draft> drafts, std::string_view idempotency_key,
                                    uint64_t request_fingerprint) {
  ADJ_RETURN_IF_ERROR(impl_->Recover());
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  if (drafts.empty()) return Status::InvalidArgument("an append needs at least one event");
  if (drafts.size() > limits::kEventsPerBatchMax) {
    return Status::InvalidArgument("batch of " + std::to_string(drafts.size()) + " events is over the limit of " +
                                   std::to_string(limits::kEventsPerBatchMax));
  }
  if (idempotency_key.size() > limits::kIdempotencyKeyBytesMax) {
    return Status::InvalidArgument("idempotency key is over " + std::to_string(limits::kIdempotencyKeyBytesMax) +
                                   " bytes");
  }
  ADJ_RETURN_IF_ERROR(impl_->DamageStatus(game));
  std::lock_guard<std::mutex> lock(impl_->write_mu);
  auto b = impl_->LoadBranch(game, branch);
  if (!b.ok()) return b.status();
  auto head = impl_->LastOwn(b->id, branch);
  if (!head.ok()) return head.status();

  // Without an idempotency key a stale head is refused before any work; with
  // one, a retry must be answered first (below).
  if (idempotency_key.empty() && expected_head != head->seq) {
    return Status::Conflict("stale head: expected " + std::string(game) + "/" + std::string(branch) + " at seq " +
                            std::to_string(expected_head) + ", it is at " + std::to_string(head->seq));
  }
  // Build every event first: nothing is written unless all of them are good.
  // Room for a typical record each (a few hundred bytes), so that the batch
  // is not copied as it grows.
  rocksdb::WriteBatch batch(std::min<size_t>(drafts.size() * 320, size_t{4} << 20));
  flatbuffers::FlatBufferBuilder fbb(512);
  std::string fingerprint_input;
  Hash128 h = head->hash;
  TurnPhase prev = head->at;
  uint64_t seq = head->seq;
  for (size_t i = 0; i < drafts.size(); ++i) {
    const Draft& d = drafts[i];
    ++seq;
    if (d.at < prev) {
      return Status::InvalidArgument("event " + std::to_string(i + 1) + " of the batch is at turn " +
                                     d.at.turn.ToString() + " phase " + std::to_string(d.at.phase) +
                                     ", before the branch's last event (turn " + prev.turn.ToString() +
                                     " phase " + std::to_string(prev.phase) + ")");
    }
    if (!d.payload) return Status::InvalidArgument("event " + std::to_string(i + 1) + " of the batch has no payload");
    BuildEventBuffer(fbb, game, branch, seq, d, idempotency_key);
    const uint8_t* data = fbb.GetBufferPointer();
    size_t size = fbb.GetSize();
    auto* ev = flatbuffers::GetRoot<fb::Event>(data);
    if (ev->payload_type() == fb::Payload_GameCreated || ev->payload_type() == fb::Payload_BranchForked ||
        ev->payload_type() == fb::Payload_NONE) {
      return Status::InvalidArgument("event " + std::to_string(i + 1) + " of the batch has a payload (" +
                                     fb::EnumNamePayload(ev->payload_type()) + ") only the ledger may write");
    }
    if (size > limits::kEventBytesMax) {
      return Status::InvalidArgument("event " + std::to_string(i + 1) + " of the batch is " + std::to_string(size) +
                                     " bytes (limit " + std::to_string(limits::kEventBytesMax) + ")");
    }
    if (!schema::VerifyEventBuffer(data, size)) {
      return Status::InvalidArgument("event " + std::to_string(i + 1) + " of the batch fails the verifier");
    }
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    h = ChainHash(h, bytes);
    Impl::PutRecord(&batch, impl_->events, b->id, seq, h, data, size);
    if (d.at != prev) {
      std::string sv;
      fmt::PutU64(&sv, seq);
      (void)batch.Put(impl_->turns, fmt::TurnKey(b->id, d.at), sv);
      prev = d.at;
    }
    if (!idempotency_key.empty() && request_fingerprint == 0) {
      std::vector<uint8_t> copy(data, data + size);
      flatbuffers::GetMutableRoot<fb::Event>(copy.data())->mutate_seq(0);
      fingerprint_input.append(reinterpret_cast<const char*>(copy.data()), copy.size());
    }
  }

  Impl::PutHead(&batch, b->id, seq, h);
  AppendResult result{head->seq + 1, seq, h, false};
  if (!idempotency_key.empty()) {
    std::string owner = IdempotencyOwner(ActorKind::kGameAdministrator, "");
    for (const Draft& d : drafts) {
      if (d.actor.kind == ActorKind::kPlayer) {
        owner = IdempotencyOwner(d.actor.kind, d.actor.person);
        break;
      }
    }
    uint64_t fingerprint = request_fingerprint != 0 ? request_fingerprint : Hash64(fingerprint_input);
    auto prior = FindIdempotent(game, owner, idempotency_key);
    if (!prior.ok()) return prior.status();
    if (prior->has_value()) {
      const AppendResult& orig = (*prior)->result;
      if ((*prior)->branch_id != b->id || (*prior)->fingerprint != fingerprint) {
        return Status::Conflict("idempotency key '" + std::string(idempotency_key) +
                                "' was already used for a different submission (seq " +
                                std::to_string(orig.first_seq) + ".." + std::to_string(orig.last_seq) + ")");
      }
      return orig;
    }
    std::string key = fmt::IdempotencyKey(game, owner, idempotency_key);
    std::string rec;
    fmt::PutU64(&rec, b->id);
    fmt::PutU64(&rec, result.first_seq);
    fmt::PutU64(&rec, result.last_seq);
    fmt::PutU64(&rec, fingerprint);
    rec.resize(rec.size() + Hash128::kBytes);
    h.ToBytes(reinterpret_cast<uint8_t*>(rec.data() + 32));
    (void)batch.Put(impl_->idempotency, key, rec);
  }
  if (expected_head != head->seq) {
    return Status::Conflict("stale head: expected " + std::string(game) + "/" + std::string(branch) + " at seq " +
                            std::to_string(expected_head) + ", it is at " + std::to_string(head->seq));
  }
  if (impl_->acked.open()) ADJ_RETURN_IF_ERROR(impl_->acked.Reserve(b->id));
  ADJ_RETURN_IF_ERROR(impl_->Write(&batch));
  ADJ_RETURN_IF_ERROR(impl_->Ack(b->id, seq, h));
  return result;
}

Result<std::optional<Ledger::Idempotent>> Ledger::FindIdempotent(std::string_view game, std::string_view owner,
                                                                std::string_view key) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  std::string v;
  auto s = impl_->db->Get(rocksdb::ReadOptions(), impl_->idempotency, fmt::IdempotencyKey(game, owner, key), &v);
  bool legacy = false;
  if (s.IsNotFound()) {
    // A key recorded before keys had owners counts only for the owner of
    // the batch it recorded.
    s = impl_->db->Get(rocksdb::ReadOptions(), impl_->idempotency, fmt::LegacyIdempotencyKey(game, key), &v);
    if (s.IsNotFound()) return std::optional<Idempotent>();
    legacy = true;
  }
  ADJ_RETURN_IF_ERROR(FromRocks(s, "reading idempotency record"));
  if (v.size() != fmt::kIdempotencyRecordBytes) {
    return Status::Corruption("idempotency record '" + std::string(key) + "' is damaged");
  }
  Idempotent r;
  r.branch_id = fmt::GetU64(v.data());
  r.result = {fmt::GetU64(v.data() + 8), fmt::GetU64(v.data() + 16),
              Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data() + 32)), true};
  r.fingerprint = fmt::GetU64(v.data() + 24);
  if (legacy) {
    std::string ev;
    auto es = impl_->db->Get(rocksdb::ReadOptions(), impl_->events, fmt::EventKey(r.branch_id, r.result.first_seq), &ev);
    if (es.IsNotFound()) return std::optional<Idempotent>();
    ADJ_RETURN_IF_ERROR(FromRocks(es, "reading the event an idempotency key recorded"));
    if (ev.size() <= fmt::kRecordHeaderBytes) return Status::Corruption("idempotency record '" + std::string(key) + "' points at a damaged event");
    AlignedBuffer buf;
    auto bytes = buf.Assign(ev.data() + fmt::kRecordHeaderBytes, ev.size() - fmt::kRecordHeaderBytes);
    if (!schema::VerifyEventBuffer(bytes.data(), bytes.size())) {
      return Status::Corruption("idempotency record '" + std::string(key) + "' points at a damaged event");
    }
    const auto* e = flatbuffers::GetRoot<fb::Event>(bytes.data());
    const auto kind = e->actor() ? static_cast<ActorKind>(e->actor()->kind()) : ActorKind::kAdjudicator;
    const std::string person = e->actor() && e->actor()->person() ? e->actor()->person()->str() : "";
    if (IdempotencyOwner(kind, person) != owner) return std::optional<Idempotent>();
  }
  return std::optional<Idempotent>(r);
}

Status Ledger::Read(std::string_view game, std::string_view branch, uint64_t from, uint64_t to,
                    const Visitor& visit) const {
  ADJ_RETURN_IF_ERROR(impl_->DamageStatus(game));
  // A branch found short of its acknowledged head when this (read-only)
  // ledger opened: refused, and not remembered as damage (every open checks
  // it again; beside a live writer it may be an older moment, not damage).
  if (!impl_->short_of.empty()) {
    auto use = impl_->Use();
    auto segs = impl_->Lineage(game, branch);
    if (segs.ok()) {
      if (auto sh = impl_->short_of.find(segs->back().id); sh != impl_->short_of.end()) return Status::Corruption(sh->second);
    }
  }
  // Damage this read finds (not a visitor's own stop) is remembered for the
  // game: later reads fail with it too, whatever snapshot they start from.
  bool visitor_stopped = false;
  Status s = ReadChecked(game, branch, from, to, [&](const EventView& e) {
    Status v = visit(e);
    if (!v.ok()) visitor_stopped = true;
    return v;
  });
  if (s.code() == Status::Code::kCorruption && !visitor_stopped) {
    impl_->RecordDamage(game, "reading " + std::string(game) + "/" + std::string(branch) + ": " + s.message());
  }
  return s;
}

Status Ledger::ReadChecked(std::string_view game, std::string_view branch, uint64_t from, uint64_t to,
                           const Visitor& visit) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  if (from < 1) from = 1;
  AlignedBuffer buf;
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  // Each level of the tree reads ahead on its own buffer: 256 KiB keeps a
  // long scan fast while its memory stays flat as levels are added (2 MiB
  // a level made a 10M-event rebuild 1.13x the memory of a 1M-event one).
  ro.readahead_size = 256 << 10;
  // Every event read is checked as verify checks it: no gap, the chain hash
  // from its predecessor, the verifier, its envelope's seq; and the branch
  // ends where its last batch said it did. Damage is an error naming its
  // seq, never a silently different history.
  for (size_t si = 0; si < segs->size(); ++si) {
    const Segment& sg = (*segs)[si];
    uint64_t lo = std::max(from, sg.lo);
    uint64_t hi = std::min(to, sg.hi);
    if (sg.hi == UINT64_MAX) {
      auto head = impl_->LastOwn(sg.id, sg.name);
      if (!head.ok()) return head.status();
      hi = std::min(hi, head->seq);
    }
    if (lo > hi) continue;
    Hash128 prev = si == 0 ? Hash128{} : sg.fork_hash;
    if (lo > sg.lo) {
      std::string v;
      auto s = impl_->db->Get(rocksdb::ReadOptions(), impl_->events, fmt::EventKey(sg.id, lo - 1), &v);
      if (s.IsNotFound()) return Status::Corruption("seq " + std::to_string(lo - 1) + " is missing");
      ADJ_RETURN_IF_ERROR(FromRocks(s, "reading events of " + sg.name));
      if (v.size() <= fmt::kRecordHeaderBytes) return Status::Corruption("seq " + std::to_string(lo - 1) + ": record too short");
      prev = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data()));
    }
    RecordScan scan(impl_->db.get(), impl_->events, ro, fmt::EventKey(sg.id, lo), fmt::EventKey(sg.id, hi + 1),
                    hi - lo + 1 >= impl_->scan_ahead_min_events);
    uint64_t expect = lo;
    RecordScan::Record rec;
    while (scan.Next(&rec)) {
      auto k = rec.key;
      if (k.size() != fmt::kEventKeyBytes) return Status::Corruption("event key of unexpected size in branch " + sg.name);
      uint64_t seq = fmt::GetU64(k.data() + 8);
      if (seq != expect) {
        return Status::Corruption("seq " + std::to_string(expect) + " is missing (next stored is " + std::to_string(seq) + ")");
      }
      auto v = rec.value;
      if (v.size() <= fmt::kRecordHeaderBytes) {
        return Status::Corruption("seq " + std::to_string(seq) + ": record too short");
      }
      EventView view;
      view.seq = seq;
      view.hash = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data()));
      view.bytes = buf.Assign(v.data() + fmt::kRecordHeaderBytes, v.size() - fmt::kRecordHeaderBytes);
      if (!(ChainHash(prev, std::string_view(reinterpret_cast<const char*>(view.bytes.data()), view.bytes.size())) ==
            view.hash)) {
        return Status::Corruption("seq " + std::to_string(seq) + ": chain hash mismatch (the record was changed)");
      }
      if (!schema::VerifyEventBuffer(view.bytes.data(), view.bytes.size())) {
        return Status::Corruption("seq " + std::to_string(seq) + ": event fails the FlatBuffers verifier");
      }
      if (view.event()->seq() != seq) {
        return Status::Corruption("seq " + std::to_string(seq) + ": envelope says seq " +
                                  std::to_string(view.event()->seq()));
      }
      prev = view.hash;
      ++expect;
      ADJ_RETURN_IF_ERROR(visit(view));
    }
    ADJ_RETURN_IF_ERROR(FromRocks(scan.status(), "reading events of " + sg.name));
    if (expect <= hi) return Status::Corruption("seq " + std::to_string(expect) + " is missing");
  }
  return Status::Ok();
}

Result<std::optional<uint64_t>> Ledger::SeekTurn(std::string_view game, std::string_view branch,
                                                 const TurnPhase& at) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->turns));
  for (const Segment& sg : *segs) {
    std::string prefix;
    fmt::PutU64(&prefix, sg.id);
    it->Seek(fmt::TurnKey(sg.id, at));
    ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "reading the turn index"));
    if (!it->Valid() || !it->key().starts_with(prefix)) continue;
    if (it->value().size() != 8) return Status::Corruption("turn index entry of unexpected size");
    uint64_t seq = fmt::GetU64(it->value().data());
    if (seq >= sg.lo && seq <= sg.hi) return std::optional<uint64_t>(seq);
  }
  return std::optional<uint64_t>();
}

Result<VerifyReport> Ledger::Verify(std::string_view game, std::string_view branch, const EachVerified& each) const {
  auto rep = VerifyWalk(game, branch, each);
  if (rep.ok() && !rep->ok && !rep->acknowledged_missing) {
    impl_->RecordDamage(game, "verify " + std::string(game) + "/" + std::string(branch) + ": FAILED at seq " +
                                  std::to_string(rep->bad_seq) + ": " + rep->reason);
  }
  return rep;
}

std::optional<std::string> Ledger::DamageOf(std::string_view game) const { return impl_->DamageOf(game); }

void Ledger::ClearDamage(std::string_view game) {
  std::error_code ec;
  std::filesystem::remove(impl_->DamagePath(game), ec);
}

Result<VerifyReport> Ledger::VerifyWalk(std::string_view game, std::string_view branch,
                                        const EachVerified& each) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  VerifyReport rep;
  Hash128 prev;
  uint64_t expect = 1;
  AlignedBuffer buf;
  // The acknowledged heads, taken before the snapshot: whatever they say
  // was synced before it, so the snapshot must hold it.
  std::map<uint64_t, Acked> acked;
  {
    std::lock_guard<std::mutex> lock(impl_->acked_mu);
    for (const Segment& sg : *segs) {
      if (auto a = impl_->acked_heads.find(sg.id); a != impl_->acked_heads.end()) acked[sg.id] = a->second;
    }
  }
  // One snapshot for the events and the head record: appends made while
  // verifying (the desk takes orders meanwhile) are simply not seen.
  rocksdb::ManagedSnapshot snap(impl_->db.get());
  rocksdb::ReadOptions ro;
  ro.snapshot = snap.snapshot();
  ro.fill_cache = false;
  ro.readahead_size = 256 << 10;
  auto fail = [&](uint64_t seq, std::string why) {
    rep.ok = false;
    rep.bad_seq = seq;
    rep.reason = std::move(why);
    return rep;
  };
  for (size_t si = 0; si < segs->size(); ++si) {
    const Segment& sg = (*segs)[si];
    if (sg.hi < sg.lo) continue;  // an ancestor forked from below its own fork point
    if (si > 0 && !(sg.fork_hash == prev)) {
      return fail(sg.lo, "branch " + sg.name + " forks at seq " + std::to_string(sg.lo - 1) +
                             " with chain hash " + sg.fork_hash.Short() + ", but the parent's is " + prev.Short());
    }
    // How many events to expect, to choose whether to read ahead: to the
    // fork point, or to the head record (its value is checked below).
    Result<std::optional<uint64_t>> recorded = std::optional<uint64_t>();  // the head record: last stretch only
    if (sg.hi == UINT64_MAX) recorded = impl_->RecordedHead(sg.id, ro);
    const uint64_t last = sg.hi != UINT64_MAX ? sg.hi : recorded.ok() && recorded->has_value() ? **recorded : 0;
    const bool ahead = last >= sg.lo && last - sg.lo + 1 >= impl_->scan_ahead_min_events;
    RecordScan scan(impl_->db.get(), impl_->events, ro, fmt::EventKey(sg.id, 0),
                    sg.hi == UINT64_MAX ? fmt::EventKey(sg.id + 1, 0) : fmt::EventKey(sg.id, sg.hi + 1), ahead);
    bool first_of_segment = true;
    RecordScan::Record rec;
    while (scan.Next(&rec)) {
      auto k = rec.key;
      if (k.size() != fmt::kEventKeyBytes) return fail(expect, "event key of unexpected size");
      uint64_t seq = fmt::GetU64(k.data() + 8);
      if (seq != expect) {
        return fail(expect, seq > expect ? "seq " + std::to_string(expect) + " is missing (next stored is " +
                                               std::to_string(seq) + ")"
                                         : "unexpected seq " + std::to_string(seq) + " stored in branch " + sg.name);
      }
      auto v = rec.value;
      if (v.size() <= fmt::kRecordHeaderBytes) return fail(seq, "record too short");
      Hash128 stored = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data()));
      auto bytes = buf.Assign(v.data() + fmt::kRecordHeaderBytes, v.size() - fmt::kRecordHeaderBytes);
      if (!schema::VerifyEventBuffer(bytes.data(), bytes.size())) {
        return fail(seq, "event fails the FlatBuffers verifier");
      }
      Hash128 h = ChainHash(prev, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
      if (!(h == stored)) {
        return fail(seq, "chain hash mismatch: stored " + stored.Short() + ", computed " + h.Short());
      }
      auto* ev = flatbuffers::GetRoot<fb::Event>(bytes.data());
      if (ev->seq() != seq) return fail(seq, "envelope says seq " + std::to_string(ev->seq()));
      if (ev->game()->string_view() != game) return fail(seq, "envelope names game '" + ev->game()->str() + "'");
      if (ev->branch()->string_view() != sg.name) {
        return fail(seq, "envelope names branch '" + ev->branch()->str() + "', stored under '" + sg.name + "'");
      }
      if (first_of_segment) {
        auto want = si == 0 ? fb::Payload_GameCreated : fb::Payload_BranchForked;
        if (ev->payload_type() != want) {
          return fail(seq, std::string("first event of branch ") + sg.name + " is " +
                               fb::EnumNamePayload(ev->payload_type()) + ", not " + fb::EnumNamePayload(want));
        }
        first_of_segment = false;
      }
      prev = h;
      rep.head = {seq, h, AtOf(*ev)};
      ++rep.events;
      ++expect;
      if (each) each(bytes);
    }
    if (const rocksdb::Status st = scan.status(); !st.ok()) return fail(expect, "storage error: " + st.ToString());
    if (first_of_segment) return fail(expect, "branch " + sg.name + " has no events of its own");
    if (sg.hi != UINT64_MAX && expect != sg.hi + 1) {
      return fail(expect, "parent branch " + sg.name + " ends at seq " + std::to_string(expect - 1) +
                              " before the fork point " + std::to_string(sg.hi));
    }
    if (sg.hi == UINT64_MAX) {
      // The branch ends where its last batch said it would (format.h head/).
      if (!recorded.ok()) return recorded.status();
      if (recorded->has_value() && **recorded != expect - 1) {
        return fail(expect, **recorded > expect - 1 ? "seq " + std::to_string(expect) + " is missing (the branch's head is seq " +
                                                          std::to_string(**recorded) + ")"
                                                    : "the branch's head record says seq " + std::to_string(**recorded));
      }
      // And at least as far as the last batch acknowledged to anyone.
      if (auto a = acked.find(sg.id); a != acked.end()) {
        if (a->second.seq > expect - 1) {
          rep.acknowledged_missing = true;
          return fail(expect, "seq " + std::to_string(expect) + ".." + std::to_string(a->second.seq) +
                                  " were acknowledged (" + kAckedHeadsFile + ") but are missing");
        }
      }
    }
  }
  // A branch found short when a read-only ledger was opened.
  if (auto sh = impl_->short_of.find(segs->back().id); sh != impl_->short_of.end()) {
    rep.acknowledged_missing = true;
    return fail(rep.head.seq + 1, sh->second);
  }
  return rep;
}

Status Ledger::PutSnapshot(std::string_view game, std::string_view branch, std::string_view projection,
                           uint64_t seq, std::string_view bytes, const Hash128* hash) {
  const SnapshotPut one{projection, bytes};
  return PutSnapshots(game, branch, seq, std::span<const SnapshotPut>(&one, 1), hash);
}

Status Ledger::PutSnapshots(std::string_view game, std::string_view branch, uint64_t seq,
                            std::span<const SnapshotPut> snaps, const Hash128* hash) {
  // No Recover() here: a fold writes snapshots from inside Read (holding
  // use_mu shared), and a snapshot is only a cache.
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  auto b = impl_->LoadBranch(game, branch);
  if (!b.ok()) return b.status();
  // Store under the branch that holds `seq`, so every descendant finds it.
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  uint64_t id = b->id;
  for (const Segment& sg : *segs) {
    if (seq >= sg.lo && seq <= sg.hi) id = sg.id;
  }
  // Bound to the chain hash of event `seq` (ledger.h).
  Hash128 at;
  if (hash) {
    at = *hash;
  } else {
    std::string v;
    auto gs = impl_->db->Get(rocksdb::ReadOptions(), impl_->events, fmt::EventKey(id, seq), &v);
    ADJ_RETURN_IF_ERROR(FromRocks(gs, "reading the event a snapshot follows"));
    if (v.size() <= fmt::kRecordHeaderBytes) return Status::Corruption("seq " + std::to_string(seq) + ": record too short");
    at = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data()));
  }
  rocksdb::WriteBatch batch;
  // One iterator for every view's thinning (below), made only when needed.
  std::unique_ptr<rocksdb::Iterator> it;
  // Each view's newest seqs once this batch is written (RecentSnapshots).
  RecentSnapshots::Remembered recent_after;
  for (const SnapshotPut& snap : snaps) {
    const std::string_view projection = snap.projection;
    std::string value(fmt::kSnapshotMagic);
    value.resize(value.size() + Hash128::kBytes);
    at.ToBytes(reinterpret_cast<uint8_t*>(value.data() + value.size() - Hash128::kBytes));
    value.append(snap.bytes);
    (void)batch.Put(impl_->snapshots, fmt::SnapshotKey(id, projection, seq), value);
    (void)batch.Put(impl_->snapshots, fmt::SnapshotIndexKey(id, projection, seq), rocksdb::Slice());
    // Thinning (OpenOptions). The snapshot that leaves the newest ones now is
    // the kept_recent-th below this one (C); it goes, value and index key, if
    // an older one of this view lies in C's span (found by seeking forward
    // from the span's start, short of C), so the first of every span stays.
    // Both reads pass only live keys when snapshots come in order: the ones
    // deleted before lie between a span's first and C, which neither read
    // crosses (a walk through them would grow with the game's age). A read
    // that fails thins nothing: not thinning is always safe.
    if (seq == 0 || impl_->snapshots_kept_recent == 0) continue;
    const uint64_t keep = impl_->snapshots_kept_recent, span = impl_->snapshot_sparse_events;
    const std::string prefix = fmt::SnapshotIndexPrefix(id, projection);
    if (!it) it.reset(impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->snapshots));
    // The newest seqs below this one: remembered, or walked back to.
    bool in_order = true;
    std::optional<std::deque<uint64_t>> newest = impl_->recent_snapshots.Below(prefix, seq);
    if (!newest) newest = NewestSnapshotSeqs(it.get(), id, projection, seq, keep, &in_order);
    if (!newest) continue;
    std::optional<uint64_t> leaving;
    if (newest->size() == keep) leaving = newest->front();
    newest->push_back(seq);
    if (newest->size() > keep) newest->pop_front();
    recent_after.emplace_back(prefix, in_order ? std::move(newest) : std::nullopt);
    if (!leaving) continue;
    const std::string first = fmt::SnapshotIndexKey(id, projection, *leaving / span * span);
    const std::string upper = fmt::SnapshotIndexKey(id, projection, *leaving);
    it->Seek(first);
    if (it->Valid() && it->status().ok() && it->key().compare(upper) < 0) {
      (void)batch.Delete(impl_->snapshots, fmt::SnapshotKey(id, projection, *leaving));
      (void)batch.Delete(impl_->snapshots, fmt::SnapshotIndexKey(id, projection, *leaving));
    }
  }
  rocksdb::WriteOptions wo;  // a cache: no sync
  rocksdb::Status st = impl_->db->Write(wo, &batch);
  if (!st.ok()) impl_->write_failed = true;  // the next write resumes or reopens the database
  impl_->recent_snapshots.After(st.ok(), recent_after);
  return FromRocks(st, "writing snapshot");
}

Result<std::optional<Snapshot>> Ledger::FindSnapshot(std::string_view game, std::string_view branch,
                                                     std::string_view projection, uint64_t upto) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  std::optional<Snapshot> best;
  for (const Segment& sg : *segs) {
    uint64_t hi = std::min(sg.hi, upto);
    if (hi < sg.lo) continue;
    // The nearest snapshot at or before `hi`, found in the index (format.h):
    // a seek among small keys, then one read of the value.
    std::string value;
    auto at = impl_->LastSnapshotKey(fmt::SnapshotIndexPrefix(sg.id, projection), sg.lo, hi, nullptr);
    if (!at || !impl_->db->Get(rocksdb::ReadOptions(), impl_->snapshots, fmt::SnapshotKey(sg.id, projection, *at), &value).ok()) {
      // Snapshots written before the index, or an index entry whose value
      // cannot be read: seek the values themselves.
      at = impl_->LastSnapshotKey(fmt::SnapshotPrefix(sg.id, projection), sg.lo, hi, &value);
      if (!at) continue;
    }
    const uint64_t seq = *at;
    if (best && seq <= best->seq) continue;
    // Older snapshots (without the binding) are not used.
    const rocksdb::Slice v(value);
    const size_t head = std::string_view(fmt::kSnapshotMagic).size() + Hash128::kBytes;
    if (v.size() < head || !v.starts_with(fmt::kSnapshotMagic)) continue;
    const Hash128 bound = Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data() + head - Hash128::kBytes));
    std::string ev;
    auto gs = impl_->db->Get(rocksdb::ReadOptions(), impl_->events, fmt::EventKey(sg.id, seq), &ev);
    // A read that fails for a reason other than damage (an I/O error; a
    // file a writer beside this read-only ledger deleted) says nothing of
    // the history: an error, not remembered as damage.
    if (!gs.ok() && !gs.IsNotFound() && !gs.IsCorruption()) {
      return FromRocks(gs, "reading the event a snapshot follows");
    }
    if (!gs.ok() || ev.size() <= fmt::kRecordHeaderBytes ||
        !(Hash128::FromBytes(reinterpret_cast<const uint8_t*>(ev.data())) == bound)) {
      Status damaged = Status::Corruption(
          "seq " + std::to_string(seq) + ": " +
          (gs.ok() ? std::string("stored with another chain hash than the history its snapshot was made from (the record was changed)")
                   : gs.IsNotFound() ? std::string("is missing") : gs.ToString()));
      impl_->RecordDamage(game, "reading " + std::string(game) + "/" + std::string(branch) + ": " + damaged.message());
      return damaged;
    }
    value.erase(0, head);
    best = Snapshot{seq, std::move(value)};
  }
  return best;
}

Status Ledger::DeleteSnapshots(std::string_view game) {
  ADJ_RETURN_IF_ERROR(impl_->Recover());
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  impl_->recent_snapshots.Clear();
  auto bs = Branches(game);
  if (!bs.ok()) return bs.status();
  rocksdb::WriteBatch batch;
  for (const auto& b : *bs) {
    std::string lo, hi;
    fmt::PutU64(&lo, b.id);
    fmt::PutU64(&hi, b.id + 1);
    (void)batch.DeleteRange(impl_->snapshots, lo, hi);
    (void)batch.DeleteRange(impl_->snapshots, "\xff" + lo, "\xff" + hi);  // their index (format.h)
    (void)batch.DeleteRange(impl_->snapshots, "\xfe" + lo, "\xfe" + hi);  // the Merkle tree's nodes
  }
  rocksdb::WriteOptions wo;
  return FromRocks(impl_->db->Write(wo, &batch), "deleting snapshots");
}

namespace {

// The id of the lineage segment holding the last leaf of a tree node (seq
// (index + 1) << level), where the node is kept (format.h).
Result<uint64_t> TreeNodeOwner(const std::vector<Segment>& segs, unsigned level, uint64_t index,
                               std::string_view game, std::string_view branch) {
  if (level >= 63 || index >= (UINT64_MAX >> (level + 1))) {
    return Status::InvalidArgument(std::string(game) + "/" + std::string(branch) + ": Merkle tree node " +
                                   std::to_string(level) + "/" + std::to_string(index) + " is out of range");
  }
  const uint64_t last = (index + 1) << level;
  for (const Segment& sg : segs) {
    if (last >= sg.lo && last <= sg.hi) return sg.id;
  }
  return Status::NotFound(std::string(game) + "/" + std::string(branch) + " has no event " + std::to_string(last) +
                          " (the last of Merkle tree node " + std::to_string(level) + "/" + std::to_string(index) + ")");
}

}  // namespace

Result<std::optional<Ledger::TreeHash>> Ledger::GetTreeNode(std::string_view game, std::string_view branch,
                                                            unsigned level, uint64_t index) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  auto id = TreeNodeOwner(*segs, level, index, game, branch);
  if (!id.ok()) return id.status();
  std::string v;
  auto gs = impl_->db->Get(rocksdb::ReadOptions(), impl_->snapshots, fmt::TreeNodeKey(*id, level, index), &v);
  if (gs.IsNotFound() || (gs.ok() && v.size() != fmt::kTreeNodeBytes)) return std::optional<TreeHash>();
  ADJ_RETURN_IF_ERROR(FromRocks(gs, "reading a Merkle tree node"));
  TreeHash h;
  std::memcpy(h.data(), v.data(), h.size());
  return std::optional<TreeHash>(h);
}

Status Ledger::PutTreeNodes(std::string_view game, std::string_view branch, std::span<const TreeNode> nodes) {
  if (nodes.empty() || impl_->read_only) return Status::Ok();
  // No Recover() here: like a snapshot, a cache written from inside reads.
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  rocksdb::WriteBatch batch;
  for (const TreeNode& n : nodes) {
    auto id = TreeNodeOwner(*segs, n.level, n.index, game, branch);
    if (!id.ok()) return id.status();
    (void)batch.Put(impl_->snapshots, fmt::TreeNodeKey(*id, n.level, n.index),
                    rocksdb::Slice(reinterpret_cast<const char*>(n.hash.data()), n.hash.size()));
  }
  rocksdb::WriteOptions wo;  // a cache: no sync
  rocksdb::Status st = impl_->db->Write(wo, &batch);
  if (!st.ok()) impl_->write_failed = true;
  return FromRocks(st, "writing Merkle tree nodes");
}

Result<bool> Ledger::HasTreeNodes(std::string_view game, std::string_view branch) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(rocksdb::ReadOptions(), impl_->snapshots));
  for (const Segment& sg : *segs) {
    const std::string prefix = fmt::TreeNodePrefix(sg.id);
    it->Seek(prefix);
    if (it->Valid() && it->key().starts_with(prefix)) return true;
    ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "seeking Merkle tree nodes"));
  }
  return false;
}

Status Ledger::ForEachTreeNode(std::string_view game, std::string_view branch,
                               const std::function<void(const TreeNode&)>& each) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro, impl_->snapshots));
  for (const Segment& sg : *segs) {
    const std::string prefix = fmt::TreeNodePrefix(sg.id);  // then the level (a byte) and the index
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      if (it->key().size() != prefix.size() + 1 + 8 || it->value().size() != fmt::kTreeNodeBytes) continue;
      TreeNode n;
      n.level = static_cast<uint8_t>(it->key()[prefix.size()]);
      n.index = fmt::GetU64(it->key().data() + prefix.size() + 1);
      // Only the nodes this lineage reaches through this segment (a
      // parent's past the fork point are another branch's).
      auto owner = TreeNodeOwner(*segs, n.level, n.index, game, branch);
      if (!owner.ok() || *owner != sg.id) continue;
      std::memcpy(n.hash.data(), it->value().data(), n.hash.size());
      each(n);
    }
    ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "reading Merkle tree nodes"));
  }
  return Status::Ok();
}

}  // namespace adjutant::ledger
