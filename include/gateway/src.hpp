#pragma once
/**
 * @file src.hpp
 * Include in exactly one translation unit of a program that uses the SDK: it compiles
 * Boost.JSON's sources (Debian's Boost 1.81 ships no libboost_json) and, when the program is
 * built with `GATEWAY_SEPARATE_COMPILATION`, the bodies of the SDK's I/O parts (see
 * `GATEWAY_IO_DECL` in config.hpp), so Beast's and Asio's templates are instantiated once.
 */
#include <boost/json/src.hpp>

#ifdef GATEWAY_SEPARATE_COMPILATION
#include <gateway/client/client.hpp>
#include <gateway/net/http_client.hpp>
#include <gateway/net/websocket.hpp>
#include <gateway/stream/client.hpp>

#include <gateway/client/impl/client.hpp>
#include <gateway/net/impl/http_client.hpp>
#include <gateway/net/impl/websocket.hpp>
#include <gateway/stream/impl/client.hpp>
#endif
