#pragma once
// Directories gatewayd creates for its own data (the data directory, the database's and the
// nonce journal's parents) are owner-only, like the files in them (0600): whatever the umask,
// nobody else may list them. Directories that already exist are left as the operator made them.
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace gateway::server {

/**
 * Creates `dir` and every missing parent with mode 0700 (set explicitly after `mkdir`, so the
 * umask cannot widen or narrow it). Existing directories are not touched.
 * @param ec set on failure (a component exists and is not a directory, no permission, ...).
 */
inline void create_private_directories(std::filesystem::path const& dir, std::error_code& ec) {
    ec.clear();
    if (dir.empty())
        return;
    std::filesystem::path partial;
    for (auto const& part : dir.lexically_normal()) {
        partial /= part;
        if (part.empty() || part == "." || part == ".." || part == partial.root_path() ||
            part == partial.root_directory())
            continue;
        if (::mkdir(partial.c_str(), 0700) != 0) {
            int const err = errno;
            if (err == EEXIST && std::filesystem::is_directory(partial, ec))
                continue;
            ec = std::error_code(err == EEXIST ? ENOTDIR : err, std::generic_category());
            return;
        }
        // mkdir applied the umask: set the mode it asked for.
        std::filesystem::permissions(partial, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::replace, ec);
        if (ec)
            return;
    }
}

/// As above; throws std::filesystem::filesystem_error on failure.
inline void create_private_directories(std::filesystem::path const& dir) {
    std::error_code ec;
    create_private_directories(dir, ec);
    if (ec)
        throw std::filesystem::filesystem_error("cannot create directory", dir, ec);
}

} // namespace gateway::server
