#pragma once
/**
 * @file read_signer.hpp
 * beta's read signer (CONTRACT §6.2): the gateway's own secp256k1 key that signs beta's account
 * reads (account, positions, open orders, fills, spot balances) as an API wallet the account
 * approved. It is used for reads only, never to place, cancel or change anything, and its key is
 * never logged nor put in a message. Both the provider (to sign) and the embedded default (to
 * have mock-beta approve it for every account) load it through this one function.
 */
#include <gateway/sign/secp256k1.hpp>

#include <filesystem>
#include <string>

namespace gateway::server::beta {

/// The key file gatewayd generates in its data directory when none is configured.
inline constexpr char const* read_signer_file_name = "beta-read-signer.key";

/**
 * The key in `key_file` (hex, `0x` optional, surrounding whitespace ignored) when it is set;
 * otherwise `<data_dir>/beta-read-signer.key`, generated on first use (mode 0600, in a 0700
 * directory when gatewayd creates it) and read back on every later start, so the address
 * accounts approved stays the same.
 * Throws std::runtime_error (a start-up failure) for a file that cannot be read or created, or
 * that does not hold a valid key; the message names the file, never its content.
 */
sign::private_key load_read_signer(std::filesystem::path const& data_dir,
                                   std::string const& key_file);

} // namespace gateway::server::beta
