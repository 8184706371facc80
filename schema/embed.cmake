# Turns a binary file into a C++ source with a byte array:
#   cmake -DIN=event.bfbs -DOUT=embedded_schema.cc -P embed.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR size "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "// Generated from ${IN} at build time. Do not edit.\n#include \"schema/embedded_schema.h\"\nnamespace adjutant::schema {\nalignas(8) const unsigned char kEmbeddedSchema[] = {\n${bytes}\n};\nconst unsigned long kEmbeddedSchemaSize = ${size};\n}\n")
