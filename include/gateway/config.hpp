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

/**
 * `GATEWAY_IO_DECL` marks the non-template bodies of the I/O parts (`net/http_client`, the
 * synchronous `client`), the code that instantiates most of Beast and Asio. Header-only (the
 * default) they are inline. With `GATEWAY_SEPARATE_COMPILATION` defined, every translation unit
 * sees their declarations only and the program compiles the bodies once, in the one TU that
 * includes `<gateway/src.hpp>` (the project's own binaries build this way: see CMakeLists.txt).
 */
#ifdef GATEWAY_SEPARATE_COMPILATION
#define GATEWAY_IO_DECL
#else
#define GATEWAY_IO_DECL inline
#endif

namespace gateway {
/// Semantic version of the API contract this SDK speaks.
inline constexpr char const* contract_version = "v1";
} // namespace gateway
