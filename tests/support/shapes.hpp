#pragma once
// Shape checks the contract tests share: the key set of a JSON object, an item of a typed list by
// symbol.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gateway::test {

inline std::set<std::string> keys(boost::json::object const& o) {
    std::set<std::string> out;
    for (auto const& kv : o)
        out.insert(std::string(kv.key()));
    return out;
}

inline std::set<std::string> keys(boost::json::value const& v) {
    return keys(v.as_object());
}

/// The item of `items` whose `symbol` is `symbol` (a test failure when there is none).
template <class T>
T const& find_by(std::vector<T> const& items, std::string const& symbol) {
    for (auto const& i : items)
        if (i.symbol == symbol)
            return i;
    FAIL("no item for " << symbol);
    throw std::logic_error("unreachable");
}

} // namespace gateway::test
