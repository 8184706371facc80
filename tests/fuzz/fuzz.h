// Fuzz targets (libFuzzer's entry point, LLVMFuzzerTestOneInput), one a
// file: order JSON, scenario JSON, stored event buffers, conformance cases,
// HTTP requests to the desk. Each is built two ways: with clang's
// -fsanitize=fuzzer for a fuzzing run (scripts/fuzz.sh), and with
// replay_main.cc, which feeds it every file of its corpus in
// fixtures/fuzz/TARGET/ — a normal ctest in every build.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

// The input a fuzz target must never accept silently: a crash, a hang or a
// sanitizer report is the failure; a check that fails calls this.
[[noreturn]] void FuzzFail(const char* what);
