#pragma once
/**
 * @file stats.hpp
 * Upstream request counters behind `GET /__mock/stats` (CONTRACT §10). Every upstream request
 * that arrives is counted, including those answered by a fault or a rate limit; control
 * requests never are.
 *
 * @par Thread safety
 * Safe to call concurrently.
 */
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace gateway::mocks {

class request_stats {
public:
    void count(std::string const& kind) {
        std::lock_guard lock(m_);
        ++total_;
        ++by_kind_[kind];
    }

    void reset() {
        std::lock_guard lock(m_);
        total_ = 0;
        by_kind_.clear();
    }

    /// `{"requests":N,"byKind":{"<kind>":N}}`, kinds in lexicographic order.
    boost::json::value to_json() const {
        std::lock_guard lock(m_);
        boost::json::object by_kind;
        for (auto const& [k, n] : by_kind_)
            by_kind[k] = n;
        boost::json::object o;
        o["requests"] = total_;
        o["byKind"] = std::move(by_kind);
        return o;
    }

private:
    mutable std::mutex m_;
    std::uint64_t total_ = 0;
    std::map<std::string, std::uint64_t> by_kind_;
};

} // namespace gateway::mocks
