#include "ledger/ledger.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/cache.h>
#include <rocksdb/slice.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <cstring>
#include <chrono>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "base/limits.h"
#include "ledger/format.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/records_generated.h"

namespace adjutant::ledger {


namespace fmt = format;

const fb::Event* EventView::event() const { return flatbuffers::GetRoot<fb::Event>(bytes.data()); }

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
  if (const fb::Turn* t = e.turn()) tp.turn = {t->major(), t->minor(), t->step()};
  tp.phase = e.phase();
  return tp;
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

// One stretch of a branch's history that lives under one branch id.
struct Segment {
  uint64_t id;
  std::string name;
  uint64_t lo;  // first seq stored under this id
  uint64_t hi;  // last seq visible through this lineage (UINT64_MAX: to the head)
  Hash128 fork_hash;  // for segments after the first: the chain hash at lo - 1
};

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
    // The last event and the head record from one snapshot: an append in
    // between would otherwise look like a damaged head.
    rocksdb::ManagedSnapshot snap(db.get());
    rocksdb::ReadOptions ro;
    ro.snapshot = snap.snapshot();
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro, events));
    it->SeekForPrev(fmt::EventKey(id, UINT64_MAX));
    ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "reading head"));
    if (!it->Valid() || it->key().size() != fmt::kEventKeyBytes || fmt::GetU64(it->key().data()) != id) {
      return Status::Corruption("branch " + std::string(label) + " has no events of its own");
    }
    uint64_t seq = fmt::GetU64(it->key().data() + 8);
    auto recorded = RecordedHead(id, ro);
    if (!recorded.ok()) return recorded.status();
    if (recorded->has_value() && **recorded != seq) {
      return Status::Corruption("branch " + std::string(label) + ": its head is seq " + std::to_string(**recorded) +
                                " but the last event stored is seq " + std::to_string(seq) +
                                (**recorded > seq ? " (events are missing)" : ""));
    }
    AlignedBuffer buf;
    auto v = it->value();
    if (v.size() <= fmt::kRecordHeaderBytes) return Status::Corruption("seq " + std::to_string(seq) + ": record too short");
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
    wo.sync = true;  // nobody is told "done" before the WAL is on disk
    rocksdb::Status s = db->Write(wo, batch);
    if (!s.ok()) write_failed = true;
    return FromRocks(s, "writing batch");
  }

  // An event record.
  static void PutRecord(rocksdb::WriteBatch* batch, rocksdb::ColumnFamilyHandle* cf, uint64_t id,
                        uint64_t seq, const Hash128& h, const uint8_t* data, size_t size) {
    std::string rec(fmt::kRecordHeaderBytes, '\0');
    h.ToBytes(reinterpret_cast<uint8_t*>(rec.data()));
    rec.append(reinterpret_cast<const char*>(data), size);
    (void)batch->Put(cf, fmt::EventKey(id, seq), rec);
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
  rocksdb::DBOptions dbo;
  dbo.create_if_missing = !opts.read_only && opts.create_if_missing;
  dbo.create_missing_column_families = !opts.read_only;
  dbo.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  if (opts.env) dbo.env = opts.env;
  dbo.keep_log_file_num = 4;
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
  impl->cfs = {{rocksdb::kDefaultColumnFamilyName, cfo}, {fmt::kCfGames, cfo},
               {fmt::kCfBranches, cfo}, {fmt::kCfEvents, cfo}, {fmt::kCfTurns, cfo},
               {fmt::kCfIdempotency, cfo}, {fmt::kCfSnapshots, cfo}};
  impl->dbo = dbo;
  // RocksDB makes the directory even when it is told not to create a
  // database: a mistyped --db must leave nothing behind.
  if (!dbo.create_if_missing && !(dbo.env ? dbo.env : rocksdb::Env::Default())->FileExists(dir + "/CURRENT").ok()) {
    return Status::NotFound("no database at " + dir + " (create a game first, or pass --db DIR)");
  }
  rocksdb::Status s = impl->OpenDb(opts.read_only);
  if (!s.ok()) {
    std::string m = s.ToString();
    if (m.find("lock") != std::string::npos || m.find("LOCK") != std::string::npos) {
      return Status::Busy("database " + dir + " is in use by another adjutant process");
    }
    if (s.IsNotFound() || m.find("does not exist") != std::string::npos ||
        m.find("No such file") != std::string::npos) {
      return Status::NotFound("no database at " + dir + " (create a game first, or pass --db DIR)");
    }
    return Status::IOError("cannot open database " + dir + ": " + m);
  }
  rocksdb::DB* raw = impl->db.get();
  std::string v;
  auto fs = raw->Get(rocksdb::ReadOptions(), "format", &v);
  if (fs.ok()) {
    if (v.size() != 4 || fmt::GetU32(v.data()) != fmt::kFormatVersion) {
      return Status::Corruption("database " + dir + " has an unknown format version");
    }
  } else if (fs.IsNotFound() && !opts.read_only) {
    std::string nv;
    fmt::PutU32(&nv, fmt::kFormatVersion);
    rocksdb::WriteOptions wo;
    wo.sync = true;
    auto ps = raw->Put(wo, "format", nv);
    if (!ps.ok()) return FromRocks(ps, "writing format version");
  } else if (!fs.IsNotFound()) {
    return FromRocks(fs, "reading format version");
  }
  return std::unique_ptr<Ledger>(new Ledger(std::move(impl)));
}

Result<Head> Ledger::CreateGame(std::string_view game, uint64_t seed, std::span<const uint8_t> scenario,
                                const TurnPhase& at, const Actor& actor, std::span<const Draft> more) {
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
    auto gc = fb::CreateGameCreated(fbb, seed, flatbuffers::Offset<fb::Scenario>(sc));
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
  ADJ_RETURN_IF_ERROR(impl_->Write(&batch));
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
  ADJ_RETURN_IF_ERROR(impl_->Write(&batch));
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
  rocksdb::WriteBatch batch;
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
    uint64_t fingerprint = request_fingerprint != 0 ? request_fingerprint : Hash64(fingerprint_input);
    auto prior = FindIdempotent(game, idempotency_key);
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
    std::string key = fmt::IdempotencyKey(game, idempotency_key);
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
  ADJ_RETURN_IF_ERROR(impl_->Write(&batch));
  return result;
}

Result<std::optional<Ledger::Idempotent>> Ledger::FindIdempotent(std::string_view game,
                                                                std::string_view key) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  std::string v;
  auto s = impl_->db->Get(rocksdb::ReadOptions(), impl_->idempotency, fmt::IdempotencyKey(game, key), &v);
  if (s.IsNotFound()) return std::optional<Idempotent>();
  ADJ_RETURN_IF_ERROR(FromRocks(s, "reading idempotency record"));
  if (v.size() != fmt::kIdempotencyRecordBytes) {
    return Status::Corruption("idempotency record '" + std::string(key) + "' is damaged");
  }
  Idempotent r;
  r.branch_id = fmt::GetU64(v.data());
  r.result = {fmt::GetU64(v.data() + 8), fmt::GetU64(v.data() + 16),
              Hash128::FromBytes(reinterpret_cast<const uint8_t*>(v.data() + 32)), true};
  r.fingerprint = fmt::GetU64(v.data() + 24);
  return std::optional<Idempotent>(r);
}

Status Ledger::Read(std::string_view game, std::string_view branch, uint64_t from, uint64_t to,
                    const Visitor& visit) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  if (from < 1) from = 1;
  AlignedBuffer buf;
  rocksdb::ReadOptions ro;
  ro.fill_cache = false;
  ro.readahead_size = 2 << 20;
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
    std::string upper = fmt::EventKey(sg.id, hi + 1);
    rocksdb::Slice upper_slice(upper);
    ro.iterate_upper_bound = &upper_slice;
    std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro, impl_->events));
    uint64_t expect = lo;
    for (it->Seek(fmt::EventKey(sg.id, lo)); it->Valid(); it->Next()) {
      auto k = it->key();
      if (k.size() != fmt::kEventKeyBytes) return Status::Corruption("event key of unexpected size in branch " + sg.name);
      uint64_t seq = fmt::GetU64(k.data() + 8);
      if (seq != expect) {
        return Status::Corruption("seq " + std::to_string(expect) + " is missing (next stored is " + std::to_string(seq) + ")");
      }
      auto v = it->value();
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
    ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "reading events of " + sg.name));
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

Result<VerifyReport> Ledger::Verify(std::string_view game, std::string_view branch) const {
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->Ready());
  auto segs = impl_->Lineage(game, branch);
  if (!segs.ok()) return segs.status();
  VerifyReport rep;
  Hash128 prev;
  uint64_t expect = 1;
  AlignedBuffer buf;
  // One snapshot for the events and the head record: appends made while
  // verifying (the desk takes orders meanwhile) are simply not seen.
  rocksdb::ManagedSnapshot snap(impl_->db.get());
  rocksdb::ReadOptions ro;
  ro.snapshot = snap.snapshot();
  ro.fill_cache = false;
  ro.readahead_size = 2 << 20;
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
    std::string upper = sg.hi == UINT64_MAX ? fmt::EventKey(sg.id + 1, 0) : fmt::EventKey(sg.id, sg.hi + 1);
    rocksdb::Slice upper_slice(upper);
    ro.iterate_upper_bound = &upper_slice;
    std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro, impl_->events));
    bool first_of_segment = true;
    for (it->Seek(fmt::EventKey(sg.id, 0)); it->Valid(); it->Next()) {
      auto k = it->key();
      if (k.size() != fmt::kEventKeyBytes) return fail(expect, "event key of unexpected size");
      uint64_t seq = fmt::GetU64(k.data() + 8);
      if (seq != expect) {
        return fail(expect, seq > expect ? "seq " + std::to_string(expect) + " is missing (next stored is " +
                                               std::to_string(seq) + ")"
                                         : "unexpected seq " + std::to_string(seq) + " stored in branch " + sg.name);
      }
      auto v = it->value();
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
    }
    if (!it->status().ok()) return fail(expect, "storage error: " + it->status().ToString());
    if (first_of_segment) return fail(expect, "branch " + sg.name + " has no events of its own");
    if (sg.hi != UINT64_MAX && expect != sg.hi + 1) {
      return fail(expect, "parent branch " + sg.name + " ends at seq " + std::to_string(expect - 1) +
                              " before the fork point " + std::to_string(sg.hi));
    }
    if (sg.hi == UINT64_MAX) {
      // The branch ends where its last batch said it would (format.h head/).
      auto recorded = impl_->RecordedHead(sg.id, ro);
      if (!recorded.ok()) return recorded.status();
      if (recorded->has_value() && **recorded != expect - 1) {
        return fail(expect, **recorded > expect - 1 ? "seq " + std::to_string(expect) + " is missing (the branch's head is seq " +
                                                          std::to_string(**recorded) + ")"
                                                    : "the branch's head record says seq " + std::to_string(**recorded));
      }
    }
  }
  return rep;
}

Status Ledger::PutSnapshot(std::string_view game, std::string_view branch, std::string_view projection,
                           uint64_t seq, std::string_view bytes) {
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
  rocksdb::WriteOptions wo;  // a cache: no sync
  rocksdb::Status st = impl_->db->Put(wo, impl_->snapshots, fmt::SnapshotKey(id, projection, seq),
                                      rocksdb::Slice(bytes.data(), bytes.size()));
  if (!st.ok()) impl_->write_failed = true;  // the next write resumes or reopens the database
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
    std::string prefix = fmt::SnapshotPrefix(sg.id, projection);
    // Bounded to this branch's snapshots of this view: an unbounded seek
    // back lands on another view's (megabytes of visibility) and reads it
    // only to reject it.
    const std::string lower = fmt::SnapshotKey(sg.id, projection, sg.lo);
    rocksdb::Slice lower_slice(lower);
    rocksdb::ReadOptions ro;
    ro.iterate_lower_bound = &lower_slice;
    std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(ro, impl_->snapshots));
    it->SeekForPrev(fmt::SnapshotKey(sg.id, projection, hi));
    ADJ_RETURN_IF_ERROR(FromRocks(it->status(), "reading snapshots"));
    if (!it->Valid() || !it->key().starts_with(prefix) || it->key().size() != prefix.size() + 8) continue;
    uint64_t seq = fmt::GetU64(it->key().data() + prefix.size());
    if (seq < sg.lo) continue;
    if (!best || seq > best->seq) best = Snapshot{seq, it->value().ToString()};
  }
  return best;
}

Status Ledger::DeleteSnapshots(std::string_view game) {
  ADJ_RETURN_IF_ERROR(impl_->Recover());
  auto use = impl_->Use();
  ADJ_RETURN_IF_ERROR(impl_->CheckWritable());
  auto bs = Branches(game);
  if (!bs.ok()) return bs.status();
  rocksdb::WriteBatch batch;
  for (const auto& b : *bs) {
    std::string lo, hi;
    fmt::PutU64(&lo, b.id);
    fmt::PutU64(&hi, b.id + 1);
    (void)batch.DeleteRange(impl_->snapshots, lo, hi);
  }
  rocksdb::WriteOptions wo;
  return FromRocks(impl_->db->Write(wo, &batch), "deleting snapshots");
}

}  // namespace adjutant::ledger
