#include "auth/demo.hpp"
#include "auth/crypto.hpp"
#include "log.hpp"

#include <exception>
#include <string>

namespace gateway::server::auth {

result<created_key> ensure_demo_key(account_service& accounts) {
    try {
        auto acct = accounts.find_account(demo_email);
        if (!acct) {
            auto created =
                accounts.sign_up(demo_email, crypto::base62_encode(crypto::random_bytes(32)));
            if (created) {
                acct = *created;
            } else {
                // Another process may have created it since we looked.
                acct = accounts.find_account(demo_email);
                if (!acct)
                    return created.error();
            }
        }
        for (auto const& k : accounts.list_keys(acct->id))
            if (k.name == "demo" && !k.revoked_ms)
                accounts.revoke_key(acct->id, k.id);
        new_key_params params;
        params.name = "demo";
        params.env = key_env::live;
        return accounts.create_key(acct->id, std::move(params));
    } catch (std::exception const& e) {
        log::error(std::string("msg=\"demo key failed\" error=\"") + e.what() + "\"");
        return make_error(errc::internal_error, "Could not prepare the demo key.");
    }
}

} // namespace gateway::server::auth
