#include "support/browser.h"
#include "support/build_paths.h"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <spawn.h>
#include <sys/wait.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

extern char** environ;

namespace adjutant::testing {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;

// The value of a JSON string member `"name": "..."` of `msg` (no escapes in
// what DevTools answers there: base64, paths).
std::string StringMember(const std::string& msg, const std::string& name) {
  const std::string key = "\"" + name + "\":\"";
  auto at = msg.find(key);
  if (at == std::string::npos) return "";
  at += key.size();
  return msg.substr(at, msg.find('"', at) - at);
}

}  // namespace

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
    if (std::filesystem::exists(p)) return p;
  }
  return "";
}

std::string JsQuote(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (c == '\n') {
      o += "\\n";
      continue;
    }
    o += c;
  }
  return o + "\"";
}

struct Browser::Impl {
  std::string profile;
  pid_t pid = 0;
  uint16_t port = 0;
  net::io_context ioc;
  std::optional<websocket::stream<beast::tcp_stream>> ws;
  int id = 0;

  std::string Get(const std::string& target) {
    net::io_context io;
    beast::tcp_stream s(io);
    beast::error_code ec;
    s.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) return "";
    http::request<http::empty_body> rq(http::verb::get, target, 11);
    rq.set(http::field::host, "127.0.0.1");
    http::write(s, rq, ec);
    beast::flat_buffer b;
    http::response<http::string_body> res;
    http::read(s, b, res, ec);
    return ec ? "" : res.body();
  }
};

Browser::Browser(const std::string& profile) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.profile = profile;
  const std::string bin = Chromium();
  REQUIRE_FALSE(bin.empty());  // scripts/test.sh installs chromium
  std::vector<std::string> args = {bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                   "--no-first-run", "--hide-scrollbars", "--remote-debugging-port=0",
                                   "--user-data-dir=" + profile, "about:blank"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Chromium keeps its singleton socket and shared-memory files in $TMPDIR
  // and leaves them there when it is killed: a TMPDIR inside the profile,
  // which the test removes with its directory, keeps /tmp clean.
  const std::string tmp = profile + "/tmp";
  std::filesystem::create_directories(tmp);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::string_view(*e).substr(0, 7) != "TMPDIR=") env.emplace_back(*e);
  env.push_back("TMPDIR=" + tmp);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  REQUIRE(posix_spawn(&m.pid, bin.c_str(), &fa, nullptr, argv.data(), envp.data()) == 0);
  posix_spawn_file_actions_destroy(&fa);
  // Its DevTools port, written once it listens.
  const std::string port_file = profile + "/DevToolsActivePort";
  std::string port;
  for (int i = 0; i < 300 && port.empty(); ++i) {
    std::ifstream in(port_file);
    std::getline(in, port);
    if (port.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE_FALSE(port.empty());
  m.port = static_cast<uint16_t>(std::stoi(port));
  // The page target: from /json/list, its WebSocket path.
  std::string path;
  for (int i = 0; i < 100 && path.empty(); ++i) {
    const std::string list = m.Get("/json/list");
    const auto at = list.find("\"webSocketDebuggerUrl\": \"ws://");
    if (at != std::string::npos && list.find("\"type\": \"page\"") != std::string::npos) {
      const auto start = list.find('/', at + 31);
      path = list.substr(start, list.find('"', start) - start);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  REQUIRE_FALSE(path.empty());
  m.ws.emplace(m.ioc);
  m.ws->read_message_max(64 * 1024 * 1024);  // a whole page's screenshot
  beast::get_lowest_layer(*m.ws).connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), m.port));
  m.ws->handshake("127.0.0.1:" + std::to_string(m.port), path);
}

Browser::~Browser() {
  if (impl_->ws) {
    beast::error_code ec;
    impl_->ws->close(websocket::close_code::normal, ec);
  }
  kill(impl_->pid, SIGTERM);
  int st = 0;
  waitpid(impl_->pid, &st, 0);
}

std::string Browser::Send(const std::string& method, const std::string& params) {
  Impl& m = *impl_;
  const int id = ++m.id;
  m.ws->write(net::buffer("{\"id\": " + std::to_string(id) + ", \"method\": \"" + method + "\", \"params\": " + params + "}"));
  const std::string tag = "\"id\":" + std::to_string(id) + ",";
  for (;;) {
    beast::flat_buffer b;
    m.ws->read(b);
    std::string msg = beast::buffers_to_string(b.data());
    if (msg.find(tag) != std::string::npos) return msg;
  }
}

std::string Browser::Eval(const std::string& js) {
  const std::string r =
      Send("Runtime.evaluate", "{\"expression\": " + JsQuote(js) + ", \"returnByValue\": true, \"awaitPromise\": true}");
  INFO(js << " -> " << r);
  REQUIRE(r.find("\"exceptionDetails\"") == std::string::npos);
  const auto at = r.find("\"value\":");
  return at == std::string::npos ? r : r.substr(at + 8, r.rfind("}}}") - at - 8);
}

bool Browser::Until(const std::string& js, int seconds) {
  for (int i = 0; i < seconds * 10; ++i) {
    if (Eval(js) == "true") return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

void Browser::Open(const std::string& url) {
  Send("Page.navigate", "{\"url\": " + JsQuote(url) + "}");
  REQUIRE(Until("document.readyState === 'complete' && document.location.href === " + JsQuote(url)));
}

void Browser::Viewport(int width, int height, bool mobile) {
  const std::string r = Send("Emulation.setDeviceMetricsOverride",
                             "{\"width\": " + std::to_string(width) + ", \"height\": " + std::to_string(height) +
                                 ", \"deviceScaleFactor\": 1, \"mobile\": " + (mobile ? "true" : "false") + "}");
  REQUIRE(r.find("\"error\"") == std::string::npos);
}

void Browser::Screenshot(const std::string& path) {
  const std::string r = Send("Page.captureScreenshot", R"({"format": "png", "captureBeyondViewport": true})");
  const std::string b64 = StringMember(r, "data");
  INFO(r.substr(0, 300));
  REQUIRE_FALSE(b64.empty());
  std::vector<unsigned char> png(b64.size());
  size_t len = 0;
  REQUIRE(sodium_base642bin(png.data(), png.size(), b64.data(), b64.size(), nullptr, &len, nullptr,
                            sodium_base64_VARIANT_ORIGINAL) == 0);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(len));
  REQUIRE(std::filesystem::file_size(path) == len);
}

std::string TestOutputDir(const std::string& sub) {
  const char* env = std::getenv("ADJUTANT_TEST_OUTPUT");
  std::filesystem::path dir = env && *env ? std::filesystem::path(env) : std::filesystem::path(ADJUTANT_TEST_OUTPUT);
  dir /= sub;
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace adjutant::testing
