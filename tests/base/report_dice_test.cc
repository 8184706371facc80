// The dice check of a report proof (base/report_proof.h, docs/PROOFS.md
// "Dice"), on proofs made by hand: each way a roll can fail to be the
// committed one fails the check, naming it; a roll whose salt is not yet
// revealed leaves it pending, not passed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "base/counter_dice.h"
#include "base/report_proof.h"

using namespace adjutant;

namespace {

const Turn kTurn{1805, 1, 1};
const std::string kSalt = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

// A proof with one roll of three dice made as the adjudicator makes them:
// committed to kSalt when `committed`.
ReportProofData WithRoll(bool committed) {
  ReportProofData p;
  p.game = "g";
  p.branch = "main";
  p.dice_seed = 1805;
  p.dice_salt = 77;
  ProvenRoll r;
  r.seq = 40;
  r.branch = "main";
  r.at = TurnPhase{kTurn, 9};
  r.subject = "BR1FL";
  r.purpose = "damage";
  r.index = 2;
  r.sides = 6;
  const uint64_t salt = committed ? CommittedTurnSalt(p.dice_salt, kSalt) : p.dice_salt;
  for (uint32_t i = 0; i < 3; ++i) r.results.push_back(CounterDie(p.dice_seed, salt, r.at, r.subject, r.purpose, r.index + i, 6));
  p.rolls.push_back(r);
  if (committed) p.commitments[kTurn] = {12, *SaltCommitment(kSalt)};
  return p;
}

ReportCheck Dice(const ReportProofData& p, const ReportProofData* previous = nullptr) {
  const auto checks = CheckReportProof(p, previous);
  auto it = std::find_if(checks.begin(), checks.end(), [](const ReportCheck& c) { return c.check == "dice"; });
  REQUIRE(it != checks.end());
  return *it;
}

}  // namespace

TEST_CASE("report dice: rolls recompute from the seed and salts, and every way of not being the committed roll fails",
          "[proofs][dice]") {
  SECTION("uncommitted: recomputed from the seed and the branch's salt") {
    const ReportCheck c = Dice(WithRoll(false));
    CHECK(c.ok);
    CHECK_FALSE(c.pending);
    CHECK_THAT(c.detail, Catch::Contains("1 roll recomputed"));
  }
  SECTION("a die that is not the seed's") {
    ReportProofData p = WithRoll(false);
    p.rolls[0].results[1] = p.rolls[0].results[1] % 6 + 1;
    const ReportCheck c = Dice(p);
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.detail, Catch::Contains("the damage roll of BR1FL (seq 40, turn 1805.1.1) is"));
  }
  SECTION("committed, not revealed: pending, not passed") {
    const ReportCheck c = Dice(WithRoll(true));
    CHECK(c.ok);
    CHECK(c.pending);
    CHECK_THAT(c.detail, Catch::Contains("1 roll of turn 1805.1.1 await its salt"));
  }
  SECTION("committed, then revealed in the next proof: recomputed") {
    const ReportProofData earlier = WithRoll(true);
    ReportProofData next;
    next.game = "g";
    next.branch = "main";
    next.reveals[kTurn] = {60, kSalt};
    const ReportCheck c = Dice(next, &earlier);
    CHECK(c.ok);
    CHECK_FALSE(c.pending);
  }
  SECTION("a revealed salt that is not the one committed to") {
    ReportProofData p = WithRoll(true);
    std::string other = kSalt;
    other.back() = '0';
    p.reveals[kTurn] = {60, other};
    const ReportCheck c = Dice(p);
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.detail, Catch::Contains("does not match its commitment"));
  }
  SECTION("a commitment made after the roll") {
    ReportProofData p = WithRoll(true);
    p.commitments[kTurn].first = 41;
    p.reveals[kTurn] = {60, kSalt};
    const ReportCheck c = Dice(p);
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.detail, Catch::Contains("committed at seq 41, after it"));
  }
  SECTION("a committed turn whose commitment the proof leaves out: the rolls are not the branch salt's alone") {
    ReportProofData p = WithRoll(true);
    p.commitments.clear();
    CHECK_FALSE(Dice(p).ok);
  }
  SECTION("a roll another branch wrote: not checked against this branch's salt") {
    ReportProofData p = WithRoll(false);
    p.rolls[0].branch = "other";
    const ReportCheck c = Dice(p);
    CHECK_FALSE(c.ok);
    CHECK_THAT(c.detail, Catch::Contains("written by branch other"));
  }
}

TEST_CASE("dice commitments: BLAKE2b-256 of the salt's bytes, as a second implementation computes it", "[proofs][dice]") {
  // Python's hashlib.blake2b(bytes.fromhex(kSalt), digest_size=32).
  CHECK(SaltCommitment(kSalt) == std::optional<std::string>("7f129e850fdf24cf9f91a71a6862537040fabeec35734d63fbeab6d8808d6319"));
  CHECK(SaltCommitment("zz") == std::nullopt);      // not hex
  CHECK(SaltCommitment("0011") == std::nullopt);    // under 16 bytes
}
