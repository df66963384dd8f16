#pragma once
/**
 * @file gateway.hpp
 * Umbrella header of the SDK: every public header. Prefer the exact headers in code that cares
 * about compile time.
 */
#include <gateway/config.hpp>
#include <gateway/error.hpp>
#include <gateway/result.hpp>

// Contract types and their JSON mapping (no Beast, Asio or OpenSSL).
#include <gateway/types/account.hpp>
#include <gateway/types/address.hpp>
#include <gateway/types/decimal.hpp>
#include <gateway/types/enums.hpp>
#include <gateway/types/health.hpp>
#include <gateway/types/json_fields.hpp>
#include <gateway/types/market.hpp>
#include <gateway/types/orders.hpp>
#include <gateway/types/predictions.hpp>
#include <gateway/types/provider.hpp>
#include <gateway/types/rwas.hpp>

// Request rules and read parameters shared by client and server.
#include <gateway/sign/sign.hpp>
#include <gateway/validate/validate.hpp>

// Wire knowledge of each provider (weights, request builders, signing and derivation).
#include <gateway/providers/alpha.hpp>

// Small utilities (hex, ASCII case, percent-encoding, ISO time, UTF-8, clock).
#include <gateway/types/fixed.hpp>
#include <gateway/util/ascii.hpp>
#include <gateway/util/clock.hpp>
#include <gateway/util/hex.hpp>
#include <gateway/util/percent.hpp>
#include <gateway/util/time.hpp>
#include <gateway/util/utf8.hpp>

// The synchronous client and its transport (these bring in Beast, Asio and OpenSSL).
#include <gateway/client/client.hpp>
#include <gateway/net/http_client.hpp>
#include <gateway/net/url.hpp>
