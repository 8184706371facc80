#include "support/fault_fs.h"

#include <rocksdb/env.h>
#include <rocksdb/file_system.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace adjutant::testing {

namespace {

using rocksdb::FileOptions;
using rocksdb::FSSequentialFile;
using rocksdb::FSWritableFile;
using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;
using rocksdb::Slice;

}  // namespace

struct FaultFs::Impl {
  std::mutex mu;
  std::map<std::string, uint64_t> synced;  // file → bytes synced
  std::map<std::string, uint64_t> written;  // file → bytes written
  std::atomic<bool> full{false};
  std::atomic<int> fail_log_opens{0}, hide_logs{0};
  std::atomic<int> met_log_opens{0}, met_hidden{0};
  std::shared_ptr<rocksdb::FileSystem> fs;
  std::unique_ptr<rocksdb::Env> env;
};

namespace {

class File : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  File(std::unique_ptr<FSWritableFile>&& f, std::string name, FaultFs::Impl* impl)
      : FSWritableFileOwnerWrapper(std::move(f)), name_(std::move(name)), impl_(impl) {}
  IOStatus Append(const Slice& data, const IOOptions& o, IODebugContext* d) override {
    if (impl_->full) return IOStatus::NoSpace("the disk is full (FaultFs)");
    IOStatus s = FSWritableFileOwnerWrapper::Append(data, o, d);
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(impl_->mu);
      impl_->written[name_] += data.size();
    }
    return s;
  }
  IOStatus Append(const Slice& data, const IOOptions& o, const rocksdb::DataVerificationInfo&, IODebugContext* d) override {
    return Append(data, o, d);
  }
  IOStatus Sync(const IOOptions& o, IODebugContext* d) override { return Synced(FSWritableFileOwnerWrapper::Sync(o, d)); }
  IOStatus Fsync(const IOOptions& o, IODebugContext* d) override { return Synced(FSWritableFileOwnerWrapper::Fsync(o, d)); }
  IOStatus RangeSync(uint64_t, uint64_t, const IOOptions&, IODebugContext*) override { return IOStatus::OK(); }
  IOStatus Close(const IOOptions& o, IODebugContext* d) override { return FSWritableFileOwnerWrapper::Close(o, d); }

 private:
  IOStatus Synced(IOStatus s) {
    if (impl_->full) return IOStatus::NoSpace("the disk is full (FaultFs)");
    if (s.ok()) {
      std::lock_guard<std::mutex> lock(impl_->mu);
      impl_->synced[name_] = impl_->written[name_];
    }
    return s;
  }
  std::string name_;
  FaultFs::Impl* impl_;
};

bool IsLog(const std::string& name) { return name.size() > 4 && name.compare(name.size() - 4, 4, ".log") == 0; }

// Takes one of `n` if any is left.
bool Take(std::atomic<int>& n) {
  for (int v = n.load(); v > 0;) {
    if (n.compare_exchange_weak(v, v - 1)) return true;
  }
  return false;
}

class Fs : public rocksdb::FileSystemWrapper {
 public:
  Fs(std::shared_ptr<rocksdb::FileSystem> base, FaultFs::Impl* impl) : FileSystemWrapper(std::move(base)), impl_(impl) {}
  const char* Name() const override { return "AdjutantFaultFs"; }
  IOStatus NewSequentialFile(const std::string& f, const FileOptions& o, std::unique_ptr<FSSequentialFile>* r,
                             IODebugContext* d) override {
    if (IsLog(f) && Take(impl_->fail_log_opens)) {
      ++impl_->met_log_opens;
      return IOStatus::PathNotFound("While open a file for sequential reading: " + f + ": No such file or directory (FaultFs)");
    }
    return FileSystemWrapper::NewSequentialFile(f, o, r, d);
  }
  IOStatus GetChildren(const std::string& dir, const IOOptions& o, std::vector<std::string>* r,
                       IODebugContext* d) override {
    IOStatus s = FileSystemWrapper::GetChildren(dir, o, r, d);
    if (s.ok() && std::any_of(r->begin(), r->end(), IsLog) && Take(impl_->hide_logs)) {
      r->erase(std::remove_if(r->begin(), r->end(), IsLog), r->end());
      ++impl_->met_hidden;
    }
    return s;
  }
  IOStatus NewWritableFile(const std::string& f, const FileOptions& o, std::unique_ptr<FSWritableFile>* r,
                           IODebugContext* d) override {
    if (impl_->full) return IOStatus::NoSpace("the disk is full (FaultFs)");
    IOStatus s = FileSystemWrapper::NewWritableFile(f, o, r, d);
    if (s.ok()) {
      {
        std::lock_guard<std::mutex> lock(impl_->mu);
        impl_->written[f] = 0;
        impl_->synced[f] = 0;
      }
      *r = std::make_unique<File>(std::move(*r), f, impl_);
    }
    return s;
  }
  IOStatus ReopenWritableFile(const std::string& f, const FileOptions& o, std::unique_ptr<FSWritableFile>* r,
                              IODebugContext* d) override {
    IOStatus s = FileSystemWrapper::ReopenWritableFile(f, o, r, d);
    if (s.ok()) {
      uint64_t size = 0;
      (void)FileSystemWrapper::GetFileSize(f, IOOptions(), &size, d);
      {
        std::lock_guard<std::mutex> lock(impl_->mu);
        impl_->written[f] = size;
        impl_->synced[f] = size;
      }
      *r = std::make_unique<File>(std::move(*r), f, impl_);
    }
    return s;
  }

 private:
  FaultFs::Impl* impl_;
};

}  // namespace

FaultFs::FaultFs() : impl_(std::make_shared<Impl>()) {
  impl_->fs = std::make_shared<Fs>(rocksdb::FileSystem::Default(), impl_.get());
  impl_->env = rocksdb::NewCompositeEnv(impl_->fs);
}
FaultFs::~FaultFs() = default;
rocksdb::Env* FaultFs::env() { return impl_->env.get(); }
void FaultFs::SetFull(bool full) { impl_->full = full; }
void FaultFs::FailLogOpens(int n) { impl_->fail_log_opens = n; }
void FaultFs::HideLogs(int n) { impl_->hide_logs = n; }
int FaultFs::MetLogOpens() const { return impl_->met_log_opens; }
int FaultFs::MetHiddenLogs() const { return impl_->met_hidden; }

uint64_t FaultFs::DropUnsynced() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  uint64_t dropped = 0;
  for (const auto& [name, synced] : impl_->synced) {
    const uint64_t written = impl_->written[name];
    if (written > synced && truncate(name.c_str(), static_cast<off_t>(synced)) == 0) dropped += written - synced;
  }
  return dropped;
}

}  // namespace adjutant::testing
