#pragma once

#include <gateway/sign/eip712.hpp>
#include <gateway/validate/validate.hpp>

#include <openssl/rand.h>

#include <array>
#include <numeric>
#include <random>
#include <utility>

namespace gateway::sign::gamma {

namespace detail {

/// 10^4: prices are handled in units of 0.0001 (the finest tick gamma uses).
inline constexpr std::int64_t price_units = 10000;

GATEWAY_DECL api_error price_error(std::string message) {
    return field_error("price", std::move(message));
}

GATEWAY_DECL api_error size_error(std::string message) {
    return field_error("size", std::move(message));
}

} // namespace detail

GATEWAY_DECL result<amounts> order_amounts(gateway::side side, decimal const& price,
                                           decimal const& size, decimal const& tick_size) {
    // The tick: positive, at most 4 decimals (amounts then have at most 6), below 0.5 (so the
    // price range [tick, 1 - tick] is not empty).
    auto const tick = tick_size.to_scaled(4);
    if (!tick || *tick <= 0 || 2 * *tick >= detail::price_units)
        return detail::price_error("The token's tick size " + tick_size.str() +
                                   " is not one gamma prices orders with (0.1, 0.01, 0.001 or "
                                   "0.0001), so 'price' cannot be checked.");
    decimal const low = decimal::from_scaled(*tick, 4);
    decimal const high = decimal::from_scaled(detail::price_units - *tick, 4);
    if (price < low || price > high)
        return detail::price_error("'price' " + price.str() + " is outside the token's range " +
                                   low.str() + " to " + high.str() + " (tick " + tick_size.str() +
                                   ").");
    auto const p4 = price.to_scaled(4);
    if (!p4 || *p4 % *tick != 0)
        return detail::price_error("'price' " + price.str() +
                                   " is not a multiple of the token's tick size " +
                                   tick_size.str() + " (it is not rounded).");
    if (size.is_negative() || size.is_zero())
        return detail::size_error("'size' must be greater than 0.");
    if (size.scale() > 2)
        return detail::size_error("'size' " + size.str() +
                                  " has more than 2 decimals, the precision of gamma's orders "
                                  "(it is not rounded).");
    auto const overflow = [&] {
        return detail::size_error("'size' " + size.str() +
                                  " is too large: the order's amounts "
                                  "overflow 64 bits.");
    };
    auto const s_c = size.to_scaled(2);
    if (!s_c)
        return overflow();
    auto const cents = static_cast<std::uint64_t>(*s_c);
    std::uint64_t usd = 0;
    std::uint64_t shares = 0;
    if (__builtin_mul_overflow(cents, static_cast<std::uint64_t>(*p4), &usd) ||
        __builtin_mul_overflow(cents, std::uint64_t{10000}, &shares))
        return overflow();
    if (side == gateway::side::buy)
        return amounts{usd, shares};
    return amounts{shares, usd};
}

GATEWAY_DECL result<order> order_of(gamma_order_request const& r, token_rules const& rules) {
    if (r.signature_type == 1 || r.signature_type == 2)
        return field_error("signatureType",
                           "'signatureType' " + std::to_string(r.signature_type) +
                               " signs for a proxy or Safe funder, which the gateway's order body "
                               "cannot name: only 0 (the wallet trades its own funds) is "
                               "accepted.");
    if (r.signature_type != 0)
        return field_error("signatureType", "'signatureType' must be 0 (an EOA wallet).");
    if (!detail::token_word(r.token_id))
        return detail::token_id_error();
    if (r.wallet.is_zero())
        return field_error("wallet", "'wallet' is required: the address that signs the order.");
    if (!r.salt)
        return field_error("salt", "'salt' is required: the one the typed-data endpoint chose "
                                   "(or any number below 2^53).");
    if (*r.salt > max_salt)
        return field_error("salt", "'salt' must be below 2^53 (gamma's clients carry it as a "
                                   "JavaScript number).");
    for (auto [field, value] : {std::pair{"expiration", r.expiration}, std::pair{"nonce", r.nonce},
                                std::pair{"feeRateBps", r.fee_rate_bps}})
        if (value < 0)
            return field_error(field, "'" + std::string(field) + "' must not be negative.");

    auto amt = order_amounts(r.side, r.price, r.size, rules.tick_size);
    if (!amt)
        return amt.error();
    if (!rules.min_size.is_zero() && !rules.min_size.is_negative() && r.size < rules.min_size)
        return detail::size_error("'size' " + r.size.str() + " is below the token's minimum of " +
                                  rules.min_size.str() + " shares.");
    order o;
    o.salt = *r.salt;
    o.maker = r.wallet;
    o.signer = r.wallet;
    o.token_id = r.token_id;
    o.maker_amount = amt->maker;
    o.taker_amount = amt->taker;
    o.expiration = static_cast<std::uint64_t>(r.expiration);
    o.nonce = static_cast<std::uint64_t>(r.nonce);
    o.fee_rate_bps = static_cast<std::uint64_t>(r.fee_rate_bps);
    o.side = r.side == gateway::side::buy ? order_side::buy : order_side::sell;
    o.signature_type = 0;
    return o;
}

GATEWAY_DECL std::uint64_t new_salt() {
    std::uint64_t v = 0;
    while (v == 0) {
        std::array<unsigned char, 8> raw{};
        if (RAND_bytes(raw.data(), static_cast<int>(raw.size())) == 1) {
            v = std::accumulate(raw.begin(), raw.end(), std::uint64_t{0},
                                [](std::uint64_t acc, unsigned char b) { return (acc << 8) | b; });
        } else { // a salt is not a secret: any decent randomness will do
            std::random_device rd;
            v = (std::uint64_t{rd()} << 32) ^ rd();
        }
        v &= max_salt;
    }
    return v;
}

// ------------------------------------------------------------------------------------------
// Signer

GATEWAY_DECL signer::signer(private_key key)
    : key_(std::move(key))
    , address_(address_of(key_)) {}

GATEWAY_DECL result<void> signer::sign(gamma_order_request& r, token_rules const& rules) const {
    // Filled in place and put back on failure: a copy of the request would be one more copy
    // of its credentials in memory.
    auto const old_salt = r.salt;
    auto const old_wallet = r.wallet;
    auto const fail = [&](api_error e) {
        r.salt = old_salt;
        r.wallet = old_wallet;
        return e;
    };
    if (r.wallet.is_zero())
        r.wallet = address_;
    else if (r.wallet != address_)
        return fail(field_error("wallet", "'wallet' " + r.wallet.str() +
                                              " is not the key's address " + address_.str() +
                                              ": a signatureType 0 order is signed by its "
                                              "wallet."));
    if (!r.salt)
        r.salt = new_salt();
    auto o = order_of(r, rules);
    if (!o)
        return fail(o.error());
    if (auto ok = validate(r, body_kind::typed_data_params); !ok)
        return fail(ok.error());
    r.signature = sign_order(*o, exchange_for(rules.neg_risk), key_);
    return {};
}

GATEWAY_DECL result<std::string>
signer::sign_typed_data(boost::json::value const& typed_data) const {
    return eip712::sign_typed_data_hex(typed_data, key_);
}

} // namespace gateway::sign::gamma
