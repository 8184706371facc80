// Fuzz: raw bytes sent to the order desk over loopback, as a client would
// (a Talavera battle behind it, small limits). The desk must answer or
// close every connection promptly and never crash; after each input it
// still answers a well-formed request.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "support/build_paths.h"
#include "base/scratch.h"
#include "desk/desk.h"
#include "fuzz.h"
#include "ledger/ledger.h"
#include "replay/create.h"
#include "schema/codec.h"
#include "schema/scenario_generated.h"
#include "support/desk_client.h"

namespace {

using namespace adjutant;

// Lives for the whole run (a static in the entry point); at exit the desk
// stops, the ledger closes and the scratch directory goes.
struct Served {
  std::string dir;
  std::unique_ptr<ledger::Ledger> db;
  std::unique_ptr<desk::Desk> desk;
  Served() {
    auto scratch = ScratchDir("adjutant-fuzz-desk-");
    if (!scratch.ok()) FuzzFail("no scratch directory");
    dir = *scratch;
    auto l = ledger::Ledger::Open(dir + "/db");
    if (!l.ok()) FuzzFail("cannot open a ledger");
    db = std::move(l).value();
    std::ifstream in(std::string(ADJUTANT_FIXTURES) + "/dog/talavera-brigade.json");
    std::stringstream s;
    s << in.rdbuf();
    auto buf = schema::ParseJson("Scenario", s.str(), "scenario");
    bool map_error = false;
    if (!buf.ok()) FuzzFail("the scenario does not parse");
    auto start = replay::PrepareGame(*flatbuffers::GetRoot<fb::Scenario>(buf->data()), std::nullopt, &map_error);
    if (!start.ok() || !db->CreateGame("talavera", 1809, *buf, start->at, Actor{ActorKind::kGameAdministrator, "", ""},
                                       start->more).ok()) {
      FuzzFail("cannot create the battle");
    }
    desk::Settings st;
    st.listen = "127.0.0.1:0";
    st.max_body_bytes = 16 * 1024;
    st.requests_per_minute = 100000000;
    st.header_timeout_s = 1;
    auto d = testing::StartDesk(*db, st);
    if (!d.ok()) FuzzFail("the desk does not start");
    desk = std::move(d).value();
  }
  ~Served() {
    desk.reset();
    db.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Served(const Served&) = delete;
  Served& operator=(const Served&) = delete;
};

// Sends `bytes`, closes the sending side, reads until the desk closes;
// false if it has not within `ms`.
bool Exchange(uint16_t port, const std::string& bytes, std::string* got, int ms) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return false;
  }
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the desk may close early (a limit): fine
    sent += static_cast<size_t>(n);
  }
  shutdown(fd, SHUT_WR);
  char buf[4096];
  bool closed = false;
  for (int waited = 0; waited < ms && !closed;) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) == 0) {
      waited += 50;
      continue;
    }
    const ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) closed = true;
    else got->append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return closed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Served served;
  std::string got;
  if (!Exchange(served.desk->port(), std::string(reinterpret_cast<const char*>(data), size), &got, 5000)) {
    FuzzFail("the desk neither answered nor closed the connection");
  }
  if (!got.empty() && got.rfind("HTTP/1.", 0) != 0) FuzzFail("the desk answered something that is not HTTP/1.x");
  std::string ok;
  if (!Exchange(served.desk->port(), "GET /api/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", &ok, 5000) ||
      ok.rfind("HTTP/1.1 401", 0) != 0) {
    FuzzFail("the desk no longer answers a well-formed request");
  }
  return 0;
}
