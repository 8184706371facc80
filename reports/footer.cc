#include "reports/footer.h"

#include <sodium.h>

#include <algorithm>
#include <optional>

#include <flatbuffers/flatbuffers.h>

#include "base/merkle.h"
#include "base/signing.h"
#include "replay/proofs.h"
#include "reports/reflect.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::reports {

namespace {

// What an event is, in a word or two: its ruleset's event ("ShipMoved"),
// else its payload ("OrderSubmitted", "DieRolled").
std::string WhatOf(const std::vector<uint8_t>& bytes) {
  if (!schema::VerifyEventBuffer(bytes.data(), bytes.size())) return "(not an event)";
  const fb::Event& ev = *flatbuffers::GetRoot<fb::Event>(bytes.data());
  const flatbuffers::Table* body = nullptr;
  const reflection::Object* o = EventBody(ev, &body);
  std::string what = o ? std::string(ShortName(*o)) : fb::EnumNamePayload(ev.payload_type());
  if (const fb::DieRolled* r = ev.payload_as_DieRolled(); r && r->purpose()) what += " (" + r->purpose()->str() + ")";
  return what;
}

bool VerifiedProof(const std::vector<uint8_t>& b) {
  flatbuffers::Verifier v(b.data(), b.size());
  return !b.empty() && v.VerifyBuffer<fb::ReportProof>(nullptr);
}

// The JSON object that follows `"key":` in `text` (strings and their
// escapes skipped), or npos-empty when there is none.
std::optional<std::string_view> ObjectAfterKey(std::string_view text, std::string_view key) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  size_t at = text.find(quoted);
  if (at == std::string_view::npos) return std::nullopt;
  at += quoted.size();
  auto skip = [&] {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n')) ++at;
  };
  skip();
  if (at >= text.size() || text[at] != ':') return std::nullopt;
  ++at;
  skip();
  if (at >= text.size() || text[at] != '{') return std::nullopt;
  const size_t begin = at;
  int depth = 0;
  bool in_string = false;
  for (; at < text.size(); ++at) {
    const char ch = text[at];
    if (in_string) {
      if (ch == '\\') ++at;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '{') {
      ++depth;
    } else if (ch == '}' && --depth == 0) {
      return text.substr(begin, at + 1 - begin);
    }
  }
  return std::nullopt;
}

constexpr std::string_view kListing = "This report was built from ";

// The events a footer lists ("  seq N  What  leaf H") against those its
// block proves: the same seqs in the same order, each with its leaf hash.
// `listing` starts on line `first_line` of the file; an error names the
// line at fault.
Status ListingMatches(std::string_view listing, const std::vector<uint8_t>& proof, const std::string& name,
                      size_t first_line) {
  struct Listed {
    std::string seq, leaf;
    size_t line = 0;
  };
  std::vector<Listed> listed;
  size_t at = 0, line = first_line, last_line = first_line;
  while (at < listing.size()) {
    size_t eol = listing.find('\n', at);
    if (eol == std::string_view::npos) eol = listing.size();
    std::string_view l = listing.substr(at, eol - at);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.rfind("  seq ", 0) == 0) {
      const size_t sp = l.find(' ', 6);
      const size_t leaf = l.rfind("  leaf ");
      if (sp == std::string_view::npos || leaf == std::string_view::npos) {
        return Status::Corruption(name + ":" + std::to_string(line) + ": a listed event is not 'seq N  What  leaf H'");
      }
      listed.push_back({std::string(l.substr(6, sp - 6)), std::string(l.substr(leaf + 7)), line});
      last_line = line;
    }
    at = eol + 1;
    ++line;
  }
  std::vector<std::pair<std::string, std::string>> proven;  // seq, leaf
  const fb::ReportProof& p = *flatbuffers::GetRoot<fb::ReportProof>(proof.data());
  if (p.events()) {
    for (const fb::ProvenEvent* e : *p.events()) {
      auto bytes = replay::ProvenEventBytes(*e);
      proven.emplace_back(std::to_string(e->seq()), bytes ? merkle::Hex(merkle::LeafHash(*bytes)) : std::string("?"));
    }
  }
  const std::string mismatch = ": the events this report lists (" + std::to_string(listed.size()) +
                               ") are not those its proof block proves (" + std::to_string(proven.size()) + "): ";
  const std::string why = "; the text was changed, or the block is another report's";
  for (size_t i = 0; i < std::max(listed.size(), proven.size()); ++i) {
    if (i < listed.size() && i < proven.size()) {
      if (listed[i].seq == proven[i].first && listed[i].leaf == proven[i].second) continue;
      return Status::Corruption(name + ":" + std::to_string(listed[i].line) + mismatch + "this line lists seq " +
                                listed[i].seq + " with leaf " + listed[i].leaf + ", the block proves seq " +
                                proven[i].first + " with leaf " + proven[i].second + why);
    }
    if (i < listed.size()) {
      return Status::Corruption(name + ":" + std::to_string(listed[i].line) + mismatch + "this line lists seq " +
                                listed[i].seq + ", which the block does not prove" + why);
    }
    return Status::Corruption(name + ":" + std::to_string(last_line) + mismatch + "the block proves seq " +
                              proven[i].first + ", listed nowhere" + why);
  }
  return Status::Ok();
}

}  // namespace

std::string ProofFooter(const std::vector<uint8_t>& proof) {
  if (!VerifiedProof(proof)) return "";
  const fb::ReportProof& p = *flatbuffers::GetRoot<fb::ReportProof>(proof.data());
  const size_t n = p.events() ? p.events()->size() : 0;
  const size_t hashes = p.proof() ? p.proof()->size() : 0;
  std::string out = std::string(kListing) + std::to_string(n) + " event" + (n == 1 ? "" : "s") +
                    " of the history under that head (their multi-leaf proof: " + std::to_string(hashes) + " hash" +
                    (hashes == 1 ? "" : "es") + "):\n";
  if (p.events()) {
    for (const fb::ProvenEvent* e : *p.events()) {
      auto bytes = replay::ProvenEventBytes(*e);
      if (!bytes) continue;
      out += "  seq " + std::to_string(e->seq()) + "  " + WhatOf(*bytes) + "  leaf " +
             merkle::Hex(merkle::LeafHash(*bytes)) + "\n";
    }
  }
  if (p.previous_size() > 0) {
    out += "History only grew since the head before it (" + std::to_string(p.previous_size()) + " events, root " +
           (p.previous_root() ? p.previous_root()->str() : std::string()) + "): " +
           std::to_string(p.consistency() ? p.consistency()->size() : 0) + " consistency hashes.\n";
  }
  out += "Check it offline, this file as it is: `adjutant verify-report FILE` (docs/PROOFS.md \"A report's own proof\").\n";
  std::string b64(sodium_base64_ENCODED_LEN(proof.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(b64.data(), b64.size(), proof.data(), proof.size(), sodium_base64_VARIANT_ORIGINAL);
  b64.resize(b64.find('\0'));
  out += std::string(kProofBegin) + "\n";
  for (size_t i = 0; i < b64.size(); i += 64) out += b64.substr(i, 64) + "\n";
  out += std::string(kProofEnd) + "\n";
  return out;
}

Result<std::vector<std::vector<uint8_t>>> ProofsInDocument(std::string_view text, const std::string& name,
                                                           std::vector<std::optional<std::string>>* listings) {
  std::vector<std::vector<uint8_t>> out;
  if (listings) listings->clear();
  auto line_no = [&](size_t at) { return size_t{1} + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n')); };
  auto line_of = [&](size_t at) { return std::to_string(line_no(at)); };
  for (size_t begin = text.find(kProofBegin); begin != std::string_view::npos; begin = text.find(kProofBegin, begin + 1)) {
    const size_t from = begin + kProofBegin.size();
    const size_t end = text.find(kProofEnd, from);
    const size_t next = text.find(kProofBegin, from);
    if (end == std::string_view::npos || (next != std::string_view::npos && next < end)) {
      return Status::InvalidArgument(name + ":" + line_of(begin) + ": the report proof block begun here has no end line (" +
                                     std::string(kProofEnd) + "): the report was cut short");
    }
    const std::string_view b64 = text.substr(from, end - from);
    std::vector<uint8_t> bytes(b64.size());
    size_t len = 0;
    const char* stop = nullptr;
    if (sodium_base642bin(bytes.data(), bytes.size(), b64.data(), b64.size(), " \t\r\n", &len, &stop,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        (stop != nullptr && stop != b64.data() + b64.size())) {
      const size_t at = stop != nullptr ? static_cast<size_t>(stop - text.data()) : from;
      return Status::InvalidArgument(name + ":" + line_of(at) + ": the report proof block is not base64");
    }
    bytes.resize(len);
    if (!VerifiedProof(bytes)) {
      return Status::InvalidArgument(name + ":" + line_of(begin) + ": the report proof block does not hold a "
                                     "ReportProof (it fails the FlatBuffers verifier)");
    }
    // The listing above the block must be there, and be what it proves: a
    // report whose listing was cut away could show any events beside a
    // block that proves others.
    const size_t prior = out.empty() ? 0 : text.rfind(kProofEnd, begin);
    const size_t listed_at = text.rfind(kListing, begin);
    const Status listing =
        listed_at == std::string_view::npos || (!out.empty() && listed_at < prior)
            ? Status::Corruption(name + ":" + line_of(begin) + ": the report proof block begun here has no listing of "
                                 "its events above it (\"" + std::string(kListing) + "...\"): the text was changed")
            : ListingMatches(text.substr(listed_at, begin - listed_at), bytes, name, line_no(listed_at));
    // The document's error, or this block's.
    if (!listings && !listing.ok()) return listing;
    if (listings) listings->push_back(listing.ok() ? std::string() : listing.message());
    out.push_back(std::move(bytes));
  }
  if (!out.empty()) return out;
  size_t first = 0;
  while (first < text.size() && (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' || text[first] == '\n')) {
    ++first;
  }
  if (first < text.size() && text[first] == '{') {
    if (auto inner = ObjectAfterKey(text, "report_proof")) {
      auto one = schema::ParseJson("ReportProof", *inner, name + " (its head.report_proof)");
      if (!one.ok()) return one.status();
      out.push_back(std::move(one).value());
      if (listings) listings->push_back(std::nullopt);
      return out;
    }
    if (text.find("\"format\"") == std::string_view::npos) {
      return Status::InvalidArgument(name + ": a report that carries no proof of its own (a game that signs no "
                                            "tree heads, a turn not yet signed, or a report that proves nothing: "
                                            "map, fleet, choices)");
    }
    auto one = schema::ParseJson("ReportProof", text, name);
    if (!one.ok()) return one.status();
    out.push_back(std::move(one).value());
    if (listings) listings->push_back(std::nullopt);
    return out;
  }
  return Status::InvalidArgument(name + ": neither a proof (JSON from `adjutant proof`), a report's JSON nor a text "
                                        "report with a proof block (" + std::string(kProofBegin) + ")");
}

}  // namespace adjutant::reports
