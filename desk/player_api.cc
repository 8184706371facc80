// The order desk's player requests (desk.h): orders submitted and read back,
// and a player's own reports (the reports library, with his viewer).
#include "desk/internal.h"
#include "replay/proofs.h"
#include "reports/sources.h"
#include "reports/reports.h"
#include "rules/order_text.h"
#include "ledger/ledger.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "replay/orders.h"
#include "replay/schedule.h"
#include "base/utc.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/inputs_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

// A report over --max-answer-bytes: refused, with how to narrow it.
Response Desk::Impl::TooBig(size_t bytes) {
  return Error(http::status::bad_request, "max-answer-bytes: this report is " + std::to_string(bytes) +
                                              " bytes and an answer holds at most " +
                                              std::to_string(settings.max_answer_bytes) + "; ask for one turn (&turn=T)");
}

namespace {

// The rule books of a game's kind: read from its creation alone.
Result<std::vector<std::string_view>> RulesetsOf(ledger::Ledger& db, const std::string& game) {
  auto current = db.Current(game);
  if (!current.ok()) return current.status();
  auto created = replay::Fold(db, game, *current, 1, {"summary"});
  if (!created.ok()) return created.status();
  if (created->kind() == nullptr) return Status::NotFound("no game '" + game + "'");
  return created->kind()->Rulesets();
}

}  // namespace

Result<std::vector<uint8_t>> Desk::Impl::ReadOrderFile(const std::string& game, const std::string& body,
                                                       const std::vector<std::string_view>* rulesets) {
  if (!rules::IsOrderText(body)) return schema::ParseJson("OrderFile", body, "orders");
  if (rulesets) return rules::ParseOrderText(body, "orders", *rulesets);
  auto read = RulesetsOf(db, game);
  if (!read.ok()) return read.status();
  return rules::ParseOrderText(body, "orders", *read);
}

Response Desk::Impl::ReadOrders(const std::string& game, const Request& rq) {
  auto rulesets = RulesetsOf(db, game);
  if (!rulesets.ok()) return Error(StatusOf(rulesets.status()), rulesets.status().message());
  auto doc = ReadOrderFile(game, rq.body, &*rulesets);
  if (!doc.ok()) return Error(http::status::bad_request, doc.status().message());
  const auto* file = flatbuffers::GetRoot<fb::OrderFile>(doc->data());
  const size_t n = file->orders() ? file->orders()->size() : 0;
  if (n > settings.max_orders) {
    return Error(http::status::payload_too_large, "a submission holds at most " + std::to_string(settings.max_orders) +
                                                      " orders (this one " + std::to_string(n) + ")");
  }
  auto text = rules::PrintOrderText(doc->data(), *rulesets);
  if (!text.ok()) return Error(http::status::bad_request, text.status().message());
  return Json("{\"orders\": " + std::to_string(n) + ", \"text\": " + JsonString(*text) + "}");
}

Response Desk::Impl::SubmitOrders(const Session& s, const std::string& game, const std::string& person,
                                  const Request& rq) {
  // JSON, or the text form (rules/order_text.h) read with the words of the
  // game's rule books.
  auto doc = ReadOrderFile(game, rq.body);
  if (!doc.ok()) {
    const bool no_game = doc.status().code() == Status::Code::kNotFound;
    return Error(no_game ? http::status::not_found : http::status::bad_request, doc.status().message());
  }
  const auto* file = flatbuffers::GetRoot<fb::OrderFile>(doc->data());
  const size_t n = file->orders() ? file->orders()->size() : 0;
  if (n > settings.max_orders) {
    return Error(http::status::payload_too_large, "a submission holds at most " + std::to_string(settings.max_orders) +
                                                      " orders (this one " + std::to_string(n) + ")");
  }
  auto branch = db.Current(game);
  if (!branch.ok()) return Error(StatusOf(branch.status()), branch.status().message());
  // The quotas are the players'; the GA enters what a player sent him.
  if (Response over; !s.ga && OverQuota(s, rq, *branch, n, &over)) return over;
  // Another's ship, ministry or unit — or one that does not exist: the same
  // 403, naming only the order's place in the file, nothing recorded. (A
  // retry of a request already recorded gets its first answer instead.)
  std::optional<size_t> not_his;
  auto rep = replay::SubmitOrders(db, game, *branch, person, *doc,
                                  {.idempotency_key = rq.idempotency_key, .not_his = &not_his, .entered_by_ga = s.ga,
                                   .received_at = WallNow(settings), .warm = &warm});
  if (not_his.has_value()) {
    if (!s.ga) return Error(http::status::forbidden, rep.status().message());
    return Error(http::status::bad_request, "orders[" + std::to_string(*not_his) + "]: not " + person +
                                                "'s to give: a person orders only his own ships, ministries, nation "
                                                "or units, under roles he holds (is '" + person + "' in the game?)");
  }
  if (!rep.ok()) return Error(StatusOf(rep.status()), rep.status().message());
  // Answered only now: the batch is synced (Ledger::Append).
  auto j = replay::SubmitSummaryJson(game, *branch, *rep);
  if (!j.ok()) return Error(http::status::internal_server_error, j.status().message());
  return Json(*j);
}

// The person's quotas for the orders window (--orders-per-turn,
// --order-bytes-per-turn), counted from the ledger (his OrderSubmitted
// events since the window opened), so a restart does not reset them. A
// retry of his own submission already recorded is not counted again: it
// is answered by SubmitOrders as before (a key that another used is no
// way around the quota). Over either: *answer is the 429 that names the
// limit, and nothing is recorded.
bool Desk::Impl::OverQuota(const Session& s, const Request& rq, const std::string& branch, size_t n, Response* answer) {
  auto fail = [&](const Status& st) {
    *answer = Error(StatusOf(st), st.message());
    return true;
  };
  if (!rq.idempotency_key.empty()) {
    // His own key (keys are their sender's): a retry of his own submission.
    auto prior = db.FindIdempotent(s.game, ledger::IdempotencyOwner(ActorKind::kPlayer, s.person), rq.idempotency_key);
    if (!prior.ok()) return fail(prior.status());
    if (prior->has_value()) {
      bool his = false;
      const uint64_t first = (*prior)->result.first_seq;
      Status st = db.Read(s.game, branch, first, first, [&](const ledger::EventView& e) {
        const auto* o = e.event()->payload_as_OrderSubmitted();
        his = o && o->person()->str() == s.person;
        return Status::Ok();
      });
      if (!st.ok()) return fail(st);
      if (his) return false;
    }
  }
  auto world = warm.Fold(db, s.game, branch);
  if (!world.ok()) return fail(world.status());
  auto at = replay::OrderPositionOf(*world);
  if (!at.ok()) return false;  // no orders are taken now: SubmitOrders says why
  auto from = db.SeekTurn(s.game, branch, *at);
  if (!from.ok()) return fail(from.status());
  size_t orders = 0, bytes = 0;
  if (from->has_value()) {
    Status st = db.Read(s.game, branch, **from, UINT64_MAX, [&](const ledger::EventView& e) {
      if (const auto* o = e.event()->payload_as_OrderSubmitted(); o && o->person()->str() == s.person) {
        ++orders;
        bytes += e.bytes.size();
      }
      return Status::Ok();
    });
    if (!st.ok()) return fail(st);
  }
  const std::string turn = at->turn.ToString();
  if (orders + n > settings.orders_per_turn) {
    *answer = Error(http::status::too_many_requests,
                    "orders-per-turn: " + s.person + " has submitted " + std::to_string(orders) + " orders for " + turn +
                        " and may submit " + std::to_string(settings.orders_per_turn) + " in one turn (this submission " +
                        std::to_string(n) + " more); nothing was recorded");
    return true;
  }
  if (bytes + rq.body.size() > settings.order_bytes_per_turn) {
    *answer = Error(http::status::too_many_requests,
                    "order-bytes-per-turn: " + s.person + " has submitted " + std::to_string(bytes) +
                        " bytes of orders for " + turn + " and may submit " +
                        std::to_string(settings.order_bytes_per_turn) + " in one turn (this submission " +
                        std::to_string(rq.body.size()) + " more); nothing was recorded");
    return true;
  }
  return false;
}

// The person's orders for the coming turn, as they stand: one page of at
// most --page-rows (?limit= fewer) orders after ?after=SEQ; next_after,
// when not 0, asks for the next.
Response Desk::Impl::OwnOrders(const Session& s, const std::map<std::string, std::string>& q) {
  size_t limit = settings.page_rows;
  uint64_t after = 0;
  try {
    if (q.count("limit")) {
      const unsigned long long l = std::stoull(q.at("limit"));
      if (l == 0 || q.at("limit").find_first_not_of("0123456789") != std::string::npos) throw std::invalid_argument("");
      limit = static_cast<size_t>(std::min<unsigned long long>(l, settings.page_rows));
    }
  } catch (...) {
    return Error(http::status::bad_request, "limit: a number of rows from 1 to " + std::to_string(settings.page_rows));
  }
  try {
    if (q.count("after")) {
      if (q.at("after").find_first_not_of("0123456789") != std::string::npos) throw std::invalid_argument("");
      after = std::stoull(q.at("after"));
    }
  } catch (...) {
    return Error(http::status::bad_request, "after: a sequence number (the last page's next_after)");
  }
  auto branch = db.Current(s.game);
  if (!branch.ok()) return Error(StatusOf(branch.status()), branch.status().message());
  auto world = warm.Fold(db, s.game, *branch);
  if (!world.ok()) return Error(StatusOf(world.status()), world.status().message());
  auto at = replay::OrderPositionOf(*world);
  if (!at.ok()) return Error(StatusOf(at.status()), at.status().message());
  // His orders from the page's `after` on, with their fate (replay/orders.h).
  replay::OrdersQuery oq;
  oq.person = s.person;
  oq.after = after;
  oq.limit = limit;
  oq.with_events = true;
  auto given = replay::OrdersGiven(db, s.game, *branch, *at, oq);
  if (!given.ok()) return Error(StatusOf(given.status()), given.status().message());
  const std::vector<std::string_view> rulesets =
      world->kind() ? world->kind()->Rulesets() : std::vector<std::string_view>{};
  flatbuffers::FlatBufferBuilder f;
  std::vector<flatbuffers::Offset<fb::DeskOrderRow>> out;
  for (const replay::GivenOrder& g : given->orders) {
    const char* status = g.fate == replay::OrderFate::kRefused      ? "rejected"
                         : g.fate == replay::OrderFate::kSuperseded ? "superseded"
                         : g.fate == replay::OrderFate::kWithdrawn  ? "withdrawn"
                         : g.withdrawal                             ? "withdrawal"
                                                                    : "stands";
    auto j = schema::ToJson("Event", reinterpret_cast<const uint8_t*>(g.event.data()));
    const std::string text = reports::OrderLineOf(g.event, rulesets);
    out.push_back(fb::CreateDeskOrderRowDirect(f, g.seq, g.slot.c_str(), status, g.rule.c_str(), g.reason.c_str(),
                                               j.ok() ? j->c_str() : "", text.c_str(), g.received_at));
  }
  const uint64_t next_after = given->next_after;
  // The deadline that closes these orders, for the page's reminder.
  auto sched = replay::ScheduleViewOf(db, s.game, *branch, *world);
  if (!sched.ok()) return Error(StatusOf(sched.status()), sched.status().message());
  const int64_t now = WallNow(settings);
  const std::optional<projections::Deadline>& deadline = sched->deadline;
  const std::string deadline_text = deadline ? FormatUtc(deadline->at) : "";
  // The turn in words and the phase next adjudicated, for the page's heading.
  auto next = replay::NextPhaseOf(*world);
  const std::string turn_name = next.ok() ? next->turn_name : "", next_phase = next.ok() ? next->name : "";
  f.Finish(fb::CreateDeskOrdersDirect(f, s.game.c_str(), branch->c_str(), at->turn.ToString().c_str(), &out, next_after,
                                      deadline_text.c_str(), deadline ? deadline->at : 0,
                                      deadline ? deadline->at - now : 0, sched->state.set && sched->state.paused,
                                      turn_name.c_str(), next_phase.c_str()));
  return Json(JsonOf("DeskOrders", f));
}

Response Desk::Impl::Report(const Session& s, const std::map<std::string, std::string>& q) {
  // A typed request for the reports library, which decides what this
  // person may read (reports::MayRead): whose report it is defaults to his
  // own, and naming another's is refused (403).
  const std::string kind = q.count("kind") ? q.at("kind") : "";
  const std::string format = q.count("format") ? q.at("format") : "text";
  auto k = reports::KindNamed(kind);
  if (!k) return Error(http::status::bad_request, "kind: orders, events, positions, treasury, nation, battle, map or choices");
  reports::Request rq;
  rq.kind = *k;
  rq.game = s.game;
  for (const auto& [field, to] : {std::pair<const char*, std::string*>{"state", &rq.state}, {"player", &rq.player},
                                  {"nation", &rq.nation}, {"side", &rq.side}}) {
    if (!q.count(field)) continue;
    if (!SafeWord(q.at(field))) return Error(http::status::bad_request, std::string(field) + ": not a name");
    *to = q.at(field);
  }
  if (q.count("turn")) {
    if (!SafeWord(q.at("turn"))) return Error(http::status::bad_request, "turn: not a turn");
    (rq.kind == reports::Kind::kBattle ? rq.move : rq.turn) = q.at("turn");
  }
  if (format == "svg") {
    if (kind != "positions" && kind != "map" && kind != "battle") {
      return Error(http::status::bad_request, "format svg: positions, map and battle only");
    }
    rq.format = reports::Format::kSvg;
  } else if (format == "json") {
    rq.format = reports::Format::kJson;
  } else if (format != "text") {
    return Error(http::status::bad_request, "format: text, json or svg");
  }
  // His roles as the game's roster stands now: a ship given to him after
  // he logged in is his at once (PATE 2.3), as the order check has it.
  auto branch = db.Current(s.game);
  if (!branch.ok()) return Error(StatusOf(branch.status()), branch.status().message());
  reports::Viewer viewer;
  viewer.person = s.person;
  if (auto now = reports::PersonNow(db, s.game, *branch, s.person); now.ok()) {
    viewer = std::move(now).value();
  } else if (now.status().code() != Status::Code::kNotFound) {
    return Error(StatusOf(now.status()), now.status().message());
  }
  bool not_yours = false;
  auto report = reports::Build(db, viewer, rq, &not_yours);
  if (not_yours) return Error(http::status::forbidden, report.status().message());
  if (!report.ok()) {
    return Error(report.status().code() == Status::Code::kCorruption ? http::status::internal_server_error
                                                                      : http::status::bad_request,
                 report.status().message());
  }
  if (report->body.size() > settings.max_answer_bytes) return TooBig(report->body.size());
  Response r;
  r.type = rq.format == reports::Format::kSvg    ? "image/svg+xml"
           : rq.format == reports::Format::kJson ? "application/json"
                                                 : "text/plain; charset=utf-8";
  r.body = std::move(report->body);
  return r;
}

// A finished turn's digest (replay/digest.h), public: a hash of the log of
// the game's current branch up to the end of the turn, as `adjutant digest
// --json` prints it (TurnDigestResult).
Response Desk::Impl::Digest(const std::string& game, const std::string& turn_text) {
  auto turn = Turn::Parse(turn_text);
  if (!turn) return Error(http::status::bad_request, "turn: '" + turn_text + "' is not a turn (YEAR.SEASON.TURN, e.g. 1805.1.3)");
  auto current = db.Current(game);
  const std::string branch = current.ok() ? *current : "main";
  auto d = replay::DigestTurn(db, game, branch, *turn);
  if (!d.ok()) {
    return Error(d.status().code() == Status::Code::kCorruption ? http::status::internal_server_error
                                                                 : http::status::bad_request,
                 d.status().message());
  }
  flatbuffers::FlatBufferBuilder f;
  fb::Turn ft(turn->major, turn->minor, turn->step);
  f.Finish(fb::CreateTurnDigestResultDirect(f, game.c_str(), branch.c_str(), &ft, d->last_seq, d->events, d->hex.c_str()));
  return Json(JsonOf("TurnDigestResult", f));
}

// GET /api/games/G/proof?turn=T[&since=N][&player=P]: the report proof of a
// finished turn (`adjutant proof`, ReportProof JSON). A player's own — naming
// another is refused; the GA's for the player he names.
Response Desk::Impl::Proof(const Session& s, const std::string& game, const std::map<std::string, std::string>& q) {
  std::string person = s.person;
  if (q.count("player")) {
    if (!SafeWord(q.at("player"))) return Error(http::status::bad_request, "player: not a name");
    if (!s.ga && q.at("player") != s.person) return Error(http::status::forbidden, "player: your own proof only");
    person = q.at("player");
  }
  if (s.ga && person.empty()) return Error(http::status::bad_request, "player: whose proof, e.g. ?player=nelson");
  if (!q.count("turn") || !SafeWord(q.at("turn"))) return Error(http::status::bad_request, "turn: e.g. ?turn=1805.1.2");
  auto turn = Turn::Parse(q.at("turn"));
  if (!turn) return Error(http::status::bad_request, "turn: '" + q.at("turn") + "' is not a turn (e.g. 1805.1.3)");
  std::optional<uint64_t> since;
  if (q.count("since")) {
    const std::string& n = q.at("since");
    if (n.empty() || n.size() > 19 || n.find_first_not_of("0123456789") != std::string::npos) {
      return Error(http::status::bad_request, "since: a tree size, e.g. ?since=1492");
    }
    since = std::stoull(n);
  }
  auto current = db.Current(game);
  if (!current.ok()) return Error(StatusOf(current.status()), current.status().message());
  auto world = replay::Fold(db, game, *current, UINT64_MAX, {"roster"});
  if (!world.ok()) return Error(StatusOf(world.status()), world.status().message());
  if (!world->roster().Find(person)) return Error(http::status::bad_request, "player: no such person in " + game);
  replay::ProofShape shape;
  shape.since = since;
  auto proof = reports::ReportProofOf(db, game, *current, person, *turn, {}, shape);
  if (!proof.ok()) {
    return Error(proof.status().code() == Status::Code::kCorruption ? http::status::internal_server_error
                 : proof.status().code() == Status::Code::kNotFound ? http::status::not_found
                                                                    : http::status::bad_request,
                 proof.status().message());
  }
  auto json = schema::ToJson("ReportProof", proof->data());
  if (!json.ok()) return Error(http::status::internal_server_error, json.status().message());
  if (json->size() > settings.max_answer_bytes) return TooBig(json->size());
  return Json(*json);
}

}  // namespace adjutant::desk
