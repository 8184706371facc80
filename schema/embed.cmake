# Turns a binary file into a C++ source with a byte array:
#   cmake -DIN=event.bfbs -DOUT=embedded_schema.cc -P embed.cmake
# names the array kEmbeddedSchema in adjutant::schema (schema/embedded_schema.h);
# -DSYMBOL=, -DNAMESPACE= and -DHEADER= name another.
if(NOT SYMBOL)
  set(SYMBOL kEmbeddedSchema)
endif()
if(NOT NAMESPACE)
  set(NAMESPACE adjutant::schema)
endif()
if(NOT HEADER)
  set(HEADER schema/embedded_schema.h)
endif()
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR size "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "// Generated from ${IN} at build time. Do not edit.\n#include \"${HEADER}\"\nnamespace ${NAMESPACE} {\nalignas(8) const unsigned char ${SYMBOL}[] = {\n${bytes}\n};\nconst unsigned long ${SYMBOL}Size = ${size};\n}\n")
