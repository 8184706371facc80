#include "cli/common.h"

#include <chrono>

#include "base/utc.h"

#include <sys/stat.h>

#include <algorithm>

#include <cstdio>
#include <fstream>
#include <iostream>

#include <flatbuffers/flatbuffers.h>

#include "base/signing.h"
#include "cli/commands.h"
#include "schema/codec.h"

namespace adjutant::cli {

Capture*& CurrentCapture() {
  thread_local Capture* capture = nullptr;
  return capture;
}

std::shared_ptr<const mail::Settings>& DeskMailSettings() {
  static std::shared_ptr<const mail::Settings> settings;
  return settings;
}

std::shared_ptr<const signing::SigningKey>& DeskSigner() {
  static std::shared_ptr<const signing::SigningKey> key;
  return key;
}

Status LoadSigner(Context& c) {
  auto path = c.args.Value("signing-key");
  const bool through_desk = CurrentCapture() && CurrentCapture()->inputs;
  if (!path) {
    if (through_desk) c.signer = DeskSigner();
    return Status::Ok();
  }
  if (!through_desk) ADJ_RETURN_IF_ERROR(signing::SigningKey::CheckFileMode(*path));
  auto text = ReadFile(*path, 1024);
  if (!text.ok()) return text.status();
  auto key = signing::SigningKey::FromText(std::move(text).value(), *path);
  if (!key.ok()) return key.status();
  c.signer = std::make_shared<const signing::SigningKey>(std::move(key).value());
  return Status::Ok();
}

ClientRecord*& CurrentRecord() {
  thread_local ClientRecord* record = nullptr;
  return record;
}

bool InputExists(const std::string& path) {
  if (Capture* cap = CurrentCapture(); cap && cap->inputs) return cap->inputs->files.count(path) != 0;
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

bool InputMade(const std::string& path, bool made_here) {
  if (Capture* cap = CurrentCapture(); cap && cap->inputs) return cap->inputs->made.count(path) != 0;
  if (made_here) {
    if (ClientRecord* r = CurrentRecord()) r->made.insert(path);
  }
  return made_here;
}

void Out(const std::string& s) {
  if (ClientRecord* r = CurrentRecord()) r->printed = true;
  if (Capture* c = CurrentCapture()) {
    c->out += s;
    return;
  }
  std::fwrite(s.data(), 1, s.size(), stdout);
}
void Line(const std::string& s) { Out(s + "\n"); }

Status WriteSvg(const std::string& path, const std::string& svg, const std::string& what, bool* to_stdout) {
  *to_stdout = path == "-";
  if (*to_stdout) {
    Out(svg);
    return Status::Ok();
  }
  if (CurrentCapture()) return Status::InvalidArgument("--svg " + path + ": the order desk writes no file (--svg -)");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << svg;
  out.close();
  if (!out) return Status::IOError(path + ": cannot write " + what);
  return Status::Ok();
}

Status PrintJson(std::string_view table, flatbuffers::FlatBufferBuilder& fbb) {
  auto j = schema::ToJson(table, fbb.GetBufferPointer());
  if (!j.ok()) return j.status();
  Line(*j);
  return Status::Ok();
}

namespace {
Result<std::string> ReadFromDisk(const std::string& path, size_t limit);
}  // namespace

Result<std::string> ReadFile(const std::string& path, size_t limit) {
  // A command run for another process (RunShared) reads what was sent with
  // it: "-" the desk's request body, a file its client read. Never a file.
  if (Capture* cap = CurrentCapture(); cap && cap->inputs) {
    auto it = cap->inputs->files.find(path);
    if (it == cap->inputs->files.end()) {
      if (path == "-") return std::string();
      return Status::InvalidArgument(path + ": the order desk reads no file a command names (the adjutant "
                                     "command sends what it reads)");
    }
    if (it->second.size() > limit) {
      return Status::InvalidArgument((path == "-" ? std::string("standard input") : path) + " is over the limit of " +
                                     std::to_string(limit) + " bytes");
    }
    return it->second;
  }
  auto data = ReadFromDisk(path, limit);
  if (data.ok()) {
    if (ClientRecord* r = CurrentRecord()) r->files[path] = *data;
  }
  return data;
}

namespace {
Result<std::string> ReadFromDisk(const std::string& path, size_t limit) {
  std::ifstream file;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) return Status::InvalidArgument(path + ": cannot open file");
  }
  std::istream& in = path == "-" ? std::cin : file;
  std::string data;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<size_t>(in.gcount()));
    if (data.size() > limit) {
      return Status::InvalidArgument((path == "-" ? std::string("standard input") : path) + " is over the limit of " +
                                     std::to_string(limit) + " bytes");
    }
  }
  return data;
}
}  // namespace

Result<DbRef> OpenDb(const Context& c, bool write, bool create) {
  if (Capture* cap = CurrentCapture(); cap && cap->shared) return DbRef(cap->shared);
  ledger::OpenOptions o;
  o.read_only = !write;
  o.create_if_missing = create;
  auto db = ledger::Ledger::Open(c.db, o);
  if (!db.ok()) {
    if (ClientRecord* r = CurrentRecord(); r && db.status().code() == Status::Code::kBusy) r->busy = true;
    return db.status();
  }
  return DbRef(std::move(db).value());
}

Result<uint64_t> U64Option(const Args& a, const std::string& name, uint64_t fallback) {
  auto v = a.Value(name);
  if (!v) return fallback;
  auto n = ParseU64(*v);
  if (!n) return Status::InvalidArgument("--" + name + ": '" + *v + "' is not a whole number");
  return *n;
}

Result<std::vector<uint8_t>> ReadDocument(const std::string& path, std::string_view table, size_t limit) {
  auto text = ReadFile(path, limit);
  if (!text.ok()) return text.status();
  return schema::ParseJson(table, *text, path == "-" ? "stdin" : path);
}

std::string BranchArg(const Context& c, const std::string& game) {
  if (auto b = c.args.Value("branch")) return *b;
  auto db = OpenDb(c, false);
  if (db.ok()) {
    auto current = (*db)->Current(game);
    if (current.ok()) return *current;
  }
  return "main";
}

ops::Env CliEnv(const Context& c) {
  ops::Env env;
  env.dir = c.db;
  env.open = [&c](bool write) -> Result<std::shared_ptr<ledger::Ledger>> {
    auto db = OpenDb(c, write);
    if (!db.ok()) return db.status();
    auto held = std::make_shared<DbRef>(std::move(db).value());
    return std::shared_ptr<ledger::Ledger>(held, &**held);
  };
  env.print = [](const std::string& s) { Out(s); };
  env.signer = c.signer;
  return env;
}

Result<int64_t> NowOption(const Args& a) {
  if (auto t = a.Value("now")) {
    auto v = ParseUtc(*t);
    if (!v) return Status::InvalidArgument("--now: '" + *t + "' is not a UTC time (e.g. 2026-12-06T20:00Z)");
    return *v;
  }
  return static_cast<int64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

}  // namespace adjutant::cli
