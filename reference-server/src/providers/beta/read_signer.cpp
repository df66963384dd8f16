// beta's read signer key: configured, or generated once into the data directory (CONTRACT §6.2).
#include "providers/beta/read_signer.hpp"

#include "private_dirs.hpp"

#include <gateway/util/hex.hpp>

#include <openssl/crypto.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace gateway::server::beta {

namespace {

/// Wipes a buffer that held key material.
void wipe(std::string& s) {
    if (!s.empty())
        OPENSSL_cleanse(s.data(), s.size());
    s.clear();
}

sign::private_key read_key(std::filesystem::path const& path) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read beta's read signer key file " + path.string());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const first = text.find_first_not_of(" \t\r\n");
    auto const last = text.find_last_not_of(" \t\r\n");
    std::string_view const trimmed = first == std::string::npos
                                         ? std::string_view()
                                         : std::string_view(text).substr(first, last - first + 1);
    auto key = sign::private_key::from_hex(trimmed);
    wipe(text);
    if (!key)
        throw std::runtime_error("beta's read signer key file " + path.string() +
                                 " does not hold a secp256k1 key (0x + 64 hex digits)");
    return *key;
}

/// Creates `path` holding a new key, mode 0600; an existing file (a concurrent start) is kept.
void create_key(std::filesystem::path const& path) {
    create_private_directories(path.parent_path());
    auto key = sign::private_key::generate();
    if (!key)
        throw std::runtime_error("cannot generate beta's read signer key: " + key.error().message);
    std::string text = util::to_hex(key->secret()) + "\n";
    int const fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        int const err = errno;
        wipe(text);
        if (err == EEXIST)
            return; // another process created it first: read theirs
        throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(err));
    }
    // O_CREAT's mode went through the umask; the file is the owner's only, whatever it was.
    bool const ok = ::fchmod(fd, 0600) == 0 &&
                    ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                    ::fsync(fd) == 0;
    ::close(fd);
    wipe(text);
    if (!ok) {
        std::error_code ec;
        std::filesystem::remove(path, ec); // never leave a half-written key behind
        throw std::runtime_error("cannot write " + path.string());
    }
}

} // namespace

sign::private_key load_read_signer(std::filesystem::path const& data_dir,
                                   std::string const& key_file) {
    if (!key_file.empty())
        return read_key(key_file);
    auto const path = data_dir / read_signer_file_name;
    if (!std::filesystem::exists(path))
        create_key(path);
    return read_key(path);
}

} // namespace gateway::server::beta
