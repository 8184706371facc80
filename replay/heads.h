// Signed tree heads (issue 23). In a game with a signing key (its
// GameCreated's, or the last SigningKey directive's), every phase's batch
// ends with a TreeHead: the root of the branch's Merkle tree (ledger/tree.h)
// over every event up to the phase's PhaseCompleted, signed by the GA's
// secret key (base/signing.h), which the process holds for the request and
// the database never sees. Games without a key record none: their logs,
// seqs and audits are what they were.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/signing.h"
#include "base/status.h"
#include "base/tree_head.h"
#include "ledger/ledger.h"

namespace adjutant::projections { struct SummaryState; }

namespace adjutant::replay {

// The key in force in a game whose summary is `s`; nullopt: it signs nothing.
std::optional<signing::PublicKey> SigningKeyOf(const projections::SummaryState& s);

// Whether `signer` may sign the heads of `game` (summary `s`): a game with a
// key needs the secret half of that key (InvalidArgument naming both keys
// otherwise); a game without one takes no signer (`signer` is then unused).
Status CheckSigner(std::string_view game, const projections::SummaryState& s, const signing::SigningKey* signer);

// The TreeHead that closes a phase whose events `drafts` are about to be
// appended after `head_seq` (under `idempotency_key`, as the ledger stores
// them): the root of the tree over events 1..head_seq + drafts.size(), signed.
// `nodes`: the tree's kept levels over the batch, to keep
// (Ledger::PutTreeNodes) once it is appended.
struct HeadDraft {
  Draft draft;
  std::vector<ledger::Ledger::TreeNode> nodes;
};
Result<HeadDraft> TreeHeadDraft(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t head_seq,
                            std::span<const Draft> drafts, std::string_view idempotency_key,
                            const signing::SigningKey& signer);
// The same from the leaf hashes of the batch's events (rules::PhaseWriter
// keeps them as it emits), at `at` (the phase's turn and phase).
Result<HeadDraft> TreeHeadDraft(ledger::Ledger& db, std::string_view game, std::string_view branch, uint64_t head_seq,
                            const TurnPhase& at, std::span<const merkle::Hash> leaves,
                            const signing::SigningKey& signer);

// One recorded head, as read back and checked against the events.
struct HeadCheck {
  uint64_t seq = 0;        // the TreeHead's own
  TreeHeadFields head;     // what it claims (game, branch, turn and phase, size, root)
  signing::PublicKey public_key{};
  signing::Signature signature{};
  std::string problem;     // "": sound; else what is wrong
};

// Where a check takes the tree's roots from: the ledger's kept nodes (O(log
// n) reads a head: audit), or every event from seq 1 hashed again, trusting
// no kept node (O(n) for the branch: `adjutant heads`).
enum class HeadRoots { kKeptNodes, kFromEvents };

// Every TreeHead on `branch` among seqs from..to, each checked: it follows
// its phase's PhaseCompleted (size = that seq), its root is the tree's over
// the events as stored, its key is the one in force there, its signature is
// that key's over the head's message.
Result<std::vector<HeadCheck>> CheckHeads(ledger::Ledger& db, std::string_view game, std::string_view branch,
                                          uint64_t from = 1, uint64_t to = UINT64_MAX,
                                          HeadRoots roots = HeadRoots::kKeptNodes);

}  // namespace adjutant::replay
