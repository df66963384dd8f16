// examples/gamma_trading against gatewayd's embedded default, as a user would run it: the real
// binaries, the demo API key, a throwaway wallet whose CLOB credentials the example creates on
// the embedded mock-gamma.
#include <catch2/catch.hpp>

#include "support/gatewayd_process.hpp"

namespace gamma_trading_example_test {

TEST_CASE("examples/gamma_trading places, lists, cancels and fills a FOK on the embedded default",
          "[e2e][gatewayd][gamma]") {
    gateway::test::running_gatewayd gw;
    auto const run = gateway::test::run_example(gw, "gamma_trading");
    INFO(run.all());
    REQUIRE(run.exit_code == 0);
    CHECK(run.has("wallet 0x"));
    CHECK(run.has("credentials ready"));
    CHECK(run.has("token "));
    CHECK(run.has("placed 0x"));
    CHECK(run.has("open 0x"));
    CHECK(run.has("canceled 0x"));
    CHECK(run.has("bought 5 at "));
    CHECK(run.has("fill 0x"));
}

} // namespace gamma_trading_example_test
