#include "beta_auth.hpp"

#include "../common/http_util.hpp"

#include <gateway/providers/beta/signing.hpp>

#include <limits>

namespace gateway::mocks::beta {

namespace {

namespace w = gateway::wire::beta;

constexpr std::string_view signature_key = "signature=";

refusal missing(std::string_view param) {
    return {w::mandatory_param, w::mandatory_param_msg(param)};
}

/// The last value of `key` (the signed string's own parameters win over nothing else: a
/// repeated key is the client's problem, as upstream).
std::optional<std::string> last_value(query_params const& q, std::string_view key) {
    std::optional<std::string> out;
    for (auto const& [k, v] : q)
        if (k == key)
            out = v;
    return out;
}

} // namespace

authenticator::authenticator(ledger& l, bool testnet, std::optional<std::string> approve_for_all)
    : ledger_(l)
    , testnet_(testnet)
    , approve_for_all_(std::move(approve_for_all)) {}

bool authenticator::may_sign(std::string const& user, std::string const& signer) const {
    return signer == user || (approve_for_all_ && *approve_for_all_ == signer) ||
           ledger_.is_agent(user, signer);
}

std::variant<signed_request, refusal> authenticator::verify(std::string_view raw,
                                                            std::int64_t now_us) {
    // 1. The signature is the last parameter; the message is what precedes it.
    std::size_t at = std::string_view::npos;
    if (raw.substr(0, signature_key.size()) == signature_key)
        at = 0;
    if (auto const amp = raw.rfind("&" + std::string(signature_key)); amp != std::string_view::npos)
        at = amp + 1;
    if (at == std::string_view::npos)
        return missing("signature");
    std::string_view const sig_text = raw.substr(at + signature_key.size());
    if (sig_text.empty())
        return missing("signature");
    if (sig_text.find('&') != std::string_view::npos)
        return refuse(w::invalid_signature); // not the last parameter
    std::string_view const msg = at == 0 ? std::string_view() : raw.substr(0, at - 1);

    // 2. The auth parameters.
    signed_request req;
    req.params = util::parse_query(raw);
    auto const signer_text = last_value(req.params, "signer");
    if (!signer_text || signer_text->empty())
        return missing("signer");
    auto const signer = ledger::normalize_address(*signer_text);
    if (!signer)
        return missing("signer");
    auto const nonce_text = last_value(req.params, "nonce");
    auto const nonce = nonce_text ? parse_uint(*nonce_text) : std::nullopt;
    if (!nonce)
        return missing("nonce");
    std::optional<std::string> user;
    if (auto const user_text = last_value(req.params, "user")) {
        user = ledger::normalize_address(*user_text);
        if (!user)
            return missing("user");
    }

    // 3. The signature recovers to the signer, over the message as received or decoded.
    auto const signature = util::percent_decode(sig_text, true).value_or(std::string(sig_text));
    auto const recovers = [&](std::string_view m) {
        auto const who = sign::beta::recover_message(m, signature, testnet_);
        return who && who->str() == *signer;
    };
    if (!recovers(msg)) {
        auto const decoded = util::percent_decode(msg, true);
        if (!decoded || *decoded == msg || !recovers(*decoded))
            return refuse(w::invalid_signature);
    }

    // 4. The account, and whether this signer may act for it.
    if (!user) {
        auto const masters = ledger_.masters(*signer);
        user = masters.size() == 1 ? masters.front() : *signer;
    }
    if (!may_sign(*user, *signer))
        return refuse(w::rejected_signer);

    // 5. The nonce.
    if (auto refusal = spend_nonce(*user, *nonce, now_us))
        return *refusal;
    req.user = std::move(*user);
    req.signer = *signer;
    req.nonce = *nonce;
    return req;
}

std::optional<refusal> authenticator::spend_nonce(std::string const& user, std::uint64_t nonce,
                                                  std::int64_t now_us) {
    if (nonce > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return refuse(w::nonce_expired);
    std::int64_t const gap = static_cast<std::int64_t>(nonce) - now_us;
    if (gap > nonce_window_us || gap < -nonce_window_us)
        return refuse(w::nonce_expired);
    std::lock_guard lock(m_);
    auto& kept = nonces_[user];
    if (kept.contains(nonce))
        return refuse(w::nonce_expired);
    if (kept.size() >= nonces_kept && nonce < *kept.begin())
        return refuse(w::nonce_expired);
    kept.insert(nonce);
    if (kept.size() > nonces_kept)
        kept.erase(kept.begin());
    return std::nullopt;
}

} // namespace gateway::mocks::beta
