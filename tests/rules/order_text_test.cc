// Issue 20: the text order form (rules/order_text.h). Every order kind's
// example reads and prints back; every order file of the bundled games reads
// the same in text as in JSON; every order the schema can hold prints and
// reads back to the same bytes (a rapidcheck property); mistakes are named
// with line, column and the nearest word; each ruleset's README shows every
// kind of its orders, and each of its lines reads.
#include <catch2/catch.hpp>
#include <flatbuffers/reflection.h>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <filesystem>
#include <fstream>
#include <tuple>
#include <map>
#include <set>
#include <sstream>

#include "support/build_paths.h"
#include "rules/kind.h"
#include "rules/order_text.h"
#include "rules/y1820/tables.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"

namespace adjutant {
namespace {

using rules::AllOrderKinds;
using rules::OrderKindWords;
using Catch::Matchers::Contains;

const std::filesystem::path kSource = std::filesystem::path(ADJUTANT_FIXTURES).parent_path();

std::vector<std::string_view> RulesetsOf(std::string_view ruleset) {
  if (ruleset == "sow" || ruleset == "pate") return {"sow", "pate"};
  if (ruleset.empty()) return {};
  return {ruleset};
}

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<uint8_t> Must(Result<std::vector<uint8_t>> r) {
  INFO((r.ok() ? std::string() : r.status().message()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

std::string MustText(Result<std::string> r) {
  INFO((r.ok() ? std::string() : r.status().message()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

std::string Refusal(std::string_view text, std::vector<std::string_view> rulesets) {
  auto r = rules::ParseOrderText(text, "orders.txt", rulesets);
  return r.ok() ? std::string("accepted") : r.status().message();
}

const reflection::Schema& Schema() { return *reflection::GetSchema(schema::BinarySchema().data()); }
const reflection::Object* Obj(std::string_view name) {
  return Schema().objects()->LookupByKey(("adjutant.fb." + std::string(name)).c_str());
}
const reflection::Enum* Union(std::string_view obj, std::string_view field) {
  const auto* f = Obj(obj)->fields()->LookupByKey(std::string(field).c_str());
  return Schema().enums()->Get(static_cast<uint32_t>(f->type()->index()));
}
// The first ```text block after `heading` in `doc` (a README).
std::string TextBlockAfter(const std::string& doc, std::string_view heading) {
  const size_t at = doc.find(heading);
  REQUIRE(at != std::string::npos);
  const size_t open = doc.find("```text\n", at);
  REQUIRE(open != std::string::npos);
  const size_t close = doc.find("```", open + 8);
  REQUIRE(close != std::string::npos);
  return doc.substr(open + 8, close - open - 8);
}

std::string Short(const flatbuffers::String* s) { return s->str().substr(std::string("adjutant.fb.").size()); }

TEST_CASE("order text: every kind's example reads under its ruleset and prints back as written", "[order-text]") {
  for (const auto& k : AllOrderKinds()) {
    INFO(k.verb << " (" << k.table.table << "): " << k.example);
    REQUIRE_FALSE(k.example.empty());
    auto rs = RulesetsOf(k.ruleset);
    auto bytes = Must(rules::ParseOrderText(std::string(k.example), "example", rs));
    auto back = MustText(rules::PrintOrderText(bytes.data(), rs));
    CHECK(back == std::string(k.example) + "\n");
    const auto* file = flatbuffers::GetRoot<fb::OrderFile>(bytes.data());
    REQUIRE(file->orders()->size() == 1u);
  }
}

TEST_CASE("order text: the words name fields of the schema, every order table has a word, and no game has two orders of one word",
          "[order-text]") {
  std::set<std::pair<std::string, std::string>> covered;  // (wrapper, table)
  for (const auto& k : AllOrderKinds()) {
    INFO(k.verb);
    const reflection::Object* t = Obj(k.table.table);
    REQUIRE(t != nullptr);
    for (auto p : k.table.positional) CHECK(t->fields()->LookupByKey(std::string(p).c_str()) != nullptr);
    for (const auto& w : k.table.words) {
      INFO(w.word);
      CHECK(t->fields()->LookupByKey(std::string(w.field).c_str()) != nullptr);
    }
    if (!k.subject.empty()) {
      const reflection::Object* on = k.subject_on_wrapper ? Obj(k.wrapper) : t;
      const auto* f = on->fields()->LookupByKey(std::string(k.subject).c_str());
      REQUIRE(f != nullptr);
      CHECK(f->required());  // printed first, so always there
    }
    if (!k.sets.empty()) CHECK(t->fields()->LookupByKey(std::string(k.sets).c_str()) != nullptr);
    covered.emplace(std::string(k.wrapper), std::string(k.table.table));
  }
  // Every member of OrderBody, and of each ruleset's own union, has a word.
  for (const auto* member : *Union("OrderItem", "body")->values()) {
    if (member->value() == 0) continue;
    const std::string outer = Short(Schema().objects()->Get(member->union_type()->index())->name());
    const auto* inner = Obj(outer)->fields()->LookupByKey("body");
    if (inner != nullptr && inner->type()->base_type() == reflection::Union) {
      for (const auto* m : *Union(outer, "body")->values()) {
        if (m->value() == 0) continue;
        const std::string name = Short(Schema().objects()->Get(m->union_type()->index())->name());
        INFO(outer << "/" << name);
        CHECK(covered.count({outer, name}) == 1u);
      }
    } else {
      INFO(outer);
      CHECK(covered.count({"", outer}) == 1u);
    }
  }
  // Within one kind of game (its rule books and the common words), each
  // spelling names one order.
  for (const auto* kind : rules::AllKinds()) {
    auto names = kind->Rulesets();
    std::map<std::string, std::string> seen;
    for (const auto& k : AllOrderKinds()) {
      if (!k.ruleset.empty() && std::find(names.begin(), names.end(), k.ruleset) == names.end()) continue;
      std::vector<std::string> spellings{std::string(k.verb)};
      std::istringstream as{std::string(k.aliases)};
      for (std::string a; as >> a;) spellings.push_back(a);
      for (const auto& s : spellings) {
        INFO(kind->name() << ": " << s);
        auto [it, fresh] = seen.emplace(s, std::string(k.table.table) + std::string(k.sets_value));
        CHECK(fresh);
      }
    }
  }
}

// The bundled games' order files (JSON) say the same in text.
TEST_CASE("order text: every bundled order file reads to the same bytes from its text as from its JSON", "[order-text]") {
  size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::filesystem::path(ADJUTANT_FIXTURES) / "orders")) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name.size() < 12 || name.substr(name.size() - 12) != ".orders.json") continue;
    INFO(e.path());
    const std::string dir = e.path().parent_path().filename().string();
    std::vector<std::string_view> rs = dir.rfind("nwol", 0) == 0     ? std::vector<std::string_view>{"sow", "pate"}
                                       : dir.rfind("dog", 0) == 0    ? std::vector<std::string_view>{"dog"}
                                       : dir.rfind("europe", 0) == 0 ? std::vector<std::string_view>{"y1820"}
                                                                     : std::vector<std::string_view>{};
    REQUIRE_FALSE(rs.empty());
    auto json = Must(schema::ParseJson("OrderFile", ReadAll(e.path()), e.path().string()));
    auto text = MustText(rules::PrintOrderText(json.data(), rs));
    INFO(text);
    auto again = Must(rules::ParseOrderText(text, "printed", rs));
    CHECK(again == json);
    // Either form through the one entry point.
    CHECK(Must(rules::ParseOrderDocument(ReadAll(e.path()), "json", rs)) == json);
    ++files;
  }
  CHECK(files >= 20u);
}

// ---- random orders: every order the schema can hold -----------------------------

void JsonString(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

// Strings people put in ids and names: plain ids, words of the order form,
// spaces, quotes, separators, a '#', letters beyond ASCII, nothing at all.
std::string RandomString(bool free_text) {
  static const std::vector<std::string> pieces = {"BR2SL", "Brest", "to", "move", "orders", "as", "no-detach", "12",
                                                  "-3", "Port Mahon", "a\"b", "x,y", "semi;colon", "#5", "Zürich", "",
                                                  "withdraw", "back\\slash", "load", "supplies", "x:", "FR"};
  std::string s = *rc::gen::elementOf(pieces);
  if (*rc::gen::inRange(0, 4) == 0) s += *rc::gen::elementOf(pieces);
  if (free_text && *rc::gen::inRange(0, 3) == 0) s += "\nline two\t";
  return s;
}

std::string RandomScalar(const reflection::Field& f, reflection::BaseType bt, const reflection::Type& type) {
  if (type.index() >= 0 && bt != reflection::Obj) {
    const auto* e = Schema().enums()->Get(static_cast<uint32_t>(type.index()));
    const auto* v = e->values()->Get(static_cast<uint32_t>(*rc::gen::inRange<int>(0, static_cast<int>(e->values()->size()))));
    return "\"" + v->name()->str() + "\"";
  }
  switch (bt) {
    case reflection::Bool: return *rc::gen::arbitrary<bool>() ? "true" : "false";
    case reflection::Byte: return std::to_string(*rc::gen::arbitrary<int8_t>());
    case reflection::UByte: return std::to_string(*rc::gen::arbitrary<uint8_t>());
    case reflection::Short: return std::to_string(*rc::gen::arbitrary<int16_t>());
    case reflection::UShort: return std::to_string(*rc::gen::arbitrary<uint16_t>());
    case reflection::Int: return std::to_string(*rc::gen::arbitrary<int32_t>());
    case reflection::UInt: return std::to_string(*rc::gen::arbitrary<uint32_t>());
    case reflection::Long: return std::to_string(*rc::gen::arbitrary<int64_t>());
    case reflection::ULong: return std::to_string(*rc::gen::arbitrary<uint64_t>());
    default: break;
  }
  (void)f;
  RC_FAIL("no scalar generator for this field");
  return "";
}

std::vector<const reflection::Field*> ById(const reflection::Object& o) {
  std::vector<const reflection::Field*> v(o.fields()->begin(), o.fields()->end());
  std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
  return v;
}

std::string RandomTable(const reflection::Object& o);

std::string RandomValue(const reflection::Field& f) {
  const reflection::Type& t = *f.type();
  const std::string name = f.name()->str();
  switch (t.base_type()) {
    case reflection::String: {
      std::string out;
      JsonString(out, RandomString(name == "text"));
      return out;
    }
    case reflection::Vector: {
      const int n = *rc::gen::inRange(0, 4);
      std::string out = "[";
      for (int i = 0; i < n; ++i) {
        if (i) out += ',';
        if (t.element() == reflection::String) {
          JsonString(out, RandomString(false));
        } else if (t.element() == reflection::Obj) {
          out += RandomTable(*Schema().objects()->Get(static_cast<uint32_t>(t.index())));
        } else {
          out += RandomScalar(f, t.element(), t);
        }
      }
      return out + "]";
    }
    case reflection::Obj: return RandomTable(*Schema().objects()->Get(static_cast<uint32_t>(t.index())));
    default: return RandomScalar(f, t.base_type(), t);
  }
}

std::string RandomTable(const reflection::Object& o) {
  std::string out = "{";
  bool first = true;
  for (const auto* f : ById(o)) {
    if (f->type()->base_type() == reflection::UType || f->type()->base_type() == reflection::Union) continue;
    if (!o.is_struct() && !f->required() && *rc::gen::inRange(0, 2) == 0) continue;
    if (!first) out += ',';
    first = false;
    JsonString(out, f->name()->str());
    out += ':' + RandomValue(*f);
  }
  return out + "}";
}

TEST_CASE("order text: every order the schema can hold prints and reads back to the same bytes", "[order-text][property]") {
  for (const auto& kind : AllOrderKinds()) {
    const auto rs = RulesetsOf(kind.ruleset);
    const std::string label = std::string(kind.verb) + " (" + std::string(kind.table.table) + ")";
    rc::prop("text round trip: " + label, [&kind, rs] {
      const reflection::Object* table = Obj(kind.table.table);
      std::string body = RandomTable(*table);
      if (!kind.sets.empty()) {
        // This kind's verb holds for its flag's value (the other verb, the other).
        const std::string flag = "\"" + std::string(kind.sets) + "\":";
        RC_PRE(body.find(flag) == std::string::npos);
        body.insert(1, flag + std::string(kind.sets_value) + (body.size() > 2 ? "," : ""));
      }
      std::string item = "{";
      if (*rc::gen::inRange(0, 3) == 0) {
        item += "\"role\":";
        JsonString(item, RandomString(false));
        item += ',';
      }
      if (kind.wrapper.empty()) {
        item += "\"body_type\":\"" + std::string(kind.table.table) + "\",\"body\":" + body + "}";
      } else {
        std::string wrap = "{";
        for (const auto* f : ById(*Obj(kind.wrapper))) {
          if (f->type()->base_type() == reflection::UType || f->type()->base_type() == reflection::Union) continue;
          JsonString(wrap, f->name()->str());
          wrap += ':' + RandomValue(*f) + ',';
        }
        wrap += "\"body_type\":\"" + std::string(kind.table.table) + "\",\"body\":" + body + "}";
        item += "\"body_type\":\"" + std::string(kind.wrapper) + "\",\"body\":" + wrap + "}";
      }
      const std::string json = "{\"orders\":[" + item + "]}";
      auto bytes = schema::ParseJson("OrderFile", json, "generated");
      RC_PRE(bytes.ok());  // a string the schema refuses (none of ours) is no order
      auto text = rules::PrintOrderText(bytes->data(), rs);
      RC_ASSERT(text.ok());
      RC_LOG() << json << "\n" << *text;
      auto back = rules::ParseOrderText(*text, "printed", rs);
      if (!back.ok()) RC_FAIL(back.status().message());
      RC_ASSERT(*back == *bytes);
    });
  }
}

TEST_CASE("order text: a mistake names the line, the column and the word, and the nearest valid word", "[order-text]") {
  const std::vector<std::string_view> nwol{"sow", "pate"};
  CHECK(Refusal("# Villeneuve\nFR1SL apoint Villeneuve", nwol) ==
        "orders.txt:2:7: 'apoint' is not an order word of this game; did you mean 'appoint'?");
  CHECK(Refusal("FR1SL orders move Channel contcat pursue", nwol) ==
        "orders.txt:1:27: 'contcat' is not a word of 'orders' (ShipOrders, PATE 4.3); did you mean 'contact'?");
  CHECK(Refusal("FR1SL orders contact persue", nwol) ==
        "orders.txt:1:22: 'persue' is not one of accept, pursue, evade (contact); did you mean 'pursue'?");
  CHECK(Refusal("FR1SL orders min many", nwol) == "orders.txt:1:18: 'many' is not a whole number min can hold");
  CHECK(Refusal("FR1SL orders min 300", nwol) == "orders.txt:1:18: '300' is not a whole number min can hold");
  CHECK(Refusal("FR1SL orders move", nwol) == "orders.txt:1:18: 'move' wants a value (move)");
  CHECK(Refusal("FR1SL orders move \"Bay of Biscay", nwol) == "orders.txt:1:19: a quoted word is not closed (\")");
  CHECK(Refusal("FR1SL orders move Channel move Biscay", nwol) == "orders.txt:1:27: 'move': move is given twice");
  CHECK(Refusal("SP transfer lots to FR", nwol) ==
        "orders.txt:1:13: 'lots' is not an amount in crowns, like 1200 or 12.50 (amount)");
  CHECK(Refusal("SP transfer 12.505 to FR", nwol) ==
        "orders.txt:1:13: '12.505' is not an amount in crowns, like 1200 or 12.50 (amount)");
  CHECK(Refusal("withdraw", nwol) == "orders.txt:1:9: 'withdraw' wants a value (slot)");
  CHECK(Refusal("SP withdraw BR/ship/BR2SL", nwol) ==
        "orders.txt:1:4: 'withdraw' is written first on its line, with nothing before it");
  // The words of another rule book are not this game's.
  CHECK(Refusal("research Railroads", nwol) == "orders.txt:1:1: 'research' is an order of y1820, not of this game's rule books");
  CHECK_THAT(Refusal("move 12 to 14", {"y1820"}), Contains("accepted"));
  CHECK_THAT(Refusal("move 12 to fourteen", {"y1820"}), Contains("1:12: 'fourteen' is not a whole number"));
  // A string the schema refuses names the line it is on.
  CHECK_THAT(Refusal("FR1SL orders\nFR1SL orders port \"Br\xE2\x80\xAE" "est\"\n", nwol), Contains("orders.txt:2"));
}

// A player's file is text: a stray byte, a control character (a terminal's
// escape among them) or a bidirectional control anywhere, a comment too, is
// refused naming its line and never quoted back; Windows line ends and a
// lone carriage return (a separator) still read. Every kind's example.
TEST_CASE("order text: a stray byte or a control character is refused by its line and never quoted back", "[order-text]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {std::string("\0", 1), "U+0000 (a NUL byte) is not allowed"},
      {"\xFF\xFE", "0xFF (a byte that is not UTF-8) is not allowed in order text"},
      {"\xC0\xAF", "0xC0 (a byte that is not UTF-8) is not allowed in order text"},  // an overlong '/'
      {"\x1B[2J", "U+001B (a control character) is not allowed"},
      {"\x7F", "U+007F (a control character) is not allowed"},
      {"\xC2\x9B", "U+009B (a control character) is not allowed"},
      {"\xE2\x80\xAE", "U+202E (a bidirectional control) is not allowed"},
  };
  for (const auto& k : AllOrderKinds()) {
    const auto rs = RulesetsOf(k.ruleset);
    const std::string example(k.example);
    const auto good = Must(rules::ParseOrderText(example, "example", rs));
    CHECK(Must(rules::ParseOrderText("# \xC3\xA9t\xC3\xA9\r\n" + example + "\r\n", "crlf", rs)) == good);
    const auto space = std::min(example.find(' '), example.size());
    if (space < example.size()) {
      CHECK(Must(rules::ParseOrderText(example.substr(0, space) + "\r" + example.substr(space + 1), "cr", rs)) == good);
    }
    for (const auto& [bytes, why] : bad) {
      INFO(k.verb << ": " << example << " with " << why);
      // Each text, with the line and (byte) column of the fault.
      for (const auto& [text, line, column] : std::vector<std::tuple<std::string, int, size_t>>{
               {"# note " + bytes + "\n" + example, 1, 8},
               {example + "\n" + bytes, 2, 1},
               {example.substr(0, space) + bytes + example.substr(space), 1, space + 1},
               {example + " # " + bytes, 1, example.size() + 4}}) {
        const std::string refusal = Refusal(text, rs);
        CHECK_THAT(refusal, Catch::StartsWith("orders.txt:" + std::to_string(line) + ":" + std::to_string(column) + ": "));
        CHECK_THAT(refusal, Contains(why));
        CHECK(refusal.find(bytes) == std::string::npos);
      }
    }
  }
}

TEST_CASE("order text: players' spellings — any case, the book's abbreviations, commas and a colon after the id", "[order-text]") {
  const std::vector<std::string_view> nwol{"sow", "pate"};
  auto a = Must(rules::ParseOrderText("BR2SL: ORDERS Sail Channel, then Biscay; harbor contact Pursue, line ahead", "a", nwol));
  auto b = Must(rules::ParseOrderText("BR2SL orders move Channel then Biscay harbour contact pursue line line-ahead", "b", nwol));
  CHECK(a == b);
  // Two sea areas are "move A then B": a second name alone is no word of the form.
  CHECK(Refusal("BR2SL orders sail Channel Biscay", nwol) ==
        "orders.txt:1:27: 'Biscay' is not a word of 'orders' (ShipOrders, PATE 4.3)");
  auto c = Must(rules::ParseOrderText("br2sl ORDERS MOVE Channel THEN Biscay HARBOR Contact PURSUE LINE ahead", "c", nwol));
  CHECK(c == Must(rules::ParseOrderText("br2sl orders move Channel then Biscay harbour contact pursue line line-ahead", "c", nwol)));
  // Money in crowns; the JSON form holds hundredths.
  auto t = Must(rules::ParseOrderText("SP transfer 1200.5 to FR", "t", nwol));
  auto j = Must(schema::ParseJson("OrderFile",
                                  R"({"orders": [{"body_type": "SowOrder", "body": {"state": "SP", "body_type": "TransferOrder", "body": {"to_state": "FR", "amount_cc": 120050}}}]})",
                                  "j"));
  CHECK(t == j);
  CHECK(MustText(rules::PrintOrderText(t.data(), nwol)) == "SP transfer 1200.50 to FR\n");
  // A file from an editor: a byte-order mark, Windows line ends, comments, blank lines.
  CHECK(Must(rules::ParseOrderDocument("\xEF\xBB\xBF# orders\r\n\r\nSP transfer 1200.5 to FR\r\n", "bom", nwol)) == t);
  CHECK(Must(rules::ParseOrderDocument(std::string("\xEF\xBB\xBF") + R"({"orders": [{"body_type": "SowOrder", "body": {"state": "SP", "body_type": "TransferOrder", "body": {"to_state": "FR", "amount_cc": 120050}}}]})", "bom", nwol)) == t);
  // Nothing but comments: a file of no orders.
  auto none = Must(rules::ParseOrderText("# nothing this turn\n\n", "none", nwol));
  CHECK(flatbuffers::GetRoot<fb::OrderFile>(none.data())->orders()->size() == 0u);
  // The role line, and amphibious items.
  auto r = Must(rules::ParseOrderText("as FR.navy\nFR1TR orders load FR-I-3 load supplies 4 unload \"to\"\nas\nwithdraw FR/ship/X", "r", nwol));
  CHECK(MustText(rules::PrintOrderText(r.data(), nwol)) ==
        "as FR.navy\nFR1TR orders load FR-I-3 load supplies 4 unload \"to\"\nas\nwithdraw FR/ship/X\n");
}

// Each ruleset's README shows every kind of its orders (the example line as
// the registry has it), and every line of its text-form block reads.
TEST_CASE("order text: each ruleset's README shows an example of every order kind, and every example reads", "[order-text]") {
  for (std::string_view ruleset : {"sow", "pate", "y1820", "dog"}) {
    INFO(ruleset);
    const std::string readme = ReadAll(kSource / "rules" / std::string(ruleset) / "README.md");
    REQUIRE_FALSE(readme.empty());
    for (const auto& k : AllOrderKinds()) {
      if (k.ruleset != ruleset) continue;
      INFO(k.example);
      CHECK(readme.find(std::string(k.example)) != std::string::npos);
    }
    auto bytes = Must(rules::ParseOrderText(TextBlockAfter(readme, "## Orders in text"), std::string(ruleset) + "/README.md",
                                            RulesetsOf(ruleset)));
    CHECK(flatbuffers::GetRoot<fb::OrderFile>(bytes.data())->orders()->size() >= 2u);
  }
  // The project's README: its example, an NWOL file.
  auto bytes = Must(rules::ParseOrderText(TextBlockAfter(ReadAll(kSource / "README.md"), "**Orders in text.**"), "README.md",
                                          RulesetsOf("sow")));
  CHECK(flatbuffers::GetRoot<fb::OrderFile>(bytes.data())->orders()->size() == 4u);
}

// The 1820 orders name an improvement, a reform or a technology of the
// book's (rules/y1820/tables.h): every example of them, and every line of
// the ruleset README's text-form block, names one the tables have (an
// example naming none would be refused in any game).
TEST_CASE("order text: y1820's examples name improvements and reforms and technologies of its tables", "[order-text]") {
  std::vector<std::string> texts{TextBlockAfter(ReadAll(kSource / "rules" / "y1820" / "README.md"), "## Orders in text")};
  for (const auto& k : AllOrderKinds()) {
    if (k.ruleset == "y1820") texts.emplace_back(k.example);
  }
  int named = 0;
  for (const std::string& text : texts) {
    const auto bytes = Must(rules::ParseOrderText(text, "example", RulesetsOf("y1820")));
    for (const fb::OrderItem* item : *flatbuffers::GetRoot<fb::OrderFile>(bytes.data())->orders()) {
      const fb::Y1820Order* o = item->body_as_Y1820Order();
      REQUIRE(o != nullptr);
      auto check = [&](const flatbuffers::String* name, auto find, const char* what) {
        INFO(what << " '" << name->str() << "' in: " << text);
        CHECK(find(name->string_view()) != nullptr);
        ++named;
      };
      if (const auto* b = o->body_as_Y1820Build()) check(b->improvement(), rules::y1820::FindImprovement, "improvement");
      if (const auto* d = o->body_as_Y1820Dismantle()) check(d->improvement(), rules::y1820::FindImprovement, "improvement");
      if (const auto* r = o->body_as_Y1820Reform()) check(r->reform(), rules::y1820::FindReform, "reform");
      if (const auto* r = o->body_as_Y1820Research()) {
        check(r->tech(), [](std::string_view id) { return rules::y1820::FindTech(id); }, "technology");
      }
      if (const auto* g = o->body_as_Y1820GiveTech()) {
        check(g->tech(), [](std::string_view id) { return rules::y1820::FindTech(id); }, "technology");
      }
    }
  }
  CHECK(named >= 10);  // both texts name each kind: five kinds, twice
}

}  // namespace
}  // namespace adjutant
