// The land outlines (fixtures/geography/land.json, compiled by flatc against
// schema/geography.fbs and embedded by schema/embed.cmake at build time).
#pragma once

namespace adjutant::maps {
extern const unsigned char kLandData[];
extern const unsigned long kLandDataSize;
}  // namespace adjutant::maps
