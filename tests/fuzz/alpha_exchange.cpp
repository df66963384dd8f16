// libFuzzer target: the parsers of alpha's `/exchange` answers (reference-server/src/alpha/
// alpha_trading.hpp): the answer to an order, a cancel and a leverage change, and whole-action
// refusals. The input is the upstream body, parsed as upstream.cpp parses it.
//
// Checked beyond "no crash": every outcome is a contract answer. A refusal is one of the codes
// alpha_trading.hpp names, well formed; a placed order has a decimal order id (or none for a bare
// "waitingFor..."), is `filled` only when its filled size reaches the ordered size, carries the
// client order id it was given; a cancel answers the order id it was asked about.
#include "fuzz_common.hpp"

#include "providers/alpha/alpha_trading.hpp"

#include <gateway/providers/alpha/weights.hpp>

#include <algorithm>

namespace {

namespace json = boost::json;
namespace alpha = gateway::server::alpha;
using gateway::decimal;
using gateway::errc;
using gateway::fuzz::check_outcome;

constexpr std::initializer_list<errc> refusals = {errc::upstream_error, errc::order_rejected,
                                                  errc::signature_error, errc::invalid_nonce};

bool all_digits(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void place(json::value const& answer, decimal const& size,
           std::optional<std::string> const& cloid) {
    auto r = alpha::to_place_result(answer, size, cloid);
    check_outcome(r, refusals);
    if (!r)
        return;
    auto const& p = r->result;
    FUZZ_CHECK(p.client_order_id == cloid);
    FUZZ_CHECK(all_digits(p.order_id));
    if (p.order_id.empty())
        FUZZ_CHECK(p.status == gateway::place_status::open && !p.average_price);
    if (p.status == gateway::place_status::filled)
        FUZZ_CHECK(p.filled_size >= size);
    if (p.status == gateway::place_status::partially_filled)
        FUZZ_CHECK(p.filled_size < size);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text = gateway::fuzz::as_text(data, size);
    // A whole-action refusal carries the upstream's text as it is.
    gateway::fuzz::check_error(alpha::exchange_refusal(text),
                               {errc::order_rejected, errc::signature_error, errc::invalid_nonce});

    auto v = gateway::fuzz::parse_json(text);
    if (!v)
        return 0; // the transport answers UPSTREAM_ERROR before any parser runs
    static decimal const sizes[] = {*decimal::parse("1"), *decimal::parse("0.0015"),
                                    *decimal::parse("12345.678")};
    for (auto const& s : sizes) {
        place(*v, s, std::nullopt);
        place(*v, s, std::string("0x1234567890abcdef1234567890abcdef"));
    }
    for (std::string const id : {"77738308", "1"}) {
        auto c = alpha::to_cancel_result(*v, id);
        check_outcome(c, {errc::upstream_error, errc::order_rejected, errc::signature_error,
                          errc::invalid_nonce, errc::order_not_found});
        if (c)
            FUZZ_CHECK(c->order_id == id);
    }
    check_outcome(alpha::to_leverage_ok(*v), refusals);
    if (auto const* o = v->if_object())
        (void)gateway::wire::alpha::exchange_weight(*o);
    return 0;
}
