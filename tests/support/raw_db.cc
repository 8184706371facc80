#include "support/raw_db.h"

#include <rocksdb/db.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "ledger/format.h"

namespace adjutant::testing {
namespace {

struct RawDb {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::ColumnFamilyHandle* events() { return handles[1]; }
  rocksdb::ColumnFamilyHandle* Named(const std::string& name) {
    for (auto* h : handles) {
      if (h->GetName() == name) return h;
    }
    throw std::runtime_error("no column family " + name);
  }

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

bool DeleteKey(const std::string& dir, const std::string& column_family, const std::string& key) {
  RawDb r(dir);
  return r.db->Delete(rocksdb::WriteOptions(), r.Named(column_family), key).ok();
}

bool PutKey(const std::string& dir, const std::string& column_family, const std::string& key, const std::string& value) {
  RawDb r(dir);
  return r.db->Put(rocksdb::WriteOptions(), r.Named(column_family), key, value).ok();
}

size_t CountKeys(const std::string& dir, const std::string& column_family, const std::string& prefix) {
  RawDb r(dir);
  std::unique_ptr<rocksdb::Iterator> it(r.db->NewIterator(rocksdb::ReadOptions(), r.Named(column_family)));
  size_t n = 0;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) ++n;
  return n;
}

std::vector<std::string> KeysWithPrefix(const std::string& dir, const std::string& column_family,
                                        const std::string& prefix) {
  RawDb r(dir);
  std::unique_ptr<rocksdb::Iterator> it(r.db->NewIterator(rocksdb::ReadOptions(), r.Named(column_family)));
  std::vector<std::string> out;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) out.push_back(it->key().ToString());
  return out;
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

namespace adjutant::testing {

std::vector<std::string> TableFiles(const std::string& dir, const std::string& column_family) {
  std::vector<rocksdb::LiveFileMetaData> files;
  {
    RawDb r(dir);
    r.db->GetLiveFilesMetaData(&files);
  }
  std::erase_if(files, [&](const auto& f) { return f.column_family_name != column_family; });
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.size > b.size; });
  std::vector<std::string> out;
  for (const auto& f : files) out.push_back(dir + "/" + f.relative_filename);
  return out;
}

std::vector<std::string> LogFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".log") out.push_back(e.path().string());
  }
  std::sort(out.rbegin(), out.rend());
  return out;
}

bool FlipByte(const std::string& path, uint64_t offset, uint8_t mask) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  if (!f) return false;
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  if (!f.get(c)) return false;
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ static_cast<char>(mask)));
  return static_cast<bool>(f);
}

}  // namespace adjutant::testing

namespace adjutant::testing {

bool MakeIdempotencyKeyLegacy(const std::string& dir, const std::string& game, const std::string& owner,
                              const std::string& key) {
  RawDb r(dir);
  rocksdb::ColumnFamilyHandle* cf = r.handles[5];  // idempotency (RawDb's order)
  std::string v;
  if (!r.db->Get(rocksdb::ReadOptions(), cf, ledger::format::IdempotencyKey(game, owner, key), &v).ok()) return false;
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return r.db->Delete(wo, cf, ledger::format::IdempotencyKey(game, owner, key)).ok() &&
         r.db->Put(wo, cf, ledger::format::LegacyIdempotencyKey(game, key), v).ok();
}

}  // namespace adjutant::testing
