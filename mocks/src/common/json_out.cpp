#include "json_out.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

namespace gateway::mocks {

namespace {
// Marks a string as a raw number. Upstream text never contains this control character.
constexpr std::string_view raw_tag = "\x1d#";

void write(std::string& out, boost::json::value const& v) {
    switch (v.kind()) {
    case boost::json::kind::null:
        out += "null";
        return;
    case boost::json::kind::bool_:
        out += v.get_bool() ? "true" : "false";
        return;
    case boost::json::kind::int64:
        out += std::to_string(v.get_int64());
        return;
    case boost::json::kind::uint64:
        out += std::to_string(v.get_uint64());
        return;
    case boost::json::kind::double_:
        out += boost::json::serialize(v); // not used for money; kept for completeness
        return;
    case boost::json::kind::string: {
        auto const& s = v.get_string();
        std::string_view const sv(s.data(), s.size());
        if (sv.substr(0, raw_tag.size()) == raw_tag)
            out += sv.substr(raw_tag.size());
        else
            out += boost::json::serialize(s);
        return;
    }
    case boost::json::kind::array: {
        out += '[';
        bool first = true;
        for (auto const& e : v.get_array()) {
            if (!first)
                out += ',';
            first = false;
            write(out, e);
        }
        out += ']';
        return;
    }
    case boost::json::kind::object: {
        out += '{';
        bool first = true;
        for (auto const& kv : v.get_object()) {
            if (!first)
                out += ',';
            first = false;
            out += boost::json::serialize(boost::json::string_view(kv.key()));
            out += ':';
            write(out, kv.value());
        }
        out += '}';
        return;
    }
    }
}
} // namespace

boost::json::value raw_number(std::string_view text) {
    std::string s(raw_tag);
    s.append(text);
    return boost::json::value(boost::json::string(s));
}

boost::json::value raw_number(decimal const& d) {
    return raw_number(d.str());
}

std::string to_json(boost::json::value const& v) {
    std::string out;
    write(out, v);
    return out;
}

} // namespace gateway::mocks
