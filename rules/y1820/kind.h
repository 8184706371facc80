// The 1820–1840 game as a kind of game (rules/kind.h).
#pragma once

#include "rules/kind.h"

namespace adjutant::rules::y1820 {

const GameKind& Kind();

}  // namespace adjutant::rules::y1820
