// The conformance runner (issue 5): the bundled cases pass, and a case whose
// expectation the rules do not meet fails, naming the value.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "replay/conform.h"
#include "schema/codec.h"
#include "schema/inputs_generated.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace adjutant;
using namespace adjutant::testing;

TEST_CASE("conform: the bundled cases pass", "[conform][cli]") {
  Run r = Adjutant({"conform", std::string(ADJUTANT_FIXTURES) + "/conformance"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains(" passed, 0 failed"));
}

TEST_CASE("conform: an expectation the rules do not meet fails, naming the value", "[conform]") {
  std::string json = Slurp(std::string(ADJUTANT_FIXTURES) + "/conformance/sow/income-2.2.json");
  auto at = json.find("1045 Cr");
  REQUIRE(at != std::string::npos);
  json.replace(at, 7, "1046 Cr");
  auto buf = schema::ParseJson("ConformanceCase", json, "case.json");
  REQUIRE(buf.ok());
  TempDir dir;
  auto r = replay::RunCase(*flatbuffers::GetRoot<fb::ConformanceCase>(buf->data()), dir.Sub("db"));
  REQUIRE(r.ok());
  CHECK_FALSE(r->passed());
  REQUIRE(r->differences.size() == 1);
  CHECK(r->differences[0] == "treasury XX balance: expected \"1046 Cr\", got \"1045 Cr\"");
}

TEST_CASE("conform: scripted dice that run out stop the case with the roll named", "[conform]") {
  std::string json = Slurp(std::string(ADJUTANT_FIXTURES) + "/conformance/pate/move-6.2.json");
  auto at = json.find("\"dice\": [");
  REQUIRE(at != std::string::npos);
  auto end = json.find(']', at);
  json.replace(at, end - at + 1, "\"dice\": [50]");
  auto buf = schema::ParseJson("ConformanceCase", json, "case.json");
  REQUIRE(buf.ok());
  TempDir dir;
  auto r = replay::RunCase(*flatbuffers::GetRoot<fb::ConformanceCase>(buf->data()), dir.Sub("db"));
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(), Catch::Contains("used up by the roll for wind"));
}
