#include "providers/beta/read_signer.hpp"

#include <gateway/util/hex.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gateway::server::beta {

namespace {

sign::private_key read_key(std::filesystem::path const& path) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read beta's read signer key file " + path.string());
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    auto key = sign::private_key::from_hex(text);
    if (!key)
        throw std::runtime_error("beta's read signer key file " + path.string() +
                                 " does not hold a secp256k1 key (0x + 64 hex digits)");
    return *key;
}

/// Creates `path` with a new key, mode 0600, failing if it exists (a concurrent start).
void create_key(std::filesystem::path const& path) {
    std::filesystem::create_directories(path.parent_path());
    ::chmod(path.parent_path().c_str(), 0700);
    auto key = sign::private_key::generate();
    if (!key)
        throw std::runtime_error("cannot generate beta's read signer key: " + key.error().message);
    std::string const text = util::to_hex(key->secret()) + "\n";
    int const fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == EEXIST)
            return; // another process created it first: read theirs
        throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(errno));
    }
    bool const ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                    ::fsync(fd) == 0;
    ::close(fd);
    if (!ok)
        throw std::runtime_error("cannot write " + path.string());
}

} // namespace

sign::private_key load_read_signer(std::filesystem::path const& data_dir,
                                   std::string const& key_file) {
    if (!key_file.empty())
        return read_key(key_file);
    auto const path = data_dir / "beta-read-signer.key";
    if (!std::filesystem::exists(path))
        create_key(path);
    return read_key(path);
}

} // namespace gateway::server::beta
