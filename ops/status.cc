// `adjutant status`: where a game stands — the turn (or move) orders now go
// to, the phase to adjudicate next, and for each person holding roles how
// many orders he has given for it and what became of them on receipt; who
// has given none; the last finished turn and its digest. Read from the log:
// the roster and the position from the folded world, the orders from the
// events recorded since the coming turn's orders window opened.
#include <flatbuffers/flatbuffers.h>

#include <map>

#include "ops/internal.h"
#include "projections/roster.h"
#include "projections/summary.h"
#include "replay/digest.h"
#include "replay/driver.h"
#include "replay/mail.h"
#include "replay/orders.h"
#include "replay/schedule.h"
#include "base/utc.h"
#include "rules/kind.h"
#include "schema/event_generated.h"
#include "schema/reports_generated.h"

namespace adjutant::ops {
namespace {

namespace P = projections;

const P::MailBox* MailBoxOf(const P::MailState& m, const std::string& person) {
  auto it = m.boxes.find(person);
  return it == m.boxes.end() ? nullptr : &it->second;
}

struct Orders {
  uint32_t submitted = 0, refused = 0, superseded = 0, withdrawn = 0;
  uint32_t withdrawals = 0;  // his withdrawals received (they order nothing: not among those standing)
  uint64_t last_seq = 0;
  int64_t last_at = 0;  // when his last order was received (0: not known)
  uint32_t stand() const { return submitted - refused - superseded - withdrawn - withdrawals; }
};

Status DoStatus(const Env& env, const StatusRequest& rq, Printer& p) {
  const std::string& game = rq.game;
  std::string branch = BranchOf(env, rq.branch, game);
  auto db = env.open(false);
  if (!db.ok()) return db.status();
  auto w = replay::Fold(**db, game, branch);
  if (!w.ok()) return w.status();
  const rules::GameKind* kind = w->kind();
  std::string kind_name = kind ? std::string(kind->name()) : "";
  auto next = replay::NextPhaseOf(*w);
  auto at = replay::OrderPositionOf(*w);
  // The orders given for the coming turn, person by person (replay/orders.h).
  std::map<std::string, Orders> orders;
  if (at.ok()) {
    auto given = replay::OrdersGiven(**db, game, branch, *at);
    if (!given.ok()) return given.status();
    for (const replay::GivenOrder& g : given->orders) {
      Orders& mine = orders[g.person];
      mine.submitted++;
      mine.last_seq = g.seq;
      mine.last_at = g.received_at;
      mine.refused += g.refused;
      const bool withdrawn = g.fate == replay::OrderFate::kWithdrawn;
      mine.withdrawn += withdrawn;
      mine.superseded += g.superseded && !withdrawn;
      mine.withdrawals += g.withdrawal && !g.refused;
    }
  }
  // Everyone holding roles, in name order; those with no order yet owe them.
  const auto& persons = w->roster().persons();
  std::vector<std::string> owing;
  for (const auto& [person, pr] : persons) {
    if (!pr.roles.empty() && at.ok() && !orders.count(person)) owing.push_back(person);
  }
  // The last finished turn: the latest turn with events whose digest can be
  // taken (a turn under way has none yet).
  std::string last_turn, last_digest;
  const auto& by_turn = replay::SummaryOf(*w).by_turn;
  int tries = 0;
  for (auto it = by_turn.rbegin(); it != by_turn.rend() && tries < 3; ++it, ++tries) {
    auto d = replay::DigestTurn(**db, game, branch, it->first);
    if (d.ok()) {
      last_turn = it->first.ToString();
      last_digest = d->hex;
      break;
    }
  }
  const P::MailState& mail = replay::MailOf(*w);
  // The deadline of the coming turn (replay/schedule.h).
  auto sched = replay::ScheduleViewOf(**db, game, branch, *w);
  if (!sched.ok()) return sched.status();
  const std::optional<projections::Deadline> deadline = sched->deadline;
  const bool paused = sched->state.set && sched->state.paused;
  std::string deadline_text = deadline ? FormatUtc(deadline->at) : "";
  const std::string orders_for = at.ok() ? at->turn.ToString() : "";
  const std::string orders_for_name = next.ok() ? next->turn_name : "";
  const std::string next_phase = next.ok() ? next->name : "";
  const std::string next_at = next.ok() ? TurnPhaseText(next->at) : "";
  const std::string why_none = next.ok() ? "" : next.status().message();
  if (rq.json) {
    flatbuffers::FlatBufferBuilder f;
    std::vector<flatbuffers::Offset<fb::StatusPerson>> rows;
    for (const auto& [person, pr] : persons) {
      if (pr.roles.empty()) continue;
      std::vector<flatbuffers::Offset<flatbuffers::String>> roles;
      for (const auto& r : pr.roles) roles.push_back(f.CreateString(r));
      Orders o = orders.count(person) ? orders.at(person) : Orders{};
      const P::MailBox* box = MailBoxOf(mail, person);
      const std::string mail_turn = box && box->any_sent ? box->last_turn.ToString() : "";
      rows.push_back(fb::CreateStatusPersonDirect(f, person.c_str(), &roles, o.submitted, o.stand(), o.refused,
                                                  o.superseded, o.last_seq, o.withdrawn,
                                                  box ? box->address.c_str() : "", mail_turn.c_str(),
                                                  box ? box->failures : 0, box ? box->retry_at : 0,
                                                  box ? box->last_error.c_str() : "", o.last_at));
    }
    std::vector<flatbuffers::Offset<flatbuffers::String>> owe;
    for (const auto& x : owing) owe.push_back(f.CreateString(x));
    f.Finish(fb::CreateStatusReportDirect(f, game.c_str(), branch.c_str(), kind_name.c_str(), orders_for.c_str(),
                                          orders_for_name.c_str(), next_phase.c_str(), why_none.c_str(), deadline_text.c_str(),
                                          &rows, &owe, last_turn.c_str(), last_digest.c_str(),
                                          deadline ? deadline->at : 0, deadline ? deadline->at - rq.now : 0, paused,
                                          rq.now, next_at.c_str()));
    return p.Json("StatusReport", f);
  }
  p.Line(game + "/" + branch + " (" + kind_name + ")");
  if (next.ok()) {
    p.Line("next to adjudicate: " + next->name + " of " + next->turn_name + " (" + next->at.turn.ToString() +
           "; adjudicate --expect " + next_at + " runs it and no other)");
  } else {
    p.Line("nothing to adjudicate: " + why_none);
  }
  p.Line(at.ok() ? "orders now go to " + orders_for : "orders: the game takes none now");
  if (deadline) {
    p.Line("deadline: " + deadline_text + " (" + TimeLeftText(deadline->at, rq.now) + ")" +
           (paused ? " — the schedule is paused" : ""));
  } else if (sched->pending) {
    p.Line("deadline: turn " + sched->state.fired_turn.ToString() + "'s fired; it is being adjudicated");
  } else {
    p.Line(sched->state.set ? "deadline: none (the schedule's single deadline has passed)" : "deadline: none set");
  }
  p.Line("persons (orders for " + (at.ok() ? orders_for : std::string("-")) + "):");
  for (const auto& [person, pr] : persons) {
    if (pr.roles.empty()) continue;
    std::string roles;
    for (const auto& r : pr.roles) roles += (roles.empty() ? "" : ", ") + r;
    std::string line = "  " + person + " [" + roles + "]: ";
    if (!orders.count(person)) {
      line += "no orders yet";
    } else {
      const Orders& o = orders.at(person);
      line += std::to_string(o.submitted) + " given, " + std::to_string(o.stand()) + " stand";
      if (o.refused) line += ", " + std::to_string(o.refused) + " refused";
      if (o.superseded) line += ", " + std::to_string(o.superseded) + " superseded";
      if (o.withdrawn) line += ", " + std::to_string(o.withdrawn) + " withdrawn";
      line += " (last at seq " + std::to_string(o.last_seq) +
              (o.last_at ? ", received " + FormatUtc(o.last_at) : "") + ")";
    }
    p.Line(line);
    // His mail (issue 20): where it goes, and whether it went.
    if (const P::MailBox* box = MailBoxOf(mail, person)) {
      std::string m = "    mail: " + (box->address.empty() ? std::string("none (stopped)") : box->address);
      m += box->any_sent ? "; last sent: reports for " + box->last_turn.ToString() : "; nothing sent yet";
      if (box->failures) {
        m += "; FAILING (" + std::to_string(box->failures) + (box->failures == 1 ? " attempt" : " attempts") + " at " +
             box->failing_turn.ToString() + ": " + box->last_error + "), tried again from " + FormatUtc(box->retry_at);
      }
      p.Line(m);
    }
  }
  std::string owe;
  for (const auto& x : owing) owe += (owe.empty() ? "" : ", ") + x;
  if (at.ok()) p.Line(owing.empty() ? "everyone has given orders" : "no orders yet from: " + owe);
  p.Line(last_turn.empty() ? "no finished turn yet" : "last finished turn " + last_turn + ", digest " + last_digest);
  return Status::Ok();
}

}  // namespace

Answer GameStatus(const Env& env, const StatusRequest& rq) {
  return Answering(env, [&](Printer& p) { return DoStatus(env, rq, p); });
}

}  // namespace adjutant::ops
