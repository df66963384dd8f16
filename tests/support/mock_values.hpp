#pragma once
// Values the mock-engine unit tests share: a few well-known addresses and exact amounts.
#include <catch2/catch.hpp>

#include "../../mocks/src/common/amount.hpp" // mocks/src is private to the library

namespace gateway::test {

constexpr char const* alice = "0x00000000000000000000000000000000000000a1";
constexpr char const* bob = "0x00000000000000000000000000000000000000b2";
constexpr char const* carol = "0x00000000000000000000000000000000000000c3";

/// An exact amount the test knows to be well formed.
inline mocks::amount a(char const* text) {
    auto v = mocks::amount::parse(text);
    REQUIRE(v);
    return *v;
}

} // namespace gateway::test
