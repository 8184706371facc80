#include "desk/scheduler.h"

#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "base/utc.h"
#include "desk/desk.h"
#include "ledger/ledger.h"
#include "mail/mail.h"
#include "ops/ops.h"
#include "replay/schedule.h"
#include "schema/codec.h"
#include "schema/reports_generated.h"

namespace adjutant::desk {

struct Scheduler::Impl {
  ledger::Ledger& db;
  Desk& desk;
  SchedulerSettings settings;
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
  std::mutex pass_mu;                            // one pass at a time
  std::map<std::string, std::string> last_failure;  // by game: said once until it changes
  std::thread thread;
  // By game: where its last step found nothing to do (ScheduleStep::head,
  // wake), shared with the steps (which may outlive a pass, as below).
  struct Quiet {
    std::string branch;
    ledger::Head head;
    int64_t wake = 0;
  };
  struct QuietGames {
    std::mutex mu;
    std::map<std::string, Quiet> games;
  };
  std::shared_ptr<QuietGames> quiet = std::make_shared<QuietGames>();
  // By game: where its last mail run left it — looked at again when its
  // head moves or a failed message's retry comes (0: none waits).
  std::map<std::string, Quiet> mail_quiet;

  Impl(ledger::Ledger& d, Desk& k, SchedulerSettings s) : db(d), desk(k), settings(std::move(s)) {}

  int64_t Now() const {
    if (settings.now) return settings.now();
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  }

  std::vector<ScheduleOutcome> Pass(PassCounts* counts = nullptr) {
    std::lock_guard<std::mutex> one(pass_mu);
    PassCounts none;
    PassCounts& n = counts ? *counts : none;
    std::vector<ScheduleOutcome> out;
    auto games = db.Games();
    if (!games.ok()) {
      out.push_back({"", "", "the scheduler could not list the games: " + games.status().message(), true});
      Say(out.back());
      return out;
    }
    const int64_t now = Now();
    std::vector<std::future<ScheduleOutcome>> steps;
    // Each step holds the ledger (which outlives the desk and its pool),
    // never this scheduler: a step the pool runs after the scheduler gave up
    // waiting (below) touches nothing that is gone.
    ledger::Ledger* ledger = &db;
    for (const auto& g : *games) {
      auto done = std::make_shared<std::promise<ScheduleOutcome>>();
      steps.push_back(done->get_future());
      desk.Sequence(g.name, [ledger, quiet = quiet, signer = settings.signer, game = g.name, now, done] {
        ledger::Ledger& db = *ledger;
        ScheduleOutcome o;
        o.game = game;
        auto current = db.Current(game);
        o.branch = current.ok() ? *current : "main";
        // Nothing changed since a step found nothing to do: not folded again.
        if (auto head = db.HeadOf(game, o.branch); head.ok()) {
          std::lock_guard<std::mutex> lock(quiet->mu);
          auto it = quiet->games.find(game);
          if (it != quiet->games.end() && it->second.branch == o.branch && it->second.head.seq == head->seq &&
              it->second.head.hash == head->hash && (it->second.wake == 0 || now < it->second.wake)) {
            o.unchanged = true;
            done->set_value(std::move(o));
            return;
          }
        }
        auto step = replay::RunSchedule(db, game, o.branch, now, signer.get());
        {
          std::lock_guard<std::mutex> lock(quiet->mu);
          if (step.ok() && step->what == replay::ScheduleStep::kNothing) {
            quiet->games[game] = {o.branch, step->head, step->wake};
          } else {
            quiet->games.erase(game);
          }
        }
        if (!step.ok()) {
          o.failed = true;
          o.line = step.status().message();
        } else if (step->what != replay::ScheduleStep::kNothing) {
          o.line = std::string(step->what == replay::ScheduleStep::kFired ? "deadline fired" : "finished the fired turn") +
                   ": turn " + step->turn.ToString() + " (due " + FormatUtc(step->deadline) + "), " +
                   std::to_string(step->phases.size()) + " phase(s) adjudicated";
        }
        done->set_value(std::move(o));
      });
    }
    for (auto& f : steps) {
      // A desk that stops (SIGTERM) may never run a step posted as it
      // stopped: the wait gives up once this scheduler is stopping.
      while (f.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
        std::lock_guard<std::mutex> lock(mu);
        if (stopping) return out;
      }
      ScheduleOutcome o = f.get();
      (o.unchanged ? n.unchanged : n.stepped)++;
      if (o.line.empty()) {
        last_failure.erase(o.game);
        continue;
      }
      if (o.failed) {
        auto& last = last_failure[o.game];
        if (last != o.line) Say(o);  // a failure is said once, not at every tick
        last = o.line;
      } else {
        last_failure.erase(o.game);
        Say(o);
      }
      out.push_back(std::move(o));
    }
    if (settings.mail && !settings.mail->imap.host.empty()) MailInPass(now, out);
    if (settings.mail) MailPass(now, *games, out);
    return out;
  }

  bool Stopping() {
    std::lock_guard<std::mutex> lock(mu);
    return stopping;
  }

  // Runs `fn` on the game's sequencer and waits for it; gives up (Busy) if
  // the scheduler stops meanwhile — then `fn` never runs after this returns.
  Status InSequence(const std::string& game, const std::function<Status()>& fn) {
    struct Shared {
      std::mutex m;
      bool abandoned = false;
      std::promise<Status> done;
    };
    auto sh = std::make_shared<Shared>();
    auto result = sh->done.get_future();
    desk.Sequence(game, [sh, &fn] {
      std::lock_guard<std::mutex> lock(sh->m);
      if (!sh->abandoned) sh->done.set_value(fn());
    });
    while (result.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
      if (!Stopping()) continue;
      std::lock_guard<std::mutex> lock(sh->m);
      if (result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) break;
      sh->abandoned = true;
      return Status::Busy("the order desk is stopping");
    }
    return result.get();
  }

  // Issue 20: the orders players mailed (ops::MailIn): read from the IMAP
  // folder and answered from this thread, each message's orders and record
  // taken on its game's sequencer.
  void MailInPass(int64_t now, std::vector<ScheduleOutcome>& out) {
    if (Stopping()) return;
    ops::MailInRequest rq;
    rq.settings = settings.mail.get();
    rq.from_imap = true;
    rq.now = now;
    rq.json = true;
    rq.in_sequence = [this](const std::string& game, const std::function<Status()>& fn) { return InSequence(game, fn); };
    ops::Answer a = ops::MailIn(ops::On(db), rq);
    auto bytes = schema::ParseJson("MailInReport", a.out, "mail-in");
    if (!bytes.ok()) {
      ScheduleOutcome o{"", "", "mail in: " + (a.status.ok() ? bytes.status().message() : a.status.message()), true};
      auto& last = last_failure["mail in"];
      if (last != o.line) Say(o);
      last = o.line;
      out.push_back(std::move(o));
      return;
    }
    last_failure.erase("mail in");
    const auto* rep = flatbuffers::GetRoot<fb::MailInReport>(bytes->data());
    for (const auto* r : *rep->rows()) {
      ScheduleOutcome o;
      o.game = r->game()->str();
      o.branch = r->branch()->str();
      o.line = "mail in: <" + r->message_id()->str() + "> from " + r->from()->str() + ": " + r->outcome()->str();
      if (r->orders()) o.line += ", " + std::to_string(r->orders()->orders()->size()) + " order(s)";
      if (r->reason()->size() > 0) o.line += " (" + r->reason()->str() + ")";
      if (r->reply()->str() == "sent") o.line += "; answered";
      if (r->reply()->str() == "failed") {
        o.line += "; the answer was not sent (" + r->reply_error()->str() + ")";
        o.failed = true;
      }
      o.failed |= r->outcome()->str() == "not read";
      Say(o);
      out.push_back(std::move(o));
    }
  }

  // Issue 20: each game's reports due, mailed (ops::MailOut) — sent from this
  // thread, recorded on the game's sequencer.
  void MailPass(int64_t now, const std::vector<ledger::GameInfo>& games, std::vector<ScheduleOutcome>& out) {
    for (const auto& g : games) {
      if (Stopping()) return;
      auto current = db.Current(g.name);
      const std::string branch = current.ok() ? *current : "main";
      auto head = db.HeadOf(g.name, branch);
      if (!head.ok()) continue;
      if (auto it = mail_quiet.find(g.name); it != mail_quiet.end() && it->second.branch == branch &&
                                             it->second.head.seq == head->seq && it->second.head.hash == head->hash &&
                                             (it->second.wake == 0 || now < it->second.wake)) {
        continue;
      }
      ops::MailOutRequest rq;
      rq.game = g.name;
      rq.branch = branch;
      rq.settings = settings.mail.get();
      rq.now = now;
      rq.json = true;
      const std::string game = g.name;
      rq.in_sequence = [this, game](const std::function<Status()>& fn) { return InSequence(game, fn); };
      ops::Answer a = ops::MailOut(ops::On(db), rq);
      int64_t wake = 0;
      auto bytes = schema::ParseJson("MailOutReport", a.out, "mail-out");
      if (bytes.ok()) {
        const auto* rep = flatbuffers::GetRoot<fb::MailOutReport>(bytes->data());
        for (const auto* r : *rep->rows()) {
          ScheduleOutcome o;
          o.game = game;
          o.branch = branch;
          const std::string what = r->turn()->str() + " to " + r->person()->str() + " <" + r->address()->str() + ">";
          const bool reminder = r->purpose() && r->purpose()->str() == "reminder";
          const std::string kind = reminder ? "mail: reminder of orders for " : "mail: reports of ";
          if (r->outcome()->str() == "sent") {
            o.line = kind + what + " sent";
          } else {
            o.failed = true;
            o.line = kind + what + " not sent (attempt " + std::to_string(r->attempt()) + ": " + r->error()->str() +
                     "); tried again from " + FormatUtc(r->retry_at());
            if (wake == 0 || r->retry_at() < wake) wake = r->retry_at();
          }
          if (o.failed) {
            auto& last = last_failure["mail " + game + " " + r->person()->str()];
            if (last != o.line) Say(o);
            last = o.line;
          } else {
            last_failure.erase("mail " + game + " " + r->person()->str());
            Say(o);
          }
          out.push_back(std::move(o));
        }
      } else if (!a.status.ok()) {
        ScheduleOutcome o{game, branch, "mail: " + a.status.message(), true};
        auto& last = last_failure["mail " + game];
        if (last != o.line) Say(o);
        last = o.line;
        out.push_back(std::move(o));
        continue;  // looked at again next pass
      }
      if (bytes.ok()) {
        // The next reminder time: looked at again then, though nothing moves.
        const int64_t remind = flatbuffers::GetRoot<fb::MailOutReport>(bytes->data())->next_reminder();
        if (remind != 0 && (wake == 0 || remind < wake)) wake = remind;
      }
      if (auto after = db.HeadOf(g.name, branch); after.ok()) mail_quiet[g.name] = {branch, *after, wake};
    }
  }

  void Say(const ScheduleOutcome& o) const {
    if (!settings.log) return;
    settings.log("adjutant serve: schedule" + (o.game.empty() ? std::string() : " " + o.game + "/" + o.branch) + ": " +
                 (o.failed ? "cannot run: " : "") + o.line);
  }

  void Loop() {
    for (;;) {
      Pass();
      std::unique_lock<std::mutex> lock(mu);
      if (cv.wait_for(lock, std::chrono::seconds(settings.tick_s), [this] { return stopping; })) return;
    }
  }
};

Scheduler::Scheduler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::unique_ptr<Scheduler> Scheduler::Start(ledger::Ledger& db, Desk& desk, SchedulerSettings settings) {
  auto impl = std::make_unique<Impl>(db, desk, std::move(settings));
  Impl* raw = impl.get();
  std::unique_ptr<Scheduler> s(new Scheduler(std::move(impl)));
  if (raw->settings.background) raw->thread = std::thread([raw] { raw->Loop(); });
  return s;
}

void Scheduler::Stop() {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->stopping = true;
  }
  impl_->cv.notify_all();
  if (impl_->thread.joinable()) impl_->thread.join();
}

Scheduler::~Scheduler() { Stop(); }

std::vector<ScheduleOutcome> Scheduler::RunOnce(PassCounts* counts) { return impl_->Pass(counts); }

}  // namespace adjutant::desk
