// A report's own proof (issue 23, docs/PROOFS.md "A report's own proof"):
// every player report of a signing game carries the ReportProof of the
// events it was built from — in its JSON as `head.report_proof`, in its text
// as a footer that lists those events (seq, what, leaf hash) and holds the
// proof itself between PEM-style markers (base64 of the ReportProof
// flatbuffer). This is both sides of that format: the footer written, and
// the proof found again in whatever a player feeds `adjutant verify-report`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace adjutant::reports {

inline constexpr std::string_view kProofBegin = "-----BEGIN ADJUTANT REPORT PROOF-----";
inline constexpr std::string_view kProofEnd = "-----END ADJUTANT REPORT PROOF-----";

// The footer's lines for a (verified) ReportProof buffer, each ending "\n".
std::string ProofFooter(const std::vector<uint8_t>& proof);

// The ReportProofs (verified flatbuffers) in `text`, read from `name`: a
// proof file (JSON of table ReportProof, as `adjutant proof` writes it), a
// report's JSON (its `head.report_proof`), or text holding reports (each
// footer's block, in order: a whole mailed packet has one per report).
// InvalidArgument naming the file (and line) and what is wrong: no proof in
// it, a block without its end, bad base64, a buffer that is not a
// ReportProof. A text block's listing of its events (above it) must be
// there and list what the block proves: without `listings`, a listing at
// fault fails the whole document (Corruption, naming the line); with it,
// each block is kept and `listings` gets, per proof returned, what is wrong
// with its listing ("" when nothing is; nullopt for a JSON document, which
// lists nothing), so that a packet's other reports are still checked.
Result<std::vector<std::vector<uint8_t>>> ProofsInDocument(std::string_view text, const std::string& name,
                                                           std::vector<std::optional<std::string>>* listings = nullptr);

}  // namespace adjutant::reports
