// `adjutant tree` (issue 23) on every kind of game: the root it prints is
// the RFC 9162 root of the branch's events read back (computed here by
// base/merkle from the bytes), its --prove proof verifies for the events
// named and fails for any other, its --since proof verifies between the
// sizes given, a fork's tree holds its parent's up to the fork point, and
// bad requests are refused with nothing printed on stdout.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "base/merkle.h"
#include "ledger/ledger.h"
#include "ledger/tree.h"
#include "base/signing.h"
#include "support/kinds.h"

using namespace adjutant;
using namespace adjutant::testing;
using merkle::Hash;

namespace {

std::vector<Hash> LeavesOf(ledger::Ledger& db, const std::string& branch) {
  std::vector<Hash> out;
  REQUIRE(db.Read("g", branch, 1, UINT64_MAX, [&](const ledger::EventView& e) {
              out.push_back(merkle::LeafHash(e.bytes));
              return Status::Ok();
            }).ok());
  return out;
}

Hash RootOf(const std::vector<Hash>& leaves, size_t n) {
  merkle::MemoryTree t;
  for (size_t i = 0; i < n; ++i) t.Append(leaves[i]);
  return merkle::Root(t, n);
}

// The hashes of a JSON array field ("proof": [...]) of `adjutant tree --json`.
std::vector<Hash> HashesOf(const std::string& json, const std::string& field) {
  std::vector<Hash> out;
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + field + "\": \\[([^\\]]*)\\]"))) return out;
  const std::string list = m[1];
  std::regex hex("[0-9a-f]{64}");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), hex); it != std::sregex_iterator(); ++it) {
    out.push_back(*merkle::FromHex(it->str()));
  }
  return out;
}

std::string RootField(const std::string& json) {
  std::smatch m;
  return std::regex_search(json, m, std::regex("\"root\": \"([0-9a-f]{64})\"")) ? std::string(m[1]) : "";
}

// How many Merkle nodes `branch` keeps over whole subtrees of its first
// `size` events, asked one by one (from the lowest level kept up): the
// number verify must say it checked.
uint64_t KeptNodes(ledger::Ledger& db, const std::string& branch, uint64_t size) {
  uint64_t n = 0;
  for (unsigned level = ledger::kStoredLevel; (uint64_t{1} << level) <= size; ++level) {
    for (uint64_t i = 0; i < (size >> level); ++i) {
      auto node = db.GetTreeNode("g", branch, level, i);
      REQUIRE(node.ok());
      if (node->has_value()) ++n;
    }
  }
  return n;
}

}  // namespace

TEST_CASE("adjutant tree: roots, multi-leaf and consistency proofs of every kind of game, checked from the events",
          "[tree][matrix]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      INFO(g.status.message());
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      const std::vector<Hash> leaves = LeavesOf(db, "main");
      const uint64_t n = leaves.size();
      REQUIRE(n >= 4);

      // The head's root, in text and in JSON.
      CliRun text = Cli(db, {"tree", "g"});
      INFO(text.err);
      REQUIRE(text.code == 0);
      CHECK(text.out.substr(0, 64) == merkle::Hex(RootOf(leaves, n)));
      // At every size, the root of that many events.
      for (uint64_t size = 1; size <= n; size += 1 + n / 23) {
        CliRun r = Cli(db, {"tree", "g", "--size", std::to_string(size), "--json"});
        REQUIRE(r.code == 0);
        CHECK(RootField(r.out) == merkle::Hex(RootOf(leaves, size)));
      }

      // Three events proved at once in the tree of the first size events.
      const uint64_t size = n - n / 5;
      const std::vector<uint64_t> seqs{1, size / 2, size};
      CliRun pr = Cli(db, {"tree", "g", "--size", std::to_string(size), "--prove",
                           std::to_string(seqs[2]) + "," + std::to_string(seqs[0]) + "," + std::to_string(seqs[1]),
                           "--json"});
      INFO(pr.err);
      REQUIRE(pr.code == 0);
      const Hash root = *merkle::FromHex(RootField(pr.out));
      CHECK(root == RootOf(leaves, size));
      std::vector<std::pair<uint64_t, Hash>> given;
      for (uint64_t s : seqs) {
        given.push_back({s - 1, leaves[s - 1]});
        CHECK(pr.out.find("\"seq\": " + std::to_string(s) + ",") != std::string::npos);
        CHECK(pr.out.find(merkle::Hex(leaves[s - 1])) != std::string::npos);
      }
      const std::vector<Hash> proof = HashesOf(pr.out, "proof");
      REQUIRE_FALSE(proof.empty());
      CHECK(merkle::MultiRoot(given, size, proof) == std::optional<Hash>(root));
      // The proof is for these events only: another's leaf in place of one fails.
      auto other = given;
      other[1].second = leaves[seqs[1]];  // the next event's
      CHECK(merkle::MultiRoot(other, size, proof) != std::optional<Hash>(root));
      // No leaf hash of an event not asked for appears in the answer: the
      // proof's hashes are all of subtrees of two or more events, or leaves
      // beside the asked ones (their siblings).
      size_t revealed = 0;
      for (uint64_t i = 0; i < size; ++i) {
        if (pr.out.find(merkle::Hex(leaves[i])) != std::string::npos) {
          const bool asked = std::find(seqs.begin(), seqs.end(), i + 1) != seqs.end();
          const bool sibling = std::find(seqs.begin(), seqs.end(), (i ^ 1) + 1) != seqs.end();
          INFO("leaf " << i << " revealed");
          CHECK((asked || sibling));
          ++revealed;
        }
      }
      CHECK(revealed >= seqs.size());
      // Consistency from the first size/3 events to the first size (its
      // hashes are of subtrees along the earlier tree's right edge).
      CliRun since = Cli(db, {"tree", "g", "--size", std::to_string(size), "--since", std::to_string(size / 3), "--json"});
      REQUIRE(since.code == 0);
      const std::vector<Hash> cons = HashesOf(since.out, "consistency");
      CHECK(since.out.find(merkle::Hex(RootOf(leaves, size / 3))) != std::string::npos);
      CHECK(merkle::VerifyConsistency(size / 3, size, RootOf(leaves, size / 3), root, cons));
      CHECK_FALSE(merkle::VerifyConsistency(size / 3, size, RootOf(leaves, size / 3 + 1), root, cons));

      // A fork holds its parent's tree up to its fork point.
      const uint64_t at = n / 2;
      REQUIRE(Cli(db, {"fork", "g", "--from", "main@head", "--name", "alt"}).code == 0);
      CliRun fa = Cli(db, {"tree", "g", "--branch", "alt", "--size", std::to_string(at), "--json"});
      REQUIRE(fa.code == 0);
      CHECK(RootField(fa.out) == merkle::Hex(RootOf(leaves, at)));

      // Refused, nothing on stdout: a size beyond the head, 0, a bad seq, a
      // seq beyond the size, --since past the size, an unknown branch.
      for (const std::vector<std::string>& bad :
           std::vector<std::vector<std::string>>{{"tree", "g", "--size", std::to_string(n + 1)},
                                                 {"tree", "g", "--size", "0"},
                                                 {"tree", "g", "--prove", "3,x"},
                                                 {"tree", "g", "--prove", "0"},
                                                 {"tree", "g", "--size", "3", "--prove", "4"},
                                                 {"tree", "g", "--size", "3", "--since", "4"},
                                                 {"tree", "g", "--since", "0"},
                                                 {"tree", "g", "--branch", "nosuch"}}) {
        CliRun r = Cli(db, bad);
        INFO(bad[2] << " " << (bad.size() > 3 ? bad[3] : "") << ": " << r.err);
        CHECK(r.code != 0);
        CHECK(r.out.empty());
        CHECK_FALSE(r.err.empty());
      }
    }
  }
}

TEST_CASE("adjutant verify and kept Merkle tree nodes: every one is checked against the events on every kind of game, "
          "a damaged one fails it, naming the node, and `tree --mend` makes it again",
          "[tree][matrix]") {
  const signing::SigningKey key = TestKey(71);
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind, SignedWith(key));
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      CliRun ok = Cli(db, {"verify", "g"});
      INFO(ok.out << ok.err);
      REQUIRE(ok.code == 0);
      const std::smatch kept = [&] {
        std::smatch m;
        static const std::regex re("([0-9]+) kept tree nodes match them");
        REQUIRE(std::regex_search(ok.out, m, re));
        return m;
      }();
      REQUIRE(std::stoull(kept[1]) > 0);
      // Every node kept, not some of them.
      CHECK(std::stoull(kept[1]) == KeptNodes(db, "main", db.HeadOf("g", "main")->seq));
      // One kept node, changed (a damaged cache: the roots made from it would be wrong).
      auto node = db.GetTreeNode("g", "main", 4, 0);
      REQUIRE(node.ok());
      REQUIRE(node->has_value());
      ledger::Ledger::TreeNode bad{4, 0, **node};
      bad.hash[7] ^= 0x10;
      REQUIRE(db.PutTreeNodes("g", "main", std::vector<ledger::Ledger::TreeNode>{bad}).ok());
      CliRun failed = Cli(db, {"verify", "g"});
      CHECK(failed.code == 3);
      CHECK(failed.err.find("1 of the " + std::string(kept[1]) + " kept Merkle tree nodes differ from the events "
                            "(first: level 4, index 0)") != std::string::npos);
      CHECK(failed.err.find("adjutant tree g --branch main --mend") != std::string::npos);
      CliRun json = Cli(db, {"verify", "g", "--json"});
      CHECK(json.code == 3);
      CHECK(json.out.find("\"tree_nodes_wrong\": 1") != std::string::npos);
      // --mend writes it again; verify holds; the signed heads hold.
      CliRun mend = Cli(db, {"tree", "g", "--mend"});
      INFO(mend.out << mend.err);
      CHECK(mend.code == 0);
      CHECK(mend.out.find("1 made again") != std::string::npos);
      CHECK(db.GetTreeNode("g", "main", 4, 0)->value() == **node);
      CHECK(Cli(db, {"verify", "g"}).code == 0);
      CHECK(Cli(db, {"heads", "g"}).code == 0);
      CliRun again = Cli(db, {"tree", "g", "--mend", "--json"});
      CHECK(again.out.find("\"mended\": 0") != std::string::npos);
      CHECK(Cli(db, {"tree", "g", "--mend", "--size", "3"}).code == 2);
      // A fork's nodes below its fork point are its parent's: verify of
      // the fork checks them too (and fails on the same damage).
      REQUIRE(Cli(db, {"fork", "g", "--from", "main@head", "--name", "what-if"}).code == 0);
      CliRun fork_ok = Cli(db, {"verify", "g", "--branch", "what-if"});
      INFO(fork_ok.out << fork_ok.err);
      CHECK(fork_ok.code == 0);
      CHECK(fork_ok.out.find(" kept tree nodes match them") != std::string::npos);
      REQUIRE(db.PutTreeNodes("g", "main", std::vector<ledger::Ledger::TreeNode>{bad}).ok());
      CHECK(Cli(db, {"verify", "g", "--branch", "what-if"}).code == 3);
      CHECK(Cli(db, {"tree", "g", "--mend"}).code == 0);
    }
  }
}

TEST_CASE("adjutant verify of a game that keeps no Merkle tree nodes says so, on every kind of game",
          "[tree][matrix]") {
  for (const GameKind& kind : GameKinds()) {
    DYNAMIC_SECTION(kind.name) {
      PlayedGame g(kind);
      REQUIRE(g.status.ok());
      ledger::Ledger& db = *g;
      auto kept = db.HasTreeNodes("g", "main");
      REQUIRE(kept.ok());
      CHECK_FALSE(*kept);
      CliRun ok = Cli(db, {"verify", "g"});
      INFO(ok.out << ok.err);
      CHECK(ok.code == 0);
      CHECK(ok.out.find("no Merkle tree nodes kept yet") != std::string::npos);
      CliRun json = Cli(db, {"verify", "g", "--json"});
      CHECK(json.out.find("\"tree_nodes\": 0") != std::string::npos);
      // Once a root is asked for, its nodes are kept and verify checks them.
      REQUIRE(Cli(db, {"tree", "g"}).code == 0);
      CHECK(db.HasTreeNodes("g", "main").value());
      CliRun after = Cli(db, {"verify", "g"});
      INFO(after.out << after.err);
      CHECK(after.code == 0);
      CHECK(after.out.find(" kept tree nodes match them") != std::string::npos);
    }
  }
}
