// A real browser for the order desk's page tests: Debian's chromium,
// headless, driven over the DevTools protocol (a WebSocket, Boost.Beast).
// scripts/test.sh installs chromium. Used by tests/desk/browser_test.cc and
// tests/desk/page_test.cc.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

namespace adjutant::testing {

// The chromium binary ("" when none is installed).
std::string Chromium();

// A JSON string literal for `s`.
std::string JsQuote(const std::string& s);

class Browser {
 public:
  // Starts chromium with its profile in `profile` (a scratch directory) and
  // attaches to its page; fails the test when it cannot.
  explicit Browser(const std::string& profile);
  ~Browser();
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;

  // Runs a DevTools method; returns its answer (the message with its id).
  std::string Send(const std::string& method, const std::string& params);
  // Evaluates a script in the page; its value, as JSON. A script that throws
  // (or does not parse) fails the test: a step that silently did nothing
  // would let a later check pass on what an earlier step left.
  std::string Eval(const std::string& js);
  // Waits until a script's value is true (the page works asynchronously).
  bool Until(const std::string& js, int seconds = 20);
  // Opens `url` and waits until the page has loaded.
  void Open(const std::string& url);
  // The page's size, as a phone's (mobile, 390 px wide) or a desk's.
  void Viewport(int width, int height, bool mobile);
  // A PNG of the page as it is drawn now (the whole page, not only what is
  // in view), written to `path`.
  void Screenshot(const std::string& path);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Where a test saves what a person would look at (screenshots): under
// $ADJUTANT_TEST_OUTPUT if set, else build/tests/output/; created if need be.
std::string TestOutputDir(const std::string& sub);

}  // namespace adjutant::testing
