// The binary schema (flatc -b --schema adjutant.fbs), embedded at build time
// by schema/embed.cmake.
#pragma once
namespace adjutant::schema {
extern const unsigned char kEmbeddedSchema[];
extern const unsigned long kEmbeddedSchemaSize;
}
