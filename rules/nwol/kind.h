// The NWOL game — Sinews of War and Placed Alongside the Enemy, one game on
// one calendar (SOW 1.2; PATE 3.2) — as a kind of game (rules/kind.h).
#pragma once

#include "rules/kind.h"

namespace adjutant::rules::nwol {

const GameKind& Kind();

}  // namespace adjutant::rules::nwol
