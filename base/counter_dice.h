// Counter-based dice (ARCHITECTURE I5), the pure part a verifier needs: a
// die's value from its coordinates, and a turn's committed salt as the
// turn's rolls use it (issue 5). rules/dice.h rolls with them;
// base/report_proof.h checks a report's rolls with them, so that a player's
// verifier needs nothing of the rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/turn.h"

namespace adjutant {

// The value of die `index` of a stream: XXH3-64 (seeded with the game's
// seed) of (salt, turn, phase, subject, purpose, index, attempt), uniform in
// 1..sides by rejection sampling (unbiased for any number of sides).
uint32_t CounterDie(uint64_t seed, uint64_t salt, const TurnPhase& at, std::string_view subject,
                    std::string_view purpose, uint32_t index, uint32_t sides);

// The salt a committed turn's rolls use: the branch's salt mixed with the
// XXH3-64 of the turn's revealed salt as written (its hex text).
uint64_t CommittedTurnSalt(uint64_t branch_salt, std::string_view salt_hex);

// A dice commitment: BLAKE2b-256 of the salt's bytes, lowercase hex;
// nullopt for a salt that is not hex of 16 to 64 bytes.
std::optional<std::string> SaltCommitment(std::string_view salt_hex);

}  // namespace adjutant
