#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/string.hpp>

#include <cstdint>
#include <string>

namespace gateway::sign {

namespace detail {

GATEWAY_DECL void put_be(bytes& out, std::uint64_t v, unsigned width) {
    for (unsigned i = width; i-- > 0;)
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

GATEWAY_DECL void msgpack_uint(bytes& out, std::uint64_t v) {
    if (v < 0x80) {
        out.push_back(static_cast<std::uint8_t>(v));
    } else if (v <= 0xff) {
        out.push_back(0xcc);
        put_be(out, v, 1);
    } else if (v <= 0xffff) {
        out.push_back(0xcd);
        put_be(out, v, 2);
    } else if (v <= 0xffffffffu) {
        out.push_back(0xce);
        put_be(out, v, 4);
    } else {
        out.push_back(0xcf);
        put_be(out, v, 8);
    }
}

GATEWAY_DECL void msgpack_int(bytes& out, std::int64_t v) {
    if (v >= 0) {
        msgpack_uint(out, static_cast<std::uint64_t>(v));
        return;
    }
    auto const u = static_cast<std::uint64_t>(v); // two's complement bits
    if (v >= -32) {
        out.push_back(static_cast<std::uint8_t>(u)); // negative fixint 0xe0..0xff
    } else if (v >= -128) {
        out.push_back(0xd0);
        put_be(out, u, 1);
    } else if (v >= -32768) {
        out.push_back(0xd1);
        put_be(out, u, 2);
    } else if (v >= -2147483648LL) {
        out.push_back(0xd2);
        put_be(out, u, 4);
    } else {
        out.push_back(0xd3);
        put_be(out, u, 8);
    }
}

/// Header of a str/array/map: `fix` when n < fix_limit, else the 8 (str only), 16, 32-bit forms.
GATEWAY_DECL void msgpack_header(bytes& out, std::size_t n, std::uint8_t fix, std::size_t fix_limit,
                                 int c8, std::uint8_t c16, std::uint8_t c32) {
    if (n < fix_limit) {
        out.push_back(static_cast<std::uint8_t>(fix | n));
    } else if (c8 >= 0 && n <= 0xff) {
        out.push_back(static_cast<std::uint8_t>(c8));
        put_be(out, n, 1);
    } else if (n <= 0xffff) {
        out.push_back(c16);
        put_be(out, n, 2);
    } else {
        out.push_back(c32);
        put_be(out, n, 4);
    }
}

GATEWAY_DECL void msgpack_str(bytes& out, std::string_view s) {
    msgpack_header(out, s.size(), 0xa0, 32, 0xd9, 0xda, 0xdb);
    out.insert(out.end(), s.begin(), s.end());
}

GATEWAY_DECL result<void> msgpack_value(boost::json::value const& v, bytes& out,
                                        std::string& path) {
    switch (v.kind()) {
    case boost::json::kind::null:
        out.push_back(0xc0);
        return {};
    case boost::json::kind::bool_:
        out.push_back(v.get_bool() ? 0xc3 : 0xc2);
        return {};
    case boost::json::kind::int64:
        msgpack_int(out, v.get_int64());
        return {};
    case boost::json::kind::uint64:
        msgpack_uint(out, v.get_uint64());
        return {};
    case boost::json::kind::double_:
        return field_error(path.empty() ? std::string_view("action") : std::string_view(path),
                           "'" + (path.empty() ? std::string("action") : path) +
                               "' is a floating-point number; alpha hashes integers and strings "
                               "only.");
    case boost::json::kind::string:
        msgpack_str(out, v.get_string());
        return {};
    case boost::json::kind::array: {
        auto const& a = v.get_array();
        msgpack_header(out, a.size(), 0x90, 16, -1, 0xdc, 0xdd);
        std::size_t const keep = path.size();
        for (std::size_t i = 0; i < a.size(); ++i) {
            path += "[" + std::to_string(i) + "]";
            auto r = msgpack_value(a[i], out, path);
            if (!r)
                return r;
            path.resize(keep);
        }
        return {};
    }
    case boost::json::kind::object: {
        auto const& o = v.get_object();
        msgpack_header(out, o.size(), 0x80, 16, -1, 0xde, 0xdf);
        std::size_t const keep = path.size();
        for (auto const& kv : o) {
            msgpack_str(out, kv.key());
            if (!path.empty())
                path += '.';
            path += kv.key();
            auto r = msgpack_value(kv.value(), out, path);
            if (!r)
                return r;
            path.resize(keep);
        }
        return {};
    }
    }
    return {};
}

} // namespace detail

GATEWAY_DECL result<void> msgpack_encode(boost::json::value const& v, bytes& out) {
    std::string path;
    return detail::msgpack_value(v, out, path);
}

GATEWAY_DECL result<bytes> msgpack_encode(boost::json::value const& v) {
    bytes out;
    auto r = msgpack_encode(v, out);
    if (!r)
        return r.error();
    return out;
}

} // namespace gateway::sign
