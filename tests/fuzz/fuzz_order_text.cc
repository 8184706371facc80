// Fuzz: an order file in the text form (rules/order_text.h). The first byte
// picks the game's rule books (nwol, y1820, dog), the rest is the text.
// Reading never crashes; what reads verifies, prints back as text, and that
// text reads to the same bytes.
#include <string>
#include <vector>

#include "fuzz.h"
#include "rules/order_text.h"
#include "schema/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const std::vector<std::vector<std::string_view>> kGames = {{"sow", "pate"}, {"y1820"}, {"dog"}};
  const auto& rulesets = kGames[data[0] % kGames.size()];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto buf = adjutant::rules::ParseOrderText(text, "orders", rulesets);
  if (!buf.ok()) return 0;
  if (!adjutant::schema::VerifyTableBuffer("OrderFile", buf->data(), buf->size())) FuzzFail("a read order file does not verify");
  auto printed = adjutant::rules::PrintOrderText(buf->data(), rulesets);
  if (!printed.ok()) FuzzFail("a read order file does not print");
  auto again = adjutant::rules::ParseOrderText(*printed, "again", rulesets);
  if (!again.ok()) FuzzFail("a printed order file does not read");
  if (*again != *buf) FuzzFail("an order file does not survive a round trip through the text form");
  return 0;
}
