// Identifiers and text (schema/codec.h CheckText, applied to every string of
// every JSON document ParseJson reads): no invalid UTF-8, NUL, control
// characters or bidirectional controls; line breaks and tabs only in prose
// fields. Refused by `adjutant order`, `adjutant directive`, `adjutant new`
// and the desk, naming the field's path and the character, nothing recorded.
#include <catch2/catch.hpp>
#include <sodium.h>

#include <fstream>

#include "support/build_paths.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"
#include "schema/text.h"
#include "support/desk_client.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using adjutant::testing::Adjutant;
using adjutant::testing::Slurp;
using adjutant::testing::TempDir;

namespace {

const std::string F = ADJUTANT_FIXTURES;

// An order for a ship, a DogIntent for a unit, a ruling: JSON documents with
// `s` (already JSON-escaped) in the field under test.
std::string ShipOrder(const std::string& ship) {
  return R"({"orders": [{"body_type": "PateOrder", "body": {"body_type": "ShipOrders", "body": {"ship": ")" + ship +
         R"(", "harbour": true}}}]})";
}
std::string UnitOrder(const std::string& unit) {
  return R"({"orders": [{"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": ")" + unit +
         R"(", "hold": true}}}]})";
}
std::string Ruling(const std::string& text) {
  return R"({"reason": "the umpire's ruling", "body_type": "Ruling", "body": {"text": ")" + text + R"("}})";
}

std::string Refusal(std::string_view table, const std::string& json) {
  auto r = schema::ParseJson(table, json, "doc");
  return r.ok() ? std::string("accepted") : r.status().message();
}

uint64_t HeadSeq(const std::string& db, const std::string& game) {
  ledger::OpenOptions o;
  o.read_only = true;
  auto l = ledger::Ledger::Open(db, o);
  REQUIRE(l.ok());
  auto h = (*l)->HeadOf(game, "main");
  REQUIRE(h.ok());
  return h->seq;
}

}  // namespace

TEST_CASE("text: every string of a parsed document is checked, the refusal naming the field's path and the "
          "character",
          "[schema][text]") {
  CHECK(Refusal("OrderFile", ShipOrder("BR2\\u0000SL")) ==
        "doc: orders[0].body.body.ship: U+0000 (a NUL byte) is not allowed");
  CHECK(Refusal("OrderFile", UnitOrder("\\u202EBR-29")) ==
        "doc: orders[0].body.body.unit: U+202E (a bidirectional control) is not allowed");
  for (const char* bidi : {"\\u202A", "\\u202D", "\\u2066", "\\u2069", "\\u200E", "\\u200F", "\\u061C"}) {
    INFO(bidi);
    CHECK(Refusal("OrderFile", UnitOrder(std::string("BR") + bidi)).find("(a bidirectional control)") !=
          std::string::npos);
  }
  for (const char* control : {"\\u0001", "\\u001b", "\\u007f", "\\u0085", "\\u009b", "\\r"}) {
    INFO(control);
    CHECK(Refusal("OrderFile", UnitOrder(std::string("BR") + control)).find("(a control character)") !=
          std::string::npos);
    CHECK(Refusal("DirectiveFile", Ruling(std::string("a ruling") + control)).find("body.text: U+") !=
          std::string::npos);
  }
  // A line break or a tab is prose's, not a name's.
  CHECK(Refusal("DirectiveFile", Ruling("first\\nsecond\\tthird")) == "accepted");
  CHECK(Refusal("OrderFile", UnitOrder("BR\\n29")) ==
        "doc: orders[0].body.body.unit: U+000A (a control character) is not allowed");
  CHECK(Refusal("DirectiveFile", Ruling("x\\u0007")) ==
        "doc: body.text: U+0007 (a control character) is not allowed (free text may hold line breaks and tabs only)");
  // Invalid UTF-8, raw or written as escapes the parser turns into bytes.
  CHECK(Refusal("OrderFile", UnitOrder("BR\xff")) != "accepted");
  CHECK(Refusal("OrderFile", UnitOrder("BR\xc0\xaf")) != "accepted");
  CHECK(Refusal("OrderFile", UnitOrder("BR\\xff")) != "accepted");
  // Strings in vectors, nested documents and every table.
  CHECK(Refusal("ConformanceCase", R"({"name": "c", "scenario": {"name": "s", "rulesets": ["dog", "s\u0000ow"]}})") ==
        "doc: scenario.rulesets[1]: U+0000 (a NUL byte) is not allowed");
  // What people write is still welcome.
  CHECK(Refusal("OrderFile", UnitOrder("Santísima Trinidad")) == "accepted");
  CHECK(Refusal("OrderFile", UnitOrder("Sant\\u00edsima Trinidad \\u2014 \\ud83d\\udea2")) == "accepted");
  CHECK(Refusal("DirectiveFile", Ruling("Le général Lasalle est tué à Wagram.")) == "accepted");

  // CheckText alone, as the CLI applies it to options.
  CHECK(schema::CheckText("--text", std::string("a\0b", 3), schema::TextRule::kFreeText).message() ==
        "--text: U+0000 (a NUL byte) is not allowed");
  CHECK(schema::CheckText("password", "tab\there", schema::TextRule::kSecret).ok());
  CHECK(!schema::CheckText("password", std::string("a\0", 2), schema::TextRule::kSecret).ok());
  CHECK(schema::CheckText("x", "\xed\xa0\x80", schema::TextRule::kName).message() == "x: invalid UTF-8 at byte 0");
  CHECK(schema::CheckText("x", "ab\xf4\x90\x80\x80", schema::TextRule::kName).message() == "x: invalid UTF-8 at byte 2");
}

TEST_CASE("text: adjutant order, directive, new, roll and ruling refuse them, naming the field and the character, and "
          "record nothing",
          "[schema][text][cli]") {
  TempDir dir;
  const std::string db = dir.Sub("db");
  REQUIRE(Adjutant({"--db", db, "new", "b", "--scenario", F + "/dog/talavera-brigade.json", "--seed", "1809"}).code == 0);
  std::ofstream(dir.Sub("pw")) << "victor-1809\n";
  REQUIRE(Adjutant({"--db", db, "password", "b", "--person", "victor", "--password-file", dir.Sub("pw")}).code == 0);
  const uint64_t head = HeadSeq(db, "b");
  auto order = [&](const std::string& json) {
    std::ofstream(dir.Sub("o.json"), std::ios::trunc) << json;
    return Adjutant({"--db", db, "order", "b", dir.Sub("o.json"), "--as", "victor", "--password-file", dir.Sub("pw")});
  };
  auto directive = [&](const std::string& json) {
    std::ofstream(dir.Sub("d.json"), std::ios::trunc) << json;
    return Adjutant({"--db", db, "directive", "b", dir.Sub("d.json")});
  };

  auto nul = order(UnitOrder("FR-24L-1\\u0000 and more"));
  CHECK(nul.code == 2);
  CHECK(nul.err.find("orders[0].body.body.unit: U+0000 (a NUL byte) is not allowed") != std::string::npos);
  auto ship = order(ShipOrder("BR2\\u0000SL"));
  CHECK(ship.code == 2);
  CHECK(ship.err.find("orders[0].body.body.ship: U+0000") != std::string::npos);
  auto bidi = order(UnitOrder("\\u202eFR-24L-1"));
  CHECK(bidi.code == 2);
  CHECK(bidi.err.find("orders[0].body.body.unit: U+202E (a bidirectional control)") != std::string::npos);
  auto control = directive(Ruling("\\u001b[2Jall is well"));
  CHECK(control.code == 2);
  CHECK(control.err.find("body.text: U+001B (a control character)") != std::string::npos);
  auto ruling = Adjutant({"--db", db, "ruling", "b", "--reason", "r", "--text", "evil\x1b[2J"});
  CHECK(ruling.code == 2);
  CHECK(ruling.err.find("--text: U+001B") != std::string::npos);
  auto roll = Adjutant({"--db", db, "roll", "b", "--purpose", "p\xe2\x80\xae", "--rule", "DOG 1"});
  CHECK(roll.code == 2);
  CHECK(roll.err.find("--purpose: U+202E") != std::string::npos);
  auto person = Adjutant({"--db", db, "password", "b", "--person", "victor\x7f", "--password-file", dir.Sub("pw")});
  CHECK(person.code == 2);
  CHECK(person.err.find("--person: U+007F (a control character)") != std::string::npos);
  CHECK(HeadSeq(db, "b") == head);

  // A unit's name in a scenario.
  std::string scenario = Slurp(F + "/dog/talavera-brigade.json");
  const std::string hill = "Major-General Rowland Hill";
  REQUIRE(scenario.find(hill) != std::string::npos);
  std::string bad = scenario;
  bad.replace(bad.find(hill), hill.size(), "Major-General \\u202eRowland Hill");
  std::ofstream(dir.Sub("s.json")) << bad;
  auto created = Adjutant({"--db", db, "new", "bad", "--scenario", dir.Sub("s.json")});
  CHECK(created.code == 2);
  CHECK(created.err.find(".name: U+202E (a bidirectional control) is not allowed") != std::string::npos);
  CHECK(Adjutant({"--db", db, "log", "bad"}).code == 2);

  // Accented names and prose with line breaks are recorded.
  auto ok = directive(Ruling("La Sant\\u00edsima Trinidad est prise.\\nLe reste de la flotte rentre."));
  INFO(ok.err);
  CHECK(ok.code == 0);
  std::string accented = scenario;
  accented.replace(accented.find(hill), hill.size(), "Teniente General Gregorio García de la Cuesta");
  std::ofstream(dir.Sub("s2.json")) << accented;
  CHECK(Adjutant({"--db", db, "new", "cuesta", "--scenario", dir.Sub("s2.json")}).code == 0);
  CHECK(HeadSeq(db, "b") == head + 1);
}

TEST_CASE("text: the desk refuses them with 400, naming the field and the character, and records nothing",
          "[schema][text][desk]") {
  REQUIRE(sodium_init() >= 0);
  TempDir dir;
  auto opened = ledger::Ledger::Open(dir.Sub("db"));
  REQUIRE(opened.ok());
  ledger::Ledger& db = **opened;
  REQUIRE(testing::CreateTalavera(db).ok());
  desk::Settings s;
  s.ga_pwhash = testing::CheapPasswordHash("the-ga-secret");
  auto started = testing::StartDesk(db, s);
  REQUIRE(started.ok());
  const uint16_t port = (*started)->port();
  const std::string victor = testing::TokenOf(
      testing::HttpCall(port, "POST", "/api/login", R"({"game": "talavera", "person": "victor", "password": "victor-1809"})")
          .body);
  REQUIRE(!victor.empty());
  const std::string ga = testing::TokenOf(testing::HttpCall(port, "POST", "/api/ga/login", R"({"password": "the-ga-secret"})").body);
  REQUIRE(!ga.empty());
  const uint64_t head = db.HeadOf("talavera", "main")->seq;

  struct Case {
    std::string path, body, token, expect;
  };
  for (const Case& c : std::vector<Case>{
           {"/api/games/talavera/orders", UnitOrder("FR-24L-1\\u0000 and more"), victor,
            "orders[0].body.body.unit: U+0000 (a NUL byte) is not allowed"},
           {"/api/games/talavera/orders", ShipOrder("BR2\\u0000SL"), victor, "orders[0].body.body.ship: U+0000"},
           {"/api/games/talavera/orders", UnitOrder("FR-24L-1\\u202e"), victor,
            "orders[0].body.body.unit: U+202E (a bidirectional control)"},
           {"/api/games/talavera/directives", Ruling("\\u001b[2Jall is well"), ga, "body.text: U+001B (a control character)"},
       }) {
    INFO(c.body);
    auto r = testing::HttpCall(port, "POST", c.path, c.body, c.token);
    CHECK(r.status == 400);
    CHECK(r.body.find(c.expect) != std::string::npos);
  }
  CHECK(db.HeadOf("talavera", "main")->seq == head);
  auto ok = testing::HttpCall(port, "POST", "/api/games/talavera/directives", Ruling("Sant\\u00edsima Trinidad"), ga);
  CHECK(ok.status == 200);
  CHECK(db.HeadOf("talavera", "main")->seq == head + 1);
  (*started)->Stop();
  (*started)->Wait();
}

// What an older version recorded may not be text (a mail's subject taken as
// sent): ToJson still renders it, as JSON, a byte that is not UTF-8 becoming
// U+FFFD; a control character is JSON-escaped; a backslash the text itself
// holds before an 'x' is not taken for one.
TEST_CASE("text: ToJson renders a recorded string that is not UTF-8 as JSON", "[text]") {
  flatbuffers::FlatBufferBuilder f;
  f.Finish(fb::CreateDirective(f, f.CreateString(std::string("a\\x41 \xFF\xFE \x1b[2J \xC3\xA9 \\\\x") + '\0' + "z")));
  auto json = schema::ToJson("Directive", f.GetBufferPointer());
  REQUIRE(json.ok());
  CHECK(*json == R"({"reason": "a\\x41 \ufffd\ufffd \u001B[2J \u00E9 \\\\x\u0000z","body_type": "NONE"})");
  CHECK(json->find("\\xFF") == std::string::npos);
}
