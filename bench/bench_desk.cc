// adjutant_bench_desk: the order desk under load. G battles (the bundled
// Talavera scenario), each with its two generals, are served by one desk;
// every general is a client thread with its own kept-alive connection that,
// for M moves, submits its side's orders (with an idempotency key; one in
// ten is sent twice, as a client retrying would), reads them back and
// reads its battle report, while the GA adjudicates each battle's move
// once both its generals have submitted. Prints JSON lines on stdout:
//
//   desk_submit, desk_read_orders, desk_report — throughput and p50/p99
//       latency of each request kind over HTTP;
//   desk_submit_solo — the same battles played by one client at a time
//       (each general submits, then the GA adjudicates, in turn), so that
//       nothing queues: what the desk adds to one submission;
//   inprocess_submit — those same solo battles through replay::SubmitOrders
//       and replay::Adjudicate with no HTTP in between (the baseline the
//       desk adds to; "ratio_vs_inprocess" on the solo line is p50 / p50);
//   rocksdb_synced_put — one synced raw RocksDB write of an order's size
//       (the floor under any acknowledged order);
//   orders_check — what the clients were told was recorded against the log:
//       acknowledged, in_log, lost, duplicated (exit 1 unless lost and
//       duplicated are 0).
//
//   adjutant_bench_desk [--quick] [--games G] [--moves M]
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cinttypes>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "support/build_paths.h"
#include "base/scratch.h"
#include "bench/common.h"
#include "desk/desk.h"
#include "projections/battle.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "replay/driver.h"
#include "schema/codec.h"
#include "schema/event_generated.h"
#include "schema/scenario_generated.h"
#include "support/desk_client.h"

namespace adjutant::bench {

const char* const kProgram = "adjutant_bench_desk";

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("read", Status::IOError(path + ": cannot open"));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every unit of a side holds: a move's orders for it.
std::string HoldAll(const std::vector<std::string>& units) {
  std::string items;
  for (const auto& u : units) {
    items += std::string(items.empty() ? "" : ",") +
             R"({"body_type": "DogOrder", "body": {"body_type": "DogIntent", "body": {"unit": ")" + u + R"(", "hold": true}}})";
  }
  return "{\"orders\": [" + items + "]}";
}

struct Latencies {
  std::mutex mu;
  std::map<std::string, std::vector<double>> ms;  // by request kind
  void Add(const std::string& kind, double v) {
    std::lock_guard<std::mutex> lock(mu);
    ms[kind].push_back(v);
  }
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

void Figure(const std::string& name, const std::vector<double>& ms, double seconds, const std::string& extra) {
  std::printf("{\"bench\": \"%s\", \"requests\": %zu, \"seconds\": %.3f, \"per_second\": %.1f, \"p50_ms\": %.3f, "
              "\"p99_ms\": %.3f%s}\n",
              name.c_str(), ms.size(), seconds, seconds > 0 ? static_cast<double>(ms.size()) / seconds : 0.0,
              Percentile(ms, 0.5), Percentile(ms, 0.99), extra.c_str());
}

// One client: a kept-alive connection to the desk.
class Client {
 public:
  explicit Client(uint16_t port) : stream_(ioc_) {
    stream_.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  }
  std::pair<int, std::string> Call(http::verb method, const std::string& target, const std::string& body,
                                   const std::string& token, const std::string& key = "") {
    http::request<http::string_body> rq(method, target, 11);
    rq.set(http::field::host, "127.0.0.1");
    rq.keep_alive(true);
    if (!token.empty()) rq.set(http::field::authorization, "Bearer " + token);
    if (!key.empty()) rq.set("Idempotency-Key", key);
    rq.body() = body;
    rq.prepare_payload();
    http::write(stream_, rq);
    http::response<http::string_body> res;
    http::read(stream_, buf_, res);
    return {static_cast<int>(res.result_int()), res.body()};
  }

 private:
  net::io_context ioc_;
  beast::tcp_stream stream_;
  beast::flat_buffer buf_;
};


// A general's login to his battle: the HTTP status and the session token
// (the answer's body when he is refused, to say why).
std::pair<int, std::string> LogIn(Client& c, const std::string& game, const std::string& person) {
  auto [st, body] = c.Call(http::verb::post, "/api/login",
                           R"({"game": ")" + game + R"(", "person": ")" + person + R"(", "password": ")" + person +
                               R"(-1809"})",
                           "");
  return {st, st == 200 ? testing::TokenOf(body) : body};
}

// The sequence numbers an answer says were recorded ("seq": N in its orders).
std::vector<uint64_t> SeqsOf(const std::string& body) {
  std::vector<uint64_t> out;
  size_t at = body.find("\"orders\": [");
  while (at != std::string::npos && (at = body.find("\"seq\": ", at)) != std::string::npos) {
    at += 7;
    out.push_back(std::stoull(body.substr(at, 20)));
  }
  return out;
}

}  // namespace
}  // namespace adjutant::bench

int main(int argc, char** argv) {
  using namespace adjutant;
  using namespace adjutant::bench;
  int games = 8, moves = 6;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      games = 3;
      moves = 2;
    } else if (a == "--games" && i + 1 < argc) {
      games = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--moves" && i + 1 < argc) {
      moves = std::clamp(std::atoi(argv[++i]), 1, 12);
    } else {
      std::fprintf(stderr, "usage: adjutant_bench_desk [--quick] [--games G] [--moves M]\n");
      return 2;
    }
  }
  if (sodium_init() < 0) Die("libsodium", Status::IOError("failed to initialise"));
  const std::string root = Must(ScratchDir("adjutant-bench-desk-"), "scratch dir");
  Progress("databases in %s; %d battles, %d moves, %d clients", root.c_str(), games, moves, games * 2);
  auto db = Must(ledger::Ledger::Open(root + "/ledger"), "open the ledger");
  const std::string scenario = Slurp(std::string(ADJUTANT_FIXTURES) + "/dog/talavera-brigade.json");
  auto buf = Must(schema::ParseJson("Scenario", scenario, "scenario"), "scenario");
  bool map_error = false;
  auto start = Must(replay::PrepareGame(*flatbuffers::GetRoot<fb::Scenario>(buf.data()), std::nullopt, &map_error), "prepare");
  const std::vector<std::pair<std::string, std::string>> generals = {{"wellesley", "British"}, {"victor", "French"}};
  std::map<std::string, std::vector<std::string>> units;  // side → unit ids
  for (int g = 0; g < 3 * games; ++g) {
    // battle*: played by every client at once; solo*: by one client at a
    // time; direct*: in-process (the baseline).
    const std::string game = (g < games ? "battle" : g < 2 * games ? "solo" : "direct") + std::to_string(g % games);
    Must(db->CreateGame(game, 1809 + static_cast<uint64_t>(g % games), buf, start.at, Actor{ActorKind::kGameAdministrator, "", ""},
                        start.more),
         "create");
    for (const auto& [p, side] : generals) Must(replay::SetPassword(*db, game, "main", p, testing::CheapPasswordHash(p + "-1809")), "password");
    if (g == 0) {
      auto w = Must(replay::Fold(*db, game, "main"), "fold");
      for (const auto& [id, u] : w.battle().units) units[u.side].push_back(id);
    }
  }
  desk::Settings settings;
  settings.listen = "127.0.0.1:0";
  settings.requests_per_minute = 1000000;
  // Every client and the GA connect from 127.0.0.1: one address, many users.
  settings.max_connections_per_address = settings.max_connections;
  settings.ga_pwhash = testing::CheapPasswordHash("the-bench-ga");
  auto desk = Must(testing::StartDesk(*db, settings), "start the desk");
  const uint16_t port = desk->port();

  // Each battle's move: both generals submit, then the GA adjudicates.
  std::mutex mu;
  std::condition_variable cv;
  std::map<std::string, int> submitted;   // game → submissions this move
  std::map<std::string, int> moves_done;  // game → moves adjudicated
  std::map<std::string, std::set<uint64_t>> acknowledged;  // game → seqs the clients were told
  Latencies lat;
  std::atomic<int> failures{0};
  // A client that cannot log in never submits: everyone stops waiting for
  // it (the run then fails, naming the failures) rather than hang.
  bool aborted = false;  // under mu
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int g = 0; g < games; ++g) {
    for (const auto& [person, side] : generals) {
      threads.emplace_back([&, g, person = person, side = side] {
        const std::string game = "battle" + std::to_string(g);
        Client c(port);
        const auto [st, token] = LogIn(c, game, person);
        if (st != 200 || token.empty()) {
          failures++;
          std::fprintf(stderr, "[adjutant_bench_desk] %s could not log in to %s: HTTP %d %s\n", person.c_str(),
                       game.c_str(), static_cast<int>(st), token.c_str());
          std::lock_guard<std::mutex> lock(mu);
          aborted = true;
          cv.notify_all();
          return;
        }
        const std::string orders = HoldAll(units[side]);
        for (int m = 1; m <= moves; ++m) {
          {
            std::unique_lock<std::mutex> lock(mu);
            cv.wait(lock, [&] { return aborted || moves_done[game] >= m - 1; });
            if (aborted) return;
          }
          const std::string key = game + "-m" + std::to_string(m) + "-" + side;
          auto t = Clock::now();
          auto [s1, b1] = c.Call(http::verb::post, "/api/games/" + game + "/orders", orders, token, key);
          lat.Add("submit", SecondsSince(t) * 1000);
          if (s1 != 200) failures++;
          // One in four retried, as a client whose answer was lost would.
          if ((g * 7 + m) % 4 == 0) {
            auto [s2, b2] = c.Call(http::verb::post, "/api/games/" + game + "/orders", orders, token, key);
            if (s2 != 200 || b2.find("\"replayed\": true") == std::string::npos) failures++;
          }
          t = Clock::now();
          auto [s3, b3] = c.Call(http::verb::get, "/api/games/" + game + "/orders", "", token);
          lat.Add("read_orders", SecondsSince(t) * 1000);
          t = Clock::now();
          auto [s4, b4] = c.Call(http::verb::get, "/api/games/" + game + "/reports?kind=battle", "", token);
          lat.Add("report", SecondsSince(t) * 1000);
          if (s3 != 200 || s4 != 200) failures++;
          std::lock_guard<std::mutex> lock(mu);
          for (uint64_t seq : SeqsOf(b1)) acknowledged[game].insert(seq);
          submitted[game]++;
          cv.notify_all();
        }
      });
    }
  }
  // The GA: adjudicates each battle's move once both its generals submitted.
  {
    Client ga(port);
    const std::string token = testing::TokenOf(ga.Call(http::verb::post, "/api/ga/login", R"({"password": "the-bench-ga"})", "").second);
    for (int m = 1; m <= moves; ++m) {
      for (int g = 0; g < games; ++g) {
        const std::string game = "battle" + std::to_string(g);
        {
          std::unique_lock<std::mutex> lock(mu);
          cv.wait(lock, [&] { return aborted || submitted[game] >= 2 * m; });
          if (aborted) break;
        }
        auto t = Clock::now();
        auto [st, body] = ga.Call(http::verb::post, "/api/games/" + game + "/adjudicate", R"({"mode": "phase"})", token);
        lat.Add("adjudicate", SecondsSince(t) * 1000);
        if (st != 200) failures++;
        std::lock_guard<std::mutex> lock(mu);
        moves_done[game] = m;
        cv.notify_all();
      }
    }
  }
  for (auto& t : threads) t.join();
  const double seconds = SecondsSince(t0);
  const std::string shape = ", \"clients\": " + std::to_string(games * 2) + ", \"games\": " + std::to_string(games) +
                            ", \"moves\": " + std::to_string(moves);
  Figure("desk_submit", lat.ms["submit"], seconds, shape);
  Figure("desk_read_orders", lat.ms["read_orders"], seconds, shape);
  Figure("desk_report", lat.ms["report"], seconds, shape);
  Figure("desk_adjudicate", lat.ms["adjudicate"], seconds, shape);

  // The log against what the clients were told: every acknowledged order is
  // there once; nothing else was recorded.
  uint64_t in_log = 0, lost = 0, duplicated = 0, acked = 0;
  for (int g = 0; g < games; ++g) {
    const std::string game = "battle" + std::to_string(g);
    std::map<std::string, int> per_key;  // person/move → OrderSubmitted batches
    std::set<uint64_t> logged;
    Must(db->Read(game, "main", 1, UINT64_MAX,
                  [&](const ledger::EventView& e) {
                    if (e.event()->payload_type() == fb::Payload_OrderSubmitted) logged.insert(e.seq);
                    return Status::Ok();
                  }),
         "read the log");
    in_log += logged.size();
    acked += acknowledged[game].size();
    for (uint64_t s : acknowledged[game]) lost += !logged.count(s);
    // Each side's move was submitted once (retries replayed): units x moves.
    const uint64_t expected = static_cast<uint64_t>(moves) * (units["British"].size() + units["French"].size());
    if (logged.size() > expected) duplicated += logged.size() - expected;
    if (logged.size() < expected) lost += expected - logged.size();
  }
  std::printf("{\"bench\": \"orders_check\", \"acknowledged\": %" PRIu64 ", \"in_log\": %" PRIu64 ", \"lost\": %" PRIu64
              ", \"duplicated\": %" PRIu64 ", \"failed_requests\": %d}\n",
              acked, in_log, lost, duplicated, failures.load());

  // One client at a time: each battle's generals submit in turn, then the
  // GA adjudicates; nothing else is in flight.
  std::vector<double> solo;
  double solo_seconds = 0;
  {
    std::map<std::string, std::unique_ptr<Client>> clients;  // person → connection
    std::map<std::string, std::string> tokens;
    Client ga(port);
    const std::string ga_token =
        testing::TokenOf(ga.Call(http::verb::post, "/api/ga/login", R"({"password": "the-bench-ga"})", "").second);
    const auto b0 = Clock::now();
    for (int g = 0; g < games; ++g) {
      const std::string game = "solo" + std::to_string(g);
      clients.clear();
      for (const auto& [person, side] : generals) {
        clients[person] = std::make_unique<Client>(port);
        auto [st, token] = LogIn(*clients[person], game, person);
        tokens[person] = st == 200 ? token : "";
        if (st != 200 || token.empty()) failures++;
      }
      for (int m = 1; m <= moves; ++m) {
        for (const auto& [person, side] : generals) {
          const auto t = Clock::now();
          auto [st, body] = clients[person]->Call(http::verb::post, "/api/games/" + game + "/orders", HoldAll(units[side]),
                                                  tokens[person], game + "-m" + std::to_string(m) + "-" + side);
          solo.push_back(SecondsSince(t) * 1000);
          if (st != 200) failures++;
        }
        auto [st, body] = ga.Call(http::verb::post, "/api/games/" + game + "/adjudicate", R"({"mode": "phase"})", ga_token);
        if (st != 200) failures++;
      }
    }
    solo_seconds = SecondsSince(b0);
  }
  desk->Stop();
  desk->Wait();

  // Baseline: the same solo battles in-process, no HTTP.
  std::vector<double> direct;
  double direct_seconds = 0;
  {
    const auto b0 = Clock::now();
    for (int g = 0; g < games; ++g) {
      const std::string game = "direct" + std::to_string(g);
      for (int m = 1; m <= moves; ++m) {
        for (const auto& [person, side] : generals) {
          auto file = Must(schema::ParseJson("OrderFile", HoldAll(units[side]), "orders"), "orders");
          const auto t = Clock::now();
          Must(replay::SubmitOrders(*db, game, "main", person, file,
                                    {.idempotency_key = game + "-m" + std::to_string(m) + "-" + side}),
               "submit in-process");
          direct.push_back(SecondsSince(t) * 1000);
        }
        Must(replay::Adjudicate(*db, game, "main", replay::AdjudicateMode::kPhase), "adjudicate in-process");
      }
    }
    direct_seconds = SecondsSince(b0);
  }
  char ratio[64];
  std::snprintf(ratio, sizeof ratio, ", \"ratio_vs_inprocess\": %.2f, \"target_max\": 2.0",
                Percentile(direct, 0.5) > 0 ? Percentile(solo, 0.5) / Percentile(direct, 0.5) : 0.0);
  Figure("desk_submit_solo", solo, solo_seconds, ", \"clients\": 1, \"games\": " + std::to_string(games) +
                                                     ", \"moves\": " + std::to_string(moves) + ratio);
  Figure("inprocess_submit", direct, direct_seconds, "");
  db.reset();
  // Baseline 2: raw RocksDB, one synced write of an order file's size.
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    auto s = rocksdb::DB::Open(o, root + "/raw", &raw);
    if (!s.ok()) Die("open raw RocksDB", s);
    std::unique_ptr<rocksdb::DB> holder(raw);
    rocksdb::WriteOptions wo;
    wo.sync = true;
    const std::string value(HoldAll(units["British"]).size(), 'x');
    std::vector<double> ms;
    const auto b0 = Clock::now();
    for (int i = 0; i < games * 2 * moves; ++i) {
      const auto t = Clock::now();
      s = raw->Put(wo, "order" + std::to_string(i), value);
      if (!s.ok()) Die("raw put", s);
      ms.push_back(SecondsSince(t) * 1000);
    }
    Figure("rocksdb_synced_put", ms, SecondsSince(b0), "");
  }
  std::error_code ec;
  fs::remove_all(root, ec);
  if (lost || duplicated || failures) {
    std::fprintf(stderr, "%s: %" PRIu64 " lost, %" PRIu64 " duplicated, %d failed requests\n", kProgram, lost, duplicated,
                 failures.load());
    return 1;
  }
  return 0;
}
