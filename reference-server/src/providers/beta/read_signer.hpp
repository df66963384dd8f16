#pragma once
// beta's read signer (CONTRACT §6.2): the gateway's own secp256k1 key that signs beta's account
// reads (positions, open orders, fills, account, spot balances) as an API wallet the account
// approved. It is used for reads only, never to place, cancel or change anything, and never
// logged. Both the gateway (to sign) and the embedded default (to pre-approve it at the mock)
// load it through this one function.
#include <gateway/sign/secp256k1.hpp>

#include <filesystem>
#include <string>

namespace gateway::server::beta {

/**
 * The key in `key_file` (hex, `0x` optional, surrounding whitespace ignored) when it is set;
 * otherwise `<data_dir>/beta-read-signer.key`, generated on first use with mode 0600 (its
 * directory 0700) and read back on every later start.
 * Throws std::runtime_error (a start-up failure) for a file that cannot be read or created, or
 * that does not hold a valid key; the message names the file, never its content.
 */
sign::private_key load_read_signer(std::filesystem::path const& data_dir,
                                   std::string const& key_file);

} // namespace gateway::server::beta
