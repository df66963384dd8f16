// The one Catch2 runner of every suite, compiled once: no tests here, so test files stay cheap
// to rebuild (Catch2 docs, slow-compiles.md).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
