#pragma once
/**
 * @file answer.hpp
 * What an upstream answered, as the channel hands it to a provider's pure mapping (its
 * `read_error`, a write's outcome). Apart from channel.hpp so that the mappings, which do no
 * I/O, need neither Asio nor Beast.
 */
#include <boost/json/value.hpp>

#include <string>

namespace gateway::server {

/// What an upstream answered (any HTTP status but 429/418, which the channel maps itself).
struct upstream_answer {
    unsigned status = 0;
    /// The body parsed as JSON; null when it is empty or not JSON (see `text`).
    boost::json::value body;
    /// The raw body when it is not JSON (plain-text errors), else empty.
    std::string text;
};

} // namespace gateway::server
