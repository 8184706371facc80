// A Death or Glory battle as a kind of game (rules/kind.h).
#pragma once

#include "rules/kind.h"

namespace adjutant::rules::dog {

const GameKind& Kind();

}  // namespace adjutant::rules::dog
