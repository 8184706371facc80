// The conformance runner (issue 5): the bundled cases pass, and a case whose
// expectation the rules do not meet fails, naming the value.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "support/build_paths.h"
#include "replay/conform.h"
#include "rules/versions.h"
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

namespace {

// The inland-city case with `extra` JSON fields added before its "expect".
replay::CaseResult RunWith(const std::string& steps, const std::string& extra, bool* ran, std::string* error) {
  std::string json = Slurp(std::string(ADJUTANT_FIXTURES) + "/conformance/sow/income-2.2.json");
  auto s = json.find("\"steps\"");
  auto e = json.find("\"expect\"");
  REQUIRE((s != std::string::npos && e != std::string::npos));
  json.replace(s, e - s, steps + ",\n  " + extra + (extra.empty() ? "" : ",\n  "));
  auto buf = schema::ParseJson("ConformanceCase", json, "case.json");
  INFO(json);
  REQUIRE(buf.ok());
  TempDir dir;
  auto r = replay::RunCase(*flatbuffers::GetRoot<fb::ConformanceCase>(buf->data()), dir.Sub("db"));
  *ran = r.ok();
  if (!r.ok()) {
    *error = r.status().message();
    return {};
  }
  return *r;
}

}  // namespace

TEST_CASE("conform: expect_events counts the events of a kind holding every string", "[conform]") {
  const std::string steps = R"("steps": [{"adjudicate": "phase"}])";
  bool ran = false;
  std::string error;
  auto ok = RunWith(steps,
                    R"("expect_events": [{"kind": "TreasuryLine", "contains": ["Strelsau", "SOW 2.2"], "count": 1},
                                         {"kind": "PhaseCompleted"}, {"kind": "DieRolled", "count": 0}])",
                    &ran, &error);
  REQUIRE(ran);
  CHECK(ok.passed());
  auto bad = RunWith(steps,
                     R"("expect_events": [{"kind": "TreasuryLine", "contains": ["Strelsau"], "count": 2},
                                          {"kind": "OrderRejected"}])",
                     &ran, &error);
  REQUIRE(ran);
  REQUIRE(bad.differences.size() == 2);
  CHECK(bad.differences[0] == "expect_events[0] TreasuryLine containing \"Strelsau\": expected 2, got 1");
  CHECK(bad.differences[1] == "expect_events[1] OrderRejected: expected at least one, got none");
}

TEST_CASE("conform: a step marked refused must be refused under its rule", "[conform]") {
  // Treasury corrections need a state the game has: this one is refused.
  const std::string refused_step = R"("steps": [{"directive": {"reason": "r", "body_type": "SowDirective",
      "body": {"body_type": "CorrectTreasury", "body": {"state": "YY", "amount_cc": 5}}}, "refused": "YY"},
      {"adjudicate": "phase"}])";
  bool ran = false;
  std::string error;
  auto ok = RunWith(refused_step, "", &ran, &error);
  INFO(error);
  REQUIRE(ran);
  CHECK(ok.passed());  // nothing appended: the balance is the same 1045 Cr
  // Marked refused under another rule: the case cannot be played.
  std::string other = refused_step;
  other.replace(other.find("\"refused\": \"YY\""), 15, "\"refused\": \"SOW 9.9\"");
  RunWith(other, "", &ran, &error);
  CHECK_FALSE(ran);
  CHECK_THAT(error, Catch::Contains("steps[0].refused: refused, but not under SOW 9.9"));
  // An accepted step marked refused: the case cannot be played either.
  const std::string accepted = R"("steps": [{"adjudicate": "phase"}, {"directive": {"reason": "r", "body_type": "SowDirective",
      "body": {"body_type": "CorrectTreasury", "body": {"state": "XX", "amount_cc": 5}}}, "refused": "SOW"}])";
  RunWith(accepted, "", &ran, &error);
  CHECK_FALSE(ran);
  CHECK_THAT(error, Catch::Contains("steps[1].refused: the step was accepted"));
}

TEST_CASE("conform: a case names the rules version it is played under", "[conform][versions]") {
  bool ran = false;
  std::string error;
  auto v1 = RunWith(R"("steps": [{"adjudicate": "phase"}])", R"("rules_version": "sow=1", "expect_events": [{"kind": "PhaseStarted", "contains": ["\"rules_version\": 1"], "count": 1}])", &ran, &error);
  REQUIRE(ran);
  CHECK(v1.passed());
  auto latest = RunWith(R"("steps": [{"adjudicate": "phase"}])",
                        R"("expect_events": [{"kind": "PhaseStarted", "contains": ["\"rules_version\": )" +
                            std::to_string(rules::LatestVersion("sow")) + R"("], "count": 1}])",
                        &ran, &error);
  CHECK(latest.passed());
  const std::string unknown = "sow=" + std::to_string(rules::LatestVersion("sow") + 1);
  RunWith(R"("steps": [{"adjudicate": "phase"}])", R"("rules_version": ")" + unknown + R"(")", &ran, &error);
  CHECK_FALSE(ran);
  CHECK_THAT(error, Catch::Contains("rules_version: rules version '" + unknown + "' is not known"));
}

TEST_CASE("conform: orders and directives before a case's first adjudication are judged under its rules version",
          "[conform][versions]") {
  // Two pinned cases that adjudicate a turn first, run without that step:
  // the game adopts the case's versions only at its first adjudication, so
  // the runner judges the steps before it under them itself. Under the
  // newest, pate=2's route order is refused when received (pate=3's check),
  // and pate=7's seizure takes the next free number (pate=8's).
  for (const char* name : {"refused-route-6.2-v2.json", "seize-posts-2.6-v7.json"}) {
    std::string json = Slurp(std::string(ADJUTANT_FIXTURES) + "/conformance/pate/" + name);
    const size_t steps = json.find("\"steps\": [");
    REQUIRE(steps != std::string::npos);
    const size_t open = json.find('{', steps), close = json.find('}', open);
    REQUIRE(json.substr(open, close - open).find("\"adjudicate\": \"turn\"") != std::string::npos);
    const size_t comma = json.find(',', close);
    REQUIRE(comma != std::string::npos);
    json.erase(open, comma + 1 - open);
    auto buf = schema::ParseJson("ConformanceCase", json, name);
    REQUIRE(buf.ok());
    TempDir dir;
    auto r = replay::RunCase(*flatbuffers::GetRoot<fb::ConformanceCase>(buf->data()), dir.Sub("db"));
    REQUIRE(r.ok());
    INFO(name);
    for (const std::string& d : r->differences) UNSCOPED_INFO(d);
    CHECK(r->passed());
  }
}

TEST_CASE("conform: a case's scenario meets the checks of adjutant new (SOW 2.9: no piracy)", "[conform]") {
  std::string json = Slurp(std::string(ADJUTANT_FIXTURES) + "/conformance/sow/income-2.2.json");
  auto at = json.find("\"season_kind\": \"War\",");
  REQUIRE(at != std::string::npos);
  json.insert(at, "\"piracy\": true, ");
  auto buf = schema::ParseJson("ConformanceCase", json, "case.json");
  REQUIRE(buf.ok());
  TempDir dir;
  auto r = replay::RunCase(*flatbuffers::GetRoot<fb::ConformanceCase>(buf->data()), dir.Sub("db"));
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.status().message(), Catch::Contains("scenario: sow.piracy: SOW 2.9"));
}
