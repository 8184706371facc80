// Catch2's main, in one translation unit so it is compiled once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
