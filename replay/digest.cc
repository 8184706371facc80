#include "replay/digest.h"

#include <sodium.h>

#include <array>

#include "replay/driver.h"
#include "schema/event_generated.h"
#include "schema/values.h"

namespace adjutant::replay {

std::string Blake2bHex(std::string_view bytes) {
  if (sodium_init() < 0) return "";
  std::array<unsigned char, crypto_generichash_BYTES> h{};
  crypto_generichash(h.data(), h.size(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), nullptr,
                     0);
  std::array<char, crypto_generichash_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), h.data(), h.size());
  return hex.data();
}

Result<TurnDigest> DigestTurn(ledger::Ledger& db, std::string_view game, std::string_view branch, const Turn& t) {
  if (sodium_init() < 0) return Status::IOError("libsodium failed to initialise");
  auto first = db.SeekTurn(game, branch, TurnPhase{t, 0});
  if (!first.ok()) return first.status();
  bool begun = false;
  if (first->has_value()) {
    ADJ_RETURN_IF_ERROR(db.Read(game, branch, **first, **first, [&](const ledger::EventView& e) {
      const fb::Turn* et = e.event()->turn();
      begun = et && schema::TurnOf(et) == t;
      return Status::Ok();
    }));
  }
  if (!begun) return Status::NotFound("turn " + t.ToString() + " of " + std::string(game) + "/" + std::string(branch) +
                                      " has not been played");
  auto next = db.SeekTurn(game, branch, TurnPhase{Turn{t.major, t.minor, t.step + 1}, 0});
  if (!next.ok()) return next.status();
  TurnDigest d;
  d.turn = t;
  if (next->has_value()) {
    d.last_seq = **next - 1;
  } else {
    // The current turn: over once its last phase is adjudicated.
    auto w = Fold(db, game, branch);
    if (!w.ok()) return w.status();
    const rules::GameKind* kind = w->kind();
    bool over = kind && kind->TurnOver(w->projections, t);
    if (!over) {
      return Status::Conflict("turn " + t.ToString() + " is not over: its digest is taken once every phase is adjudicated");
    }
    d.last_seq = w->head.seq;
  }
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, crypto_generichash_BYTES);
  ADJ_RETURN_IF_ERROR(db.Read(game, branch, 1, d.last_seq, [&](const ledger::EventView& e) {
    std::array<unsigned char, 8> seq{};
    for (int i = 0; i < 8; ++i) seq[i] = static_cast<unsigned char>(e.seq >> (8 * i));
    crypto_generichash_update(&st, seq.data(), seq.size());
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(e.bytes.data()), e.bytes.size());
    d.events++;
    return Status::Ok();
  }));
  std::array<unsigned char, crypto_generichash_BYTES> out{};
  crypto_generichash_final(&st, out.data(), out.size());
  std::array<char, crypto_generichash_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  d.hex = hex.data();
  return d;
}

}  // namespace adjutant::replay
