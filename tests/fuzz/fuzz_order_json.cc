// Fuzz: an order file's JSON (OrderFile). Parsing never crashes; what parses
// verifies, renders as JSON, and that JSON parses back to the same buffer.
#include <string>

#include "fuzz.h"
#include "schema/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto buf = adjutant::schema::ParseJson("OrderFile", json, "orders");
  if (!buf.ok()) return 0;
  if (!adjutant::schema::VerifyTableBuffer("OrderFile", buf->data(), buf->size())) FuzzFail("a parsed order file does not verify");
  auto text = adjutant::schema::ToJson("OrderFile", buf->data());
  if (!text.ok()) FuzzFail("a parsed order file does not render");
  auto again = adjutant::schema::ParseJson("OrderFile", *text, "again");
  if (!again.ok()) FuzzFail("a rendered order file does not parse");
  auto text2 = adjutant::schema::ToJson("OrderFile", again->data());
  if (!text2.ok() || *text2 != *text) FuzzFail("an order file does not survive a round trip");
  return 0;
}
