#pragma once
// Addresses the contract read tests seed on the mocks: a trader with positions, orders and fills,
// and an address that holds nothing.

namespace gateway::test {

constexpr char const* trader = "0x1111111111111111111111111111111111111111";
constexpr char const* nobody = "0x2222222222222222222222222222222222222222";

} // namespace gateway::test
