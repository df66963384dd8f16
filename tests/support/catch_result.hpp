#pragma once
// Lets Catch2 and trompeloeil print a boost::system::result (REQUIRE(r)): "{value}" or the
// error. Boost 1.81's own operator<< for result is unconstrained and needs T printable, which
// contract types are not.
#include <catch2/catch.hpp>

#include <gateway/result.hpp>

#include <trompeloeil.hpp>

#include <ostream>
#include <string>

namespace gateway::test {
template <class E>
std::string describe_error(E const& e) {
    if constexpr (std::is_same_v<E, api_error>)
        return std::string(e.wire()) + " (" + std::to_string(e.status) + "): " + e.message;
    else if constexpr (std::is_convertible_v<E, std::string>)
        return e;
    else if constexpr (requires { e.message; })
        return e.message;
    else
        return "error";
}
} // namespace gateway::test

namespace Catch {
template <class T, class E>
struct StringMaker<boost::system::result<T, E>> {
    static std::string convert(boost::system::result<T, E> const& r) {
        return r ? "{value}" : "{error " + gateway::test::describe_error(r.error()) + "}";
    }
};
} // namespace Catch

namespace trompeloeil {
template <class T, class E>
struct printer<boost::system::result<T, E>> {
    static void print(std::ostream& os, boost::system::result<T, E> const& r) {
        os << Catch::StringMaker<boost::system::result<T, E>>::convert(r);
    }
};
} // namespace trompeloeil
