// Where this build's trees are: the source tree, its fixtures, the adjutant
// binary and the tests' output directory. Defined once per build directory,
// in a generated file (build_paths.cc, CMakeLists.txt: adj_build_paths), not
// as -D definitions on every test's compile line: ccache makes the paths it
// finds among a compiler's arguments relative to the checkout, but not those
// inside a -D value, so with the paths there a second clone (CI's) missed the
// cache for every test file. Each name below reads as a const char*.
#pragma once

extern "C" {
extern const char adjutant_build_fixtures_dir[];
extern const char adjutant_build_source_dir[];
extern const char adjutant_build_bin[];
extern const char adjutant_build_test_output_dir[];
}

#define ADJUTANT_FIXTURES adjutant_build_fixtures_dir
#define ADJUTANT_SOURCE_DIR adjutant_build_source_dir
#define ADJUTANT_BIN adjutant_build_bin
#define ADJUTANT_TEST_OUTPUT adjutant_build_test_output_dir
