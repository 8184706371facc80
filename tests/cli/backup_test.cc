// Backups (ledger/backup.h, `adjutant backup` / `adjutant restore`): taken
// while orders keep coming, through the library and through a live desk;
// restored and verified into a new directory; incremental; never over an
// existing directory; a damaged backup refused with exit 3.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "support/build_paths.h"
#include "ledger/backup.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"
#include "support/desk_client.h"
#include "support/raw_db.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string F = ADJUTANT_FIXTURES;

void CreateBattle(ledger::Ledger& db, const std::string& game = "b") {
  REQUIRE(testing::CreateTalavera(db, game, false).ok());
}

std::string OrdersJson(const std::string& side) { return Slurp(F + "/orders/dog-talavera/m1-" + side + ".orders.json"); }

Result<replay::SubmitReport> Submit(ledger::Ledger& db, int i, const std::string& game = "b") {
  const bool british = i % 2 == 0;
  auto o = schema::ParseJson("OrderFile", OrdersJson(british ? "British" : "French"), "o");
  if (!o.ok()) return o.status();
  return replay::SubmitOrders(db, game, "main", british ? "wellesley" : "victor", *o, {.idempotency_key = "w-" + std::to_string(i)});
}

// Whose key "w-I" is (keys are their sender's): Submit's general.
std::string OwnerOfKey(const std::string& key) {
  return ledger::IdempotencyOwner(ActorKind::kPlayer, std::stoi(key.substr(2)) % 2 == 0 ? "wellesley" : "victor");
}

struct Logged {
  uint64_t seq;
  Hash128 hash;
  std::string bytes;
};
std::vector<Logged> Log(const ledger::Ledger& db, const std::string& game, uint64_t to = UINT64_MAX) {
  std::vector<Logged> out;
  REQUIRE(db.Read(game, "main", 1, to, [&](const ledger::EventView& e) {
              out.push_back({e.seq, e.hash, std::string(reinterpret_cast<const char*>(e.bytes.data()), e.bytes.size())});
              return Status::Ok();
            }).ok());
  return out;
}

// Every file of a directory tree, relative to it.
std::vector<std::string> FilesUnder(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void FlipByte(const std::string& path, size_t at) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  REQUIRE(f);
  f.seekg(static_cast<std::streamoff>(at));
  char c = 0;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(at));
  f.put(static_cast<char>(c ^ 0x40));
}

// Waits (bounded: only against a hang) until `pred` holds.
template <typename P>
void WaitFor(P pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (!pred()) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

TEST_CASE("backup: taken while a writer keeps submitting orders, it restores verified with every order acknowledged "
          "before it, and its log is the source's up to its head",
          "[backup]") {
  TempDir dir;
  auto opened = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(opened.ok());
  ledger::Ledger& db = **opened;
  CreateBattle(db);
  // A file of the database directory that is not RocksDB's: it stays behind.
  std::ofstream(dir.Sub("db/not-rocksdb.txt")) << "from elsewhere";

  struct Ack {
    std::string key;
    uint64_t first_seq, last_seq;
  };
  std::mutex mu;
  std::vector<Ack> acks;
  std::atomic<bool> stop{false};
  std::string writer_error;
  std::thread writer([&] {
    for (int i = 0; i < 5000 && !stop; ++i) {
      auto r = Submit(db, i);
      std::lock_guard<std::mutex> lock(mu);
      if (!r.ok()) {
        writer_error = r.status().message();
        return;
      }
      acks.push_back({"w-" + std::to_string(i), r->append.first_seq, r->append.last_seq});
    }
  });
  auto acked = [&] {
    std::lock_guard<std::mutex> lock(mu);
    return writer_error.empty() ? acks.size() : SIZE_MAX;  // a failed writer ends the waits
  };
  WaitFor([&] { return acked() >= 20; });
  std::vector<Ack> before;
  {
    std::lock_guard<std::mutex> lock(mu);
    before = acks;
  }
  auto made = ledger::CreateBackup(db, dir.Sub("backups"));
  INFO(made.status().message());
  REQUIRE(made.ok());
  CHECK(made->backup.id == 1);
  // The writer went on during and after the backup.
  const size_t at_backup = acked();
  WaitFor([&] { return acked() >= at_backup + 10; });
  stop = true;
  writer.join();
  INFO(writer_error);
  REQUIRE(writer_error.empty());

  auto rep = ledger::RestoreBackup(dir.Sub("backups"), std::nullopt, dir.Sub("restored"));
  INFO(rep.status().message());
  REQUIRE(rep.ok());
  CHECK(rep->id == 1);
  CHECK(rep->games == 1);
  CHECK(rep->branches == 1);
  CHECK(!fs::exists(dir.Sub("restored/not-rocksdb.txt")));
  for (const auto& f : FilesUnder(dir.Sub("restored"))) CHECK(f.find("restoring") == std::string::npos);

  ledger::OpenOptions ro;
  ro.read_only = true;
  auto restored = ledger::Ledger::Open(dir.Sub("restored"), ro);
  REQUIRE(restored.ok());
  auto head = (*restored)->HeadOf("b", "main");
  REQUIRE(head.ok());
  auto v = (*restored)->Verify("b", "main");
  REQUIRE(v.ok());
  CHECK(v->ok);
  // Every order acknowledged before the backup began is in it, where it was.
  for (const Ack& a : before) {
    INFO(a.key);
    CHECK(head->seq >= a.last_seq);
    auto found = (*restored)->FindIdempotent("b", OwnerOfKey(a.key), a.key);
    REQUIRE(found.ok());
    REQUIRE(found->has_value());
    CHECK((*found)->result.first_seq == a.first_seq);
    CHECK((*found)->result.last_seq == a.last_seq);
  }
  // The restored log is the source's, event for event, up to its head: the
  // same head hash at that seq.
  const auto source_log = Log(db, "b", head->seq);
  const auto restored_log = Log(**restored, "b");
  REQUIRE(restored_log.size() == head->seq);
  REQUIRE(source_log.size() == restored_log.size());
  for (size_t i = 0; i < source_log.size(); ++i) {
    REQUIRE(source_log[i].hash == restored_log[i].hash);
    REQUIRE(source_log[i].bytes == restored_log[i].bytes);
  }
  CHECK(source_log.back().hash == head->hash);
}

TEST_CASE("backup: a second backup into the same directory copies only what changed", "[backup]") {
  TempDir dir;
  // One process holding the database throughout, as a server does.
  ledger::BackupMade first, second;
  {
    auto db = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(db.ok());
    CreateBattle(**db);
    for (int i = 0; i < 40; ++i) REQUIRE(Submit(**db, i).ok());
    auto one = ledger::CreateBackup(**db, dir.Sub("bk"));
    REQUIRE(one.ok());
    first = *one;
    for (int i = 40; i < 44; ++i) REQUIRE(Submit(**db, i).ok());
    auto two = ledger::CreateBackup(**db, dir.Sub("bk"));
    REQUIRE(two.ok());
    second = *two;
  }
  INFO("first: " << first.backup.bytes << " bytes in " << first.backup.files << " files, new " << first.new_bytes
                 << " in " << first.new_files << "; second: " << second.backup.bytes << " in " << second.backup.files
                 << ", new " << second.new_bytes << " in " << second.new_files);
  CHECK(first.new_bytes == first.backup.bytes);  // the first copies everything
  CHECK(second.backup.id == 2);
  // The second shares the first's table files: it copies less than it
  // holds, and less than the first copied.
  CHECK(second.new_bytes < second.backup.bytes);
  CHECK(second.new_files < second.backup.files);
  CHECK(second.new_bytes < first.new_bytes);
  CHECK(second.backup.bytes - second.new_bytes >= first.backup.bytes / 2);
  // The CLI says the same.
  auto third = Adjutant({"--db", dir.Sub("db"), "backup", "--to", dir.Sub("bk"), "--json"});
  INFO(third.err);
  REQUIRE(third.code == 0);
  CHECK(third.out.find("\"id\": 3") != std::string::npos);
  CHECK(third.out.find("\"new_bytes\": ") != std::string::npos);

  auto list = Adjutant({"backup", "--list", "--to", dir.Sub("bk")});
  REQUIRE(list.code == 0);
  CHECK(testing::Lines(list.out).size() == 3);
  CHECK(list.out.find("backup 1  20") == 0);
  auto json = Adjutant({"backup", "--list", "--to", dir.Sub("bk"), "--json"});
  REQUIRE(json.code == 0);
  CHECK(json.out.find("\"backups\": [") != std::string::npos);
  CHECK(json.out.find("\"time_utc\": \"20") != std::string::npos);
  // Either backup restores; the first without the later orders.
  auto r1 = Adjutant({"restore", "--from", dir.Sub("bk"), "--backup", "1", "--to", dir.Sub("r1"), "--json"});
  INFO(r1.err);
  REQUIRE(r1.code == 0);
  auto r2 = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", dir.Sub("r2")});
  INFO(r2.err);
  REQUIRE(r2.code == 0);
  CHECK(r2.out.find("restored backup 3") == 0);
  ledger::OpenOptions ro;
  ro.read_only = true;
  auto a = ledger::Ledger::Open(dir.Sub("r1"), ro);
  auto b = ledger::Ledger::Open(dir.Sub("r2"), ro);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(!(*a)->FindIdempotent("b", OwnerOfKey("w-40"), "w-40")->has_value());
  CHECK((*a)->FindIdempotent("b", OwnerOfKey("w-39"), "w-39")->has_value());
  CHECK((*b)->FindIdempotent("b", OwnerOfKey("w-43"), "w-43")->has_value());

  // --keep N: the N newest stay, the older go with the files only they needed.
  auto fourth = Adjutant({"--db", dir.Sub("db"), "backup", "--to", dir.Sub("bk"), "--keep", "2"});
  INFO(fourth.err);
  REQUIRE(fourth.code == 0);
  CHECK(fourth.out.find("; 2 older deleted (--keep 2)") != std::string::npos);
  auto kept = Adjutant({"backup", "--list", "--to", dir.Sub("bk")});
  REQUIRE(testing::Lines(kept.out).size() == 2);
  CHECK(kept.out.find("backup 3  ") == 0);
  CHECK(kept.out.find("\nbackup 4  ") != std::string::npos);
  CHECK(!fs::exists(dir.Sub("bk/private/1")));
  auto gone = Adjutant({"restore", "--from", dir.Sub("bk"), "--backup", "1", "--to", dir.Sub("r-gone")});
  CHECK(gone.code == 2);
  auto latest = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", dir.Sub("r4")});
  INFO(latest.err);
  CHECK(latest.code == 0);
  CHECK(latest.out.find("restored backup 4") == 0);
}

TEST_CASE("restore: never into an existing non-empty directory, and the list of an empty directory says so",
          "[backup]") {
  TempDir dir;
  {
    auto db = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(db.ok());
    CreateBattle(**db);
  }
  REQUIRE(Adjutant({"--db", dir.Sub("db"), "backup", "--to", dir.Sub("bk")}).code == 0);
  fs::create_directories(dir.Sub("busy"));
  std::ofstream(dir.Sub("busy/keep")) << "mine";
  for (const std::string& target : {dir.Sub("busy"), dir.Sub("db"), dir.Sub("busy/keep")}) {
    INFO(target);
    const auto before = FilesUnder(target == dir.Sub("busy/keep") ? dir.Sub("busy") : target);
    auto r = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", target});
    CHECK(r.code == 2);
    CHECK(r.err.find("--to: " + target) != std::string::npos);
    CHECK(r.err.find("never overwrite") != std::string::npos);
    CHECK(FilesUnder(target == dir.Sub("busy/keep") ? dir.Sub("busy") : target) == before);
  }
  CHECK(Slurp(dir.Sub("busy/keep")) == "mine");
  // Nor does a backup go into the database's own directory.
  auto own = Adjutant({"--db", dir.Sub("db"), "backup", "--to", dir.Sub("db")});
  CHECK(own.code == 2);
  CHECK(own.err.find("is the database's own directory") != std::string::npos);
  // An empty directory is a fine target.
  fs::create_directories(dir.Sub("empty"));
  auto ok = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", dir.Sub("empty")});
  INFO(ok.err);
  CHECK(ok.code == 0);
  CHECK(Adjutant({"--db", dir.Sub("empty"), "verify", "b"}).code == 0);
  // Nothing to list, nothing to restore.
  auto none = Adjutant({"backup", "--list", "--to", dir.Sub("nothing")});
  CHECK(none.code == 2);
  CHECK(none.err.find("no backups in " + dir.Sub("nothing")) != std::string::npos);
  CHECK(!fs::exists(dir.Sub("nothing")));
  auto missing = Adjutant({"restore", "--from", dir.Sub("bk"), "--backup", "7", "--to", dir.Sub("r7")});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("no backup 7") != std::string::npos);
  CHECK(!fs::exists(dir.Sub("r7")));
}

TEST_CASE("restore: a damaged backup file is refused with exit 3, naming it, and nothing is restored", "[backup]") {
  TempDir dir;
  {
    auto db = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(db.ok());
    CreateBattle(**db);
    for (int i = 0; i < 10; ++i) REQUIRE(Submit(**db, i).ok());
  }
  REQUIRE(Adjutant({"--db", dir.Sub("db"), "backup", "--to", dir.Sub("bk")}).code == 0);
  // Every file the backup holds (table files, the MANIFEST, the WAL, OPTIONS,
  // CURRENT), one flipped byte at a time.
  int tried = 0;
  for (const auto& rel : FilesUnder(dir.Sub("bk"))) {
    if (rel.rfind("meta/", 0) == 0) continue;  // the backup's own description: below
    const std::string path = dir.Sub("bk/" + rel);
    const auto size = fs::file_size(path);
    if (size == 0) continue;
    INFO(rel);
    const std::string saved = Slurp(path);
    FlipByte(path, size / 2);
    auto r = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", dir.Sub("r")});
    CHECK(r.code == 3);
    CHECK(r.err.find("restoring backup 1 of " + dir.Sub("bk")) != std::string::npos);
    CHECK(r.err.find("the backup is damaged") != std::string::npos);
    CHECK(r.err.find("Checksum mismatch for " + path) != std::string::npos);  // the file named
    CHECK(!fs::exists(dir.Sub("r")));
    std::ofstream(path, std::ios::binary | std::ios::trunc) << saved;
    ++tried;
  }
  CHECK(tried >= 4);
  auto ok = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", dir.Sub("r")});
  INFO(ok.err);
  CHECK(ok.code == 0);
  // No staging directory is left behind by the failures.
  for (const auto& e : fs::directory_iterator(dir.path())) {
    CHECK(e.path().filename().string().find("restoring") == std::string::npos);
  }
}

TEST_CASE("restore: a backup of a damaged ledger fails verification, naming the game, branch and seq, exit 3",
          "[backup]") {
  TempDir dir;
  uint64_t id = 0;
  {
    auto db = ledger::Ledger::Open(dir.Sub("db"));
    REQUIRE(db.ok());
    CreateBattle(**db);
    for (int i = 0; i < 4; ++i) REQUIRE(Submit(**db, i).ok());
    id = (*db)->Branch("b", "main")->id;
  }
  // Damage RocksDB accepts as data (a changed event record): the backup
  // copies it faithfully, and only the ledger's verify can find it.
  REQUIRE(testing::MutateEventRecord(dir.Sub("db"), id, 3, [](std::string& r) { r[r.size() / 2] ^= 1; }));
  auto b = Adjutant({"--db", dir.Sub("db"), "backup", "--to", dir.Sub("bk")});
  INFO(b.err);
  REQUIRE(b.code == 0);
  auto r = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", dir.Sub("r")});
  CHECK(r.code == 3);
  CHECK(r.err.find("fails verification: game b, branch main, seq 3") != std::string::npos);
  CHECK(!fs::exists(dir.Sub("r")));
}

TEST_CASE("backup: the desk backs up the database it serves while players submit orders — the CLI, refused the held "
          "database, says how — the restore holds every order acknowledged before the backup",
          "[backup][desk]") {
  REQUIRE(sodium_init() >= 0);
  TempDir dir;
  auto opened = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(opened.ok());
  ledger::Ledger& db = **opened;
  CreateBattle(db, "talavera");
  for (const char* p : {"wellesley", "victor"}) {
    REQUIRE(replay::SetPassword(db, "talavera", "main", p, testing::CheapPasswordHash(std::string(p) + "-1809")).ok());
  }
  desk::Settings s;
  s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
  s.backup_dir = dir.Sub("bk");
  s.backup_keep = 1;
  s.requests_per_minute = 1000000;  // three clients on one address: the rate is not this test's subject
  auto started = testing::StartDesk(db, s);
  REQUIRE(started.ok());
  auto& desk = **started;
  const uint16_t port = desk.port();
  auto login = [&](const std::string& person) {
    auto r = testing::HttpCall(port, "POST", "/api/login",
                               R"({"game": "talavera", "person": ")" + person + R"(", "password": ")" + person + R"(-1809"})");
    REQUIRE(r.status == 200);
    return testing::TokenOf(r.body);
  };
  const std::string ga = testing::TokenOf(testing::HttpCall(port, "POST", "/api/ga/login", R"({"password": "the-ga-secret"})").body);
  REQUIRE(!ga.empty());

  // Two players keep submitting; each answer's last_seq is recorded with
  // the time it came (before or after the backup request was sent).
  std::mutex mu;
  std::vector<uint64_t> acked_seqs;
  std::atomic<bool> stop{false};
  std::vector<uint64_t> acked_before_backup;
  std::atomic<int> failures{0};
  auto player = [&](const std::string& person, const std::string& token, const std::string& side) {
    const std::string body = OrdersJson(side);
    for (int i = 0; i < 2000 && !stop; ++i) {
      auto r = testing::HttpCall(port, "POST", "/api/games/talavera/orders", body, token,
                                 {{"Idempotency-Key", person + "-" + std::to_string(i)}});
      if (r.status != 200) {
        ++failures;
        return;
      }
      // Found by hand, not with std::regex: two threads compiling a regex race
      // on the locale's shared narrow() cache (ThreadSanitizer reports it).
      const std::string key = "\"last_seq\": ";
      const size_t at = r.body.find(key);
      const size_t digits = at == std::string::npos ? 0 : r.body.find_first_not_of("0123456789", at + key.size());
      if (at == std::string::npos || digits == at + key.size()) {
        ++failures;
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      acked_seqs.push_back(std::stoull(r.body.substr(at + key.size(), digits - at - key.size())));
    }
  };
  const std::string wellesley = login("wellesley"), victor = login("victor");
  std::thread a(player, "wellesley", wellesley, "British"), b(player, "victor", victor, "French");
  // A REQUIRE that fails below ends the players first: the failure is reported, not an abort
  // (a joinable thread destroyed) that hides which check it was.
  struct Joined {
    std::atomic<bool>& stop;
    std::thread &a, &b;
    ~Joined() {
      stop = true;
      if (a.joinable()) a.join();
      if (b.joinable()) b.join();
    }
  } joined{stop, a, b};
  auto count = [&] {
    std::lock_guard<std::mutex> lock(mu);
    return acked_seqs.size();
  };
  WaitFor([&] { return count() >= 20 || failures > 0; });
  {
    std::lock_guard<std::mutex> lock(mu);
    acked_before_backup = acked_seqs;
  }
  // A player may not; the GA may.
  CHECK(testing::HttpCall(port, "POST", "/api/ga/backup", "", login("victor")).status == 403);
  auto bk = testing::HttpCall(port, "POST", "/api/ga/backup", "", ga);
  INFO(bk.body);
  REQUIRE(bk.status == 200);
  CHECK(bk.body.find("\\\"id\\\": 1") != std::string::npos);
  // Another, with --backup-keep 1: the first goes.
  auto bk2 = testing::HttpCall(port, "POST", "/api/ga/backup", "", ga);
  INFO(bk2.body);
  REQUIRE(bk2.status == 200);
  CHECK(bk2.body.find("\\\"id\\\": 2") != std::string::npos);
  CHECK(bk2.body.find("\\\"deleted\\\": 1") != std::string::npos);
  const size_t at_backup = count();
  WaitFor([&] { return count() >= at_backup + 10 || failures > 0; });
  // The CLI cannot open the database the desk holds: it says how to back up.
  auto cli = Adjutant({"--db", dir.Sub("db"), "backup", "--to", dir.Sub("bk2")});
  CHECK(cli.code == 5);
  CHECK(cli.err.find("--backup-dir") != std::string::npos);
  CHECK(!fs::exists(dir.Sub("bk2")));
  stop = true;
  a.join();
  b.join();
  CHECK(failures == 0);
  auto list = testing::HttpCall(port, "GET", "/api/ga/backups", "", ga);
  CHECK(list.status == 200);
  CHECK(list.body.find("time_utc") != std::string::npos);
  CHECK(list.body.find("\\\"id\\\": 2") != std::string::npos);
  CHECK(list.body.find("\\\"id\\\": 1") == std::string::npos);
  desk.Stop();
  desk.Wait();

  auto r = Adjutant({"restore", "--from", dir.Sub("bk"), "--to", dir.Sub("restored")});
  INFO(r.err);
  REQUIRE(r.code == 0);
  ledger::OpenOptions ro;
  ro.read_only = true;
  auto restored = ledger::Ledger::Open(dir.Sub("restored"), ro);
  REQUIRE(restored.ok());
  auto head = (*restored)->HeadOf("talavera", "main");
  REQUIRE(head.ok());
  for (uint64_t seq : acked_before_backup) CHECK(head->seq >= seq);
  const auto source = Log(db, "talavera", head->seq);
  REQUIRE(source.size() == head->seq);
  CHECK(source.back().hash == head->hash);
  CHECK(Log(**restored, "talavera").size() == head->seq);
}

TEST_CASE("backup: a desk started without --backup-dir makes none", "[backup][desk]") {
  REQUIRE(sodium_init() >= 0);
  TempDir dir;
  auto opened = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(opened.ok());
  desk::Settings s;
  s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
  auto started = testing::StartDesk(**opened, s);
  REQUIRE(started.ok());
  const uint16_t port = (*started)->port();
  const std::string ga = testing::TokenOf(testing::HttpCall(port, "POST", "/api/ga/login", R"({"password": "the-ga-secret"})").body);
  auto r = testing::HttpCall(port, "POST", "/api/ga/backup", "", ga);
  CHECK(r.status == 404);
  CHECK(r.body.find("--backup-dir") != std::string::npos);
  // Nor through the GA's run endpoint, where a client would name the path.
  auto run = testing::HttpCall(port, "POST", "/api/ga/run", R"({"args": ["backup", "--to", "/tmp/x"]})", ga);
  CHECK(run.status == 400);
  (*started)->Stop();
  (*started)->Wait();
}
