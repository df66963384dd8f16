#pragma once
/**
 * @file config.hpp
 * Build switches of the header-only SDK.
 *
 * `GATEWAY_DECL` marks non-template functions defined in headers. It is `inline` today (Beast's
 * `BOOST_BEAST_DECL` trick), so a later separately-compiled `src.hpp` can flip it without
 * touching any declaration.
 */
#ifndef GATEWAY_DECL
#define GATEWAY_DECL inline
#endif

namespace gateway {
/// Semantic version of the API contract this SDK speaks.
inline constexpr char const* contract_version = "v1";
} // namespace gateway
