#pragma once
// The embedded default's ready-to-use key (issue: "prints a ready demo key at start").
#include "auth/accounts.hpp"

#include <gateway/result.hpp>

#include <string_view>

namespace gateway::server::auth {

/// The fixed demo account's email.
inline constexpr std::string_view demo_email = "demo@gateway.local";

/**
 * A fresh live key named "demo" on the demo account, for the start-up banner.
 *
 * Creates `demo_email` the first time (with a random password nobody knows, so it can only be
 * used through its keys), revokes every earlier key of that account named "demo", and creates
 * a new one, so exactly one demo key is valid at a time.
 * @return the new key, shown once; callers print it and never log it elsewhere.
 * @par Errors
 * INTERNAL_ERROR when the store fails.
 * @par Thread safety
 * Safe to call concurrently with other `account_service` use; two concurrent calls may each
 * leave a valid demo key (call it once, at start-up).
 */
result<created_key> ensure_demo_key(account_service& accounts);

} // namespace gateway::server::auth
