// Signed tree heads (issue 23) on every kind of game: a game created with a
// signing key records, right after every phase's PhaseCompleted, a TreeHead
// whose root is the RFC 9162 root of the events as stored (recomputed here
// from the bytes read back, not through replay/heads.cc) and whose signature
// verifies under the game's key. Without the key, or with another, nothing
// is adjudicated; forks, corrections and keys adopted mid-game keep signing;
// a forged, re-rooted, unsigned or missing head is caught by `adjutant
// heads` and `adjutant audit`; the secret never reaches the database.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/build_paths.h"
#include "base/merkle.h"
#include "base/signing.h"
#include "base/tree_head.h"
#include "base/utc.h"
#include "ledger/format.h"
#include "ledger/ledger.h"
#include "ledger/tree.h"
#include "projections/summary.h"
#include "replay/driver.h"
#include "replay/heads.h"
#include "replay/schedule.h"
#include "rules/phase_writer.h"
#include "schema/event_generated.h"
#include "support/kinds.h"
#include "support/raw_db.h"
#include "support/run.h"
#include "support/serve.h"
#include "support/temp_dir.h"
#include "schema/values.h"

using namespace adjutant;
using namespace adjutant::testing;
using merkle::Hash;

namespace {

struct Ev {
  uint64_t seq = 0;
  std::vector<uint8_t> bytes;
  const fb::Event* event() const { return flatbuffers::GetRoot<fb::Event>(bytes.data()); }
};

std::vector<Ev> EventsOf(ledger::Ledger& db, const std::string& branch) {
  std::vector<Ev> out;
  REQUIRE(db.Read("g", branch, 1, UINT64_MAX, [&](const ledger::EventView& e) {
              out.push_back({e.seq, std::vector<uint8_t>(e.bytes.begin(), e.bytes.end())});
              return Status::Ok();
            }).ok());
  return out;
}

template <size_t N>
std::array<uint8_t, N> Bytes(const flatbuffers::Vector<uint8_t>* v) {
  std::array<uint8_t, N> out{};
  REQUIRE(v);
  REQUIRE(v->size() == N);
  std::copy(v->begin(), v->end(), out.begin());
  return out;
}

// Checks every head of `branch` from the events alone: each phase's
// PhaseCompleted (from seq `from` on) is followed by a TreeHead of size
// seq - 1 whose root is the tree's over the bytes read back, signed by `pk`.
// Returns how many heads were checked.
size_t CheckFromEvents(ledger::Ledger& db, const std::string& branch, const signing::PublicKey& pk, uint64_t from = 1) {
  const std::vector<Ev> evs = EventsOf(db, branch);
  merkle::MemoryTree tree;
  size_t heads = 0;
  for (size_t i = 0; i < evs.size(); ++i) {
    tree.Append(merkle::LeafHash(evs[i].bytes));
    const fb::Event* ev = evs[i].event();
    if (evs[i].seq < from) continue;
    if (ev->payload_type() == fb::Payload_PhaseCompleted) {
      INFO("the PhaseCompleted at seq " << evs[i].seq);
      REQUIRE(i + 1 < evs.size());
      REQUIRE(evs[i + 1].event()->payload_type() == fb::Payload_TreeHead);
    }
    const fb::TreeHead* th = ev->payload_as_TreeHead();
    if (!th) continue;
    INFO("the TreeHead at seq " << evs[i].seq);
    REQUIRE(i > 0);
    CHECK(evs[i - 1].event()->payload_type() == fb::Payload_PhaseCompleted);
    CHECK(th->size() == evs[i].seq - 1);
    const Hash root = Bytes<32>(th->root());
    CHECK(root == merkle::Root(tree, th->size()));
    CHECK(Bytes<32>(th->public_key()) == pk);
    TreeHeadFields f;
    f.game = "g";
    f.branch = ev->branch()->str();
    f.at.turn = schema::TurnOf(ev->turn());
    f.at.phase = ev->phase();
    f.size = th->size();
    f.root = root;
    CHECK(VerifyTreeHead(f, pk, Bytes<64>(th->signature())));
    // Nothing else verifies: another branch name, size or phase.
    TreeHeadFields other = f;
    other.size += 1;
    CHECK_FALSE(VerifyTreeHead(other, pk, Bytes<64>(th->signature())));
    other = f;
    other.branch += "x";
    CHECK_FALSE(VerifyTreeHead(other, pk, Bytes<64>(th->signature())));
    other = f;
    other.at.phase += 1;
    CHECK_FALSE(VerifyTreeHead(other, pk, Bytes<64>(th->signature())));
    heads++;
  }
  return heads;
}

size_t PhasesOf(ledger::Ledger& db, const std::string& branch, uint64_t from = 1) {
  size_t n = 0;
  for (const Ev& e : EventsOf(db, branch)) {
    n += e.seq >= from && e.event()->payload_type() == fb::Payload_PhaseCompleted ? 1 : 0;
  }
  return n;
}

uint64_t HeadSeq(ledger::Ledger& db, const std::string& branch = "main") {
  auto h = db.HeadOf("g", branch);
  REQUIRE(h.ok());
  return h->seq;
}

std::string WriteKey(const std::string& dir, const std::string& name, const signing::SigningKey& k) {
  const std::string path = dir + "/" + name;
  std::filesystem::remove(path);
  REQUIRE(k.Save(path).ok());
  return path;
}

// The coming turn's first phase appended by hand, as an attacker with the
// database would: the phase's own events exactly as the driver makes them,
// then `head` (a TreeHead draft, or none).
enum class Forgery { kOtherKey, kWrongRoot, kBadSignature, kNoHead };

void AppendForgedPhase(ledger::Ledger& db, const signing::SigningKey& key, Forgery how) {
  auto world = replay::Fold(db, "g", "main");
  REQUIRE(world.ok());
  auto next = replay::NextPhaseOf(*world);
  REQUIRE(next.ok());
  auto dice = replay::BranchDice(db, "g", "main");
  REQUIRE(dice.ok());
  const rules::RulesVersions versions = replay::GameVersions(replay::SummaryOf(*world));
  const uint64_t head = world->head.seq;
  rules::PhaseWriter w("g", "main", head, std::move(world->projections));
  w.set_rules_versions(versions);
  REQUIRE(replay::RunPhaseInto(w, *next, *dice).ok());
  std::vector<Draft> drafts = w.TakeDrafts();
  if (how == Forgery::kOtherKey) {
    auto th = replay::TreeHeadDraft(db, "g", "main", head, drafts, {}, TestKey(99));
    REQUIRE(th.ok());
    drafts.push_back(std::move(th->draft));
  } else if (how == Forgery::kWrongRoot || how == Forgery::kBadSignature) {
    auto real = replay::TreeHeadDraft(db, "g", "main", head, drafts, {}, key);
    REQUIRE(real.ok());
    // The same fields, with the root of the tree one event shorter (a GA
    // who signs a history without the phase's last event), or the real
    // root with a signature one bit off.
    TreeHeadFields f{"g", "main", drafts.back().at, head + drafts.size(), {}};
    std::vector<merkle::Hash> leaves;
    flatbuffers::FlatBufferBuilder fbb;
    for (size_t i = 0; i < drafts.size(); ++i) {
      BuildEventBuffer(fbb, "g", "main", head + 1 + i, drafts[i], {});
      leaves.push_back(merkle::LeafHash({fbb.GetBufferPointer(), fbb.GetSize()}));
    }
    if (how == Forgery::kWrongRoot) leaves.pop_back();
    auto root = ledger::TreeRootWith(db, "g", "main", head, leaves);
    REQUIRE(root.ok());
    f.root = root->root;
    signing::Signature sig = key.Sign(TreeHeadMessage(f));
    if (how == Forgery::kBadSignature) sig[17] ^= 0x04;
    Draft d;
    d.at = f.at;
    d.payload = [f, sig, pk = key.public_key()](flatbuffers::FlatBufferBuilder& b) {
      auto r = b.CreateVector(f.root.data(), f.root.size());
      auto k = b.CreateVector(pk.data(), pk.size());
      auto s = b.CreateVector(sig.data(), sig.size());
      return PayloadRef{fb::Payload_TreeHead, fb::CreateTreeHead(b, f.size, r, k, s).o};
    };
    drafts.push_back(std::move(d));
  }
  REQUIRE(db.Append("g", "main", head, drafts).ok());
}

}  // namespace

TEST_CASE("signed tree heads: every phase of every kind of game ends with a head that verifies from the events",
          "[heads][matrix]") {
  const signing::SigningKey key = TestKey(7);
  for (const GameKind& kind : GameKinds()) {
    for (bool by_phase : {false, true}) {
      DYNAMIC_SECTION(kind.name << (by_phase ? " by phase" : " by turn")) {
        PlayOptions o = SignedWith(key);
        o.by_phase = by_phase;
        o.keyed = by_phase;  // idempotency keys ride on every event of the batch, the head's leaves among them
        PlayedGame g(kind, o);
        INFO(g.status.message());
        REQUIRE(g.status.ok());
        ledger::Ledger& db = *g;
        // The key is in GameCreated.
        const std::vector<Ev> evs = EventsOf(db, "main");
        const fb::GameCreated* gc = evs.front().event()->payload_as_GameCreated();
        REQUIRE(gc);
        CHECK(Bytes<32>(gc->signing_key()) == key.public_key());
        const size_t phases = PhasesOf(db, "main");
        REQUIRE(phases >= 1);
        CHECK(CheckFromEvents(db, "main", key.public_key()) == phases);

        // `adjutant heads` agrees, and audit checks them.
        CliRun heads = Cli(db, {"heads", "g", "--json"});
        INFO(heads.err);
        CHECK(heads.code == 0);
        CHECK(heads.out.find("\"bad\": 0") != std::string::npos);
        CliRun audit = Cli(db, {"audit", "g", "--all"});
        INFO(audit.out << audit.err);
        CHECK(audit.code == 0);
        CHECK(audit.out.find("signed tree head") != std::string::npos);

        // Without the key, or with another, nothing is adjudicated.
        const uint64_t before = HeadSeq(db);
        auto none = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kTurn);
        REQUIRE_FALSE(none.ok());
        CHECK(none.status().code() == Status::Code::kInvalidArgument);
        CHECK(none.status().message().find(signing::Hex(key.public_key())) != std::string::npos);
        const signing::SigningKey other = TestKey(8);
        auto wrong = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kPhase, 1, std::nullopt, nullptr,
                                        nullptr, {}, nullptr, &other);
        REQUIRE_FALSE(wrong.ok());
        CHECK(wrong.status().message().find(signing::Hex(other.public_key())) != std::string::npos);
        const std::string other_file = WriteKey(g.dir.path(), "other.key", other);
        CliRun cli_wrong = Cli(db, {"adjudicate", "g", "--signing-key", other_file});
        CHECK(cli_wrong.code == 2);
        CHECK(cli_wrong.out.empty());
        CHECK(HeadSeq(db) == before);

        // With it, from the command line too: the next turn's heads hold.
        const std::string key_file = WriteKey(g.dir.path(), "game.key", key);
        CliRun next = Cli(db, {"adjudicate", "g", "--signing-key", key_file});
        INFO(next.err);
        REQUIRE(next.code == 0);
        CHECK(CheckFromEvents(db, "main", key.public_key()) == PhasesOf(db, "main"));
        CHECK(PhasesOf(db, "main") > phases);
      }
    }
  }
}

TEST_CASE("signed tree heads: forks and corrections of every kind sign their own phases, and a correction needs the key",
          "[heads][matrix]") {
  const signing::SigningKey key = TestKey(11);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(key));
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::string last = kind.turns.back().turn.ToString();
      const std::string key_file = WriteKey(g.dir.path(), "game.key", key);

      // A fork at the last turn's start, adjudicated: its heads cover its
      // parent's events below the point and its own above.
      CliRun fork = Cli(db, {"fork", "g", "--at", last, "--name", "f"});
      INFO(fork.err);
      REQUIRE(fork.code == 0);
      const uint64_t fork_head = HeadSeq(db, "f");
      auto r = replay::Adjudicate(db, "g", "f", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr, {},
                                  nullptr, &key);
      INFO(r.status().message());
      REQUIRE(r.ok());
      const size_t fork_phases = PhasesOf(db, "f", fork_head);
      REQUIRE(fork_phases >= 1);
      CHECK(CheckFromEvents(db, "f", key.public_key(), fork_head) == fork_phases);
      CHECK(Cli(db, {"heads", "g", "--branch", "f"}).code == 0);

      // A correction without the key writes nothing, not even its branch.
      const std::string fix = g.dir.path() + "/fix.json";
      std::ofstream(fix) << kind.correction;
      auto branches = db.Branches("g");
      REQUIRE(branches.ok());
      CliRun refused = Cli(db, {"correct", "g", "--at", last, "--directive", fix, "--name", "c"});
      CHECK(refused.code == 2);
      CHECK(refused.err.find("signs its tree heads") != std::string::npos);
      auto after = db.Branches("g");
      REQUIRE(after.ok());
      CHECK(after->size() == branches->size());
      // With it, every phase adjudicated again on the new branch is signed.
      CliRun fixed = Cli(db, {"correct", "g", "--at", last, "--directive", fix, "--name", "c", "--signing-key", key_file});
      INFO(fixed.out << fixed.err);
      REQUIRE(fixed.code == 0);
      auto c = db.Branch("g", "c");
      REQUIRE(c.ok());
      const size_t c_phases = PhasesOf(db, "c", c->fork_seq + 1);
      REQUIRE(c_phases >= 1);
      CHECK(CheckFromEvents(db, "c", key.public_key(), c->fork_seq + 1) == c_phases);
      CliRun audit = Cli(db, {"audit", "g", "--branch", "c", "--all"});
      INFO(audit.out << audit.err);
      CHECK(audit.code == 0);
    }
  }
}

TEST_CASE("signed tree heads: a key adopted mid-game signs every phase after it, and audits stay identical",
          "[heads][matrix]") {
  const signing::SigningKey key = TestKey(21);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);  // no key: no heads
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      size_t unsigned_heads = 0;
      for (const Ev& e : EventsOf(db, "main")) unsigned_heads += e.event()->payload_type() == fb::Payload_TreeHead;
      CHECK(unsigned_heads == 0);
      const std::string key_file = WriteKey(g.dir.path(), "game.key", key);
      CliRun adopt = Cli(db, {"adopt-key", "g", "--signing-key", key_file});
      INFO(adopt.err);
      REQUIRE(adopt.code == 0);
      const uint64_t adopted = HeadSeq(db);
      // From now on the key is needed.
      CHECK_FALSE(replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kPhase).ok());
      CHECK(HeadSeq(db) == adopted);
      CliRun next = Cli(db, {"adjudicate", "g", "--signing-key", key_file});
      INFO(next.err);
      REQUIRE(next.code == 0);
      const size_t signed_phases = PhasesOf(db, "main", adopted);
      REQUIRE(signed_phases >= 1);
      CHECK(CheckFromEvents(db, "main", key.public_key(), adopted) == signed_phases);
      CliRun audit = Cli(db, {"audit", "g", "--all"});
      INFO(audit.out << audit.err);
      CHECK(audit.code == 0);
      CHECK(Cli(db, {"heads", "g"}).code == 0);
      // A key that is not 32 bytes is refused, nothing recorded.
      const std::string bad = g.dir.path() + "/bad-key.json";
      std::ofstream(bad) << R"({"reason": "k", "body_type": "SigningKey", "body": {"public_key": [1, 2, 3]}})";
      const uint64_t now = HeadSeq(db);
      CliRun refused = Cli(db, {"directive", "g", bad});
      CHECK(refused.code == 2);
      CHECK(refused.err.find("32 bytes") != std::string::npos);
      CHECK(HeadSeq(db) == now);
    }
  }
}

TEST_CASE("signed tree heads: a head signed by another key, over another root, with a bad signature, or missing "
          "is caught by heads and audit",
          "[heads][matrix]") {
  const signing::SigningKey key = TestKey(31);
  struct Case {
    Forgery how;
    const char* name;
    const char* says;
  };
  const Case cases[] = {{Forgery::kOtherKey, "another key", "not the key in force"},
                        {Forgery::kWrongRoot, "another root", "its root is not the tree's"},
                        {Forgery::kBadSignature, "a bad signature", "the signature does not verify"},
                        {Forgery::kNoHead, "no head", "is not followed by its TreeHead"}};
  for (const GameKind& kind : GameKinds()) {
    for (const Case& c : cases) {
      DYNAMIC_SECTION(kind.name << ": " << c.name) {
        PlayedGame g(kind, SignedWith(key));
        INFO(g.status.message());
        REQUIRE(g.status.ok());
        ledger::Ledger& db = *g;
        AppendForgedPhase(db, key, c.how);
        CliRun audit = Cli(db, {"audit", "g", "--turn", kind.coming.ToString()});
        INFO(audit.out << audit.err);
        CHECK(audit.code == 3);
        CHECK(audit.out.find(c.says) != std::string::npos);
        CliRun heads = Cli(db, {"heads", "g"});
        INFO(heads.out << heads.err);
        if (c.how == Forgery::kNoHead) {
          CHECK(heads.code == 0);  // every head there is holds: the missing one is audit's to find
        } else {
          CHECK(heads.code == 3);
          CHECK(heads.out.find("BAD: ") != std::string::npos);
          CHECK(heads.out.find(c.says) != std::string::npos);
        }
        // The turns before it still audit identical.
        for (const TurnPlan& t : kind.turns) {
          CHECK(Cli(db, {"audit", "g", "--turn", t.turn.ToString()}).code == 0);
        }
      }
    }
  }
}

TEST_CASE("signing keys: the key file is its owner's alone, never overwritten, and never reaches the database",
          "[heads]") {
  TempDir dir;
  const std::string key = dir.path() + "/ga.key";
  Run made = Adjutant({"keygen", key, "--json"});
  INFO(made.err);
  REQUIRE(made.code == 0);
  CHECK(made.out.find("\"public_key\"") != std::string::npos);
  struct stat st {};
  REQUIRE(::stat(key.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  const std::string secret = Slurp(key);
  REQUIRE(secret.size() == 65);
  // Never overwritten.
  Run again = Adjutant({"keygen", key});
  CHECK(again.code == 2);
  CHECK(Slurp(key) == secret);
  // A key others may read is refused, and nothing is created.
  const std::string db = dir.path() + "/db";
  const std::string fixtures = ADJUTANT_FIXTURES;
  const std::vector<std::string> create = {"--db", db, "new", "g", "--scenario", fixtures + "/dog/talavera-brigade.json",
                                           "--seed", "5", "--signing-key", key};
  REQUIRE(::chmod(key.c_str(), 0644) == 0);
  Run loose = Adjutant(create);
  CHECK(loose.code == 2);
  CHECK(loose.err.find("chmod 600") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(db + "/CURRENT"));
  REQUIRE(::chmod(key.c_str(), 0600) == 0);
  // Damaged key files are refused by name.
  const std::string junk = dir.path() + "/junk.key";
  {
    std::ofstream(junk) << "not a key\n";
  }
  REQUIRE(::chmod(junk.c_str(), 0600) == 0);
  Run bad = Adjutant({"--db", db, "new", "g", "--scenario", fixtures + "/dog/talavera-brigade.json", "--signing-key", junk});
  CHECK(bad.code == 2);
  CHECK(bad.err.find(junk) != std::string::npos);
  // A game played with the key: no file of the database holds the secret
  // (as hex, or as its 32 bytes).
  Run created = Adjutant(create);
  INFO(created.err);
  REQUIRE(created.code == 0);
  Run played = Adjutant({"--db", db, "adjudicate", "g", "--signing-key", key});
  INFO(played.err);
  REQUIRE(played.code == 0);
  Run heads = Adjutant({"--db", db, "heads", "g"});
  CHECK(heads.code == 0);
  const std::string hex = secret.substr(0, 64);
  auto raw = signing::FromHex<32>(hex);
  REQUIRE(raw);
  const std::string raw_bytes(raw->begin(), raw->end());
  size_t files = 0;
  for (const auto& f : std::filesystem::recursive_directory_iterator(db)) {
    if (!f.is_regular_file()) continue;
    const std::string data = Slurp(f.path().string());
    files++;
    INFO(f.path().string());
    CHECK(data.find(hex) == std::string::npos);
    CHECK(data.find(raw_bytes) == std::string::npos);
  }
  CHECK(files > 3);
}

TEST_CASE("signed tree heads: a poisoned kept Merkle node makes a wrong head, and `adjutant heads` finds it from the "
          "events",
          "[heads][matrix]") {
  const signing::SigningKey key = TestKey(41);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(key));
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      // A game long enough to have kept nodes (levels 4 and up: 16 events).
      for (int more = 0; more < 8 && HeadSeq(*g) < 40; ++more) {
        REQUIRE(replay::Adjudicate(*g, "g", "main", replay::AdjudicateMode::kTurn, 1, std::nullopt, nullptr, nullptr,
                                   {}, nullptr, &key).ok());
      }
      REQUIRE(HeadSeq(*g) >= 40);
      auto main = g.db->Branch("g", "main");
      REQUIRE(main.ok());
      const std::string dir = g.db->dir();
      // The kept node every later root is made from — the first of the
      // highest kept level — overwritten: a cache entry gone wrong (the
      // events themselves untouched).
      g.db.reset();
      std::string prefix = ledger::format::TreeNodeKey(main->id, 0, 0).substr(0, 9);
      std::string key_of_node;
      for (const std::string& k : KeysWithPrefix(dir, ledger::format::kCfSnapshots, prefix)) {
        REQUIRE(k.size() == 18);
        if (k.substr(10) != std::string(8, '\0')) continue;  // index 0 only
        if (key_of_node.empty() || static_cast<uint8_t>(k[9]) > static_cast<uint8_t>(key_of_node[9])) key_of_node = k;
      }
      REQUIRE_FALSE(key_of_node.empty());
      REQUIRE(PutKey(dir, ledger::format::kCfSnapshots, key_of_node, std::string(32, '\x5a')));
      auto reopened = ledger::Ledger::Open(dir);
      REQUIRE(reopened.ok());
      g.db = std::move(reopened).value();
      ledger::Ledger& db = *g;
      // Every head recorded so far still holds from the events.
      CHECK(Cli(db, {"heads", "g"}).code == 0);
      // The next phase's head is made over the poisoned node: its root is
      // wrong, and `heads`, which trusts no kept node, says so.
      auto r = replay::Adjudicate(db, "g", "main", replay::AdjudicateMode::kPhase, 1, std::nullopt, nullptr, nullptr, {},
                                  nullptr, &key);
      INFO(r.status().message());
      REQUIRE(r.ok());
      CliRun heads = Cli(db, {"heads", "g"});
      INFO(heads.out << heads.err);
      CHECK(heads.code == 3);
      CHECK(heads.out.find("its root is not the tree's") != std::string::npos);
    }
  }
}

TEST_CASE("signed tree heads: the scheduler fires a signing game's deadline only with its key", "[heads][matrix]") {
  const signing::SigningKey key = TestKey(51);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(key));
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      CliRun set = Cli(db, {"schedule", "g", "set", "--deadline", "2026-12-06T20:00Z", "--after", "2d", "--now",
                            "2026-12-02T07:00Z"});
      INFO(set.err);
      REQUIRE(set.code == 0);
      const int64_t after = *ParseUtc("2026-12-06T20:00:05Z");
      const uint64_t before = HeadSeq(db);
      // Without the key the turn waits, its deadline not fired: nothing recorded.
      auto waits = replay::RunSchedule(db, "g", "main", after);
      REQUIRE_FALSE(waits.ok());
      CHECK(waits.status().message().find("signs its tree heads") != std::string::npos);
      CHECK(HeadSeq(db) == before);
      // With it (`serve --signing-key`): fired, adjudicated, every phase signed.
      auto fired = replay::RunSchedule(db, "g", "main", after, &key);
      INFO(fired.status().message());
      REQUIRE(fired.ok());
      CHECK(fired->what == replay::ScheduleStep::kFired);
      CHECK(PhasesOf(db, "main", before) == kind.phases_per_turn);
      CHECK(CheckFromEvents(db, "main", key.public_key()) == PhasesOf(db, "main"));
    }
  }
}

TEST_CASE("signed tree heads through the order desk: `adjutant adjudicate` sent over serve's socket signs with the "
          "desk's key, and is refused by a desk without one",
          "[heads][desk]") {
  TempDir dir;
  const std::string db = dir.path() + "/db";
  const std::string key = dir.path() + "/ga.key";
  REQUIRE(Adjutant({"keygen", key}).code == 0);
  const std::string fixtures = ADJUTANT_FIXTURES;
  Run created = Adjutant({"--db", db, "new", "g", "--scenario", fixtures + "/dog/talavera-brigade.json", "--seed", "9",
                          "--signing-key", key});
  INFO(created.err);
  REQUIRE(created.code == 0);
  {
    // A desk without the key: the command is sent there and refused.
    Serve serve(db, dir.path() + "/serve1.log", {"--no-scheduler"});
    REQUIRE(serve.Ready());
    Run refused = Adjutant({"--db", db, "adjudicate", "g"});
    CHECK(refused.code == 2);
    CHECK(refused.err.find("signs its tree heads") != std::string::npos);
    // The GA's own key, sent with the command, is used.
    Run own = Adjutant({"--db", db, "adjudicate", "g", "--signing-key", key});
    INFO(own.err);
    CHECK(own.code == 0);
    serve.Stop();
  }
  {
    Serve serve(db, dir.path() + "/serve2.log", {"--no-scheduler", "--signing-key", key});
    REQUIRE(serve.Ready());
    Run signed_by_desk = Adjutant({"--db", db, "adjudicate", "g"});
    INFO(signed_by_desk.err);
    CHECK(signed_by_desk.code == 0);
    serve.Stop();
  }
  Run heads = Adjutant({"--db", db, "heads", "g", "--json"});
  INFO(heads.out << heads.err);
  CHECK(heads.code == 0);
  CHECK(heads.out.find("\"bad\": 0") != std::string::npos);
  // Two moves adjudicated, each one phase: two heads.
  CHECK(Lines(Adjutant({"--db", db, "log", "g", "--kind", "TreeHead"}).out).size() == 2);
}
