#include "support/raw_db.h"

#include <rocksdb/db.h>

#include <memory>
#include <stdexcept>

#include "ledger/format.h"

namespace adjutant::testing {
namespace {

struct RawDb {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::ColumnFamilyHandle* events() { return handles[1]; }

  explicit RawDb(const std::string& dir) {
    namespace f = ledger::format;
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {
        {rocksdb::kDefaultColumnFamilyName, {}}, {f::kCfEvents, {}}, {f::kCfGames, {}}, {f::kCfBranches, {}},
        {f::kCfTurns, {}}, {f::kCfIdempotency, {}}, {f::kCfSnapshots, {}}};
    rocksdb::DB* raw = nullptr;
    auto s = rocksdb::DB::Open(rocksdb::DBOptions(), dir, cfs, &handles, &raw);
    if (!s.ok()) throw std::runtime_error("raw open: " + s.ToString());
    db.reset(raw);
  }
  ~RawDb() {
    for (auto* h : handles) (void)db->DestroyColumnFamilyHandle(h);
    (void)db->Close();
  }
};

}  // namespace

std::string ReadEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq) {
  RawDb r(dir);
  std::string v;
  (void)r.db->Get(rocksdb::ReadOptions(), r.events(), ledger::format::EventKey(branch_id, seq), &v);
  return v;
}

bool MutateEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq,
                       const std::function<void(std::string&)>& mutate) {
  RawDb r(dir);
  std::string key = ledger::format::EventKey(branch_id, seq), v;
  if (!r.db->Get(rocksdb::ReadOptions(), r.events(), key, &v).ok()) return false;
  mutate(v);
  return r.db->Put(rocksdb::WriteOptions(), r.events(), key, v).ok();
}

bool PutEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq, const std::string& record) {
  RawDb r(dir);
  return r.db->Put(rocksdb::WriteOptions(), r.events(), ledger::format::EventKey(branch_id, seq), record).ok();
}

bool DeleteEventRecord(const std::string& dir, uint64_t branch_id, uint64_t seq) {
  RawDb r(dir);
  return r.db->Delete(rocksdb::WriteOptions(), r.events(), ledger::format::EventKey(branch_id, seq)).ok();
}

bool SwapEventRecords(const std::string& dir, uint64_t branch_id, uint64_t a, uint64_t b) {
  RawDb r(dir);
  std::string ka = ledger::format::EventKey(branch_id, a), kb = ledger::format::EventKey(branch_id, b), va, vb;
  if (!r.db->Get(rocksdb::ReadOptions(), r.events(), ka, &va).ok()) return false;
  if (!r.db->Get(rocksdb::ReadOptions(), r.events(), kb, &vb).ok()) return false;
  return r.db->Put(rocksdb::WriteOptions(), r.events(), ka, vb).ok() &&
         r.db->Put(rocksdb::WriteOptions(), r.events(), kb, va).ok();
}

}  // namespace adjutant::testing
