// Unit tests of beta's read signer key (reference-server/src/providers/beta/read_signer.hpp,
// CONTRACT §6.2): generated once into the data directory with mode 0600, or read from a
// configured file; a bad file stops the start without ever showing its content.
#include "providers/beta/read_signer.hpp"

#include <gateway/sign/secp256k1.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace gateway;
namespace beta = gateway::server::beta;

namespace {

/// A fresh directory under the temp dir, removed at the end of the scope.
struct scratch {
    std::filesystem::path dir;
    explicit scratch(std::string const& name)
        : dir(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(dir);
    }
    ~scratch() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

unsigned mode_of(std::filesystem::path const& p) {
    struct stat st {};
    REQUIRE(::stat(p.c_str(), &st) == 0);
    return st.st_mode & 0777;
}

} // namespace

TEST_CASE("beta read signer: generated once into the data directory, owner-only", "[unit][beta]") {
    scratch s("beta-signer-gen");
    auto const data = s.dir / "data";
    auto const first = beta::load_read_signer(data, "");
    auto const file = data / beta::read_signer_file_name;
    REQUIRE(std::filesystem::exists(file));
    CHECK(mode_of(file) == 0600);
    CHECK(mode_of(data) == 0700); // created by gatewayd: owner-only
    // Read back, not generated again: the address accounts approved stays.
    auto const again = beta::load_read_signer(data, "");
    CHECK(sign::address_of(again) == sign::address_of(first));
    CHECK(first.secret() == again.secret());
    // Another data directory, another key.
    auto const other = beta::load_read_signer(s.dir / "other", "");
    CHECK(sign::address_of(other) != sign::address_of(first));
}

TEST_CASE("beta read signer: a configured key file wins; a bad one fails without its content",
          "[unit][beta]") {
    scratch s("beta-signer-cfg");
    std::filesystem::create_directories(s.dir);
    auto const file = s.dir / "signer.key";
    {
        std::ofstream out(file);
        out << "\n 4FD0A42218F3EAE43A6CE26D22544E986139A01E5B34A62DB53757FFCA81BAE1 \n";
    }
    auto const key = beta::load_read_signer(s.dir / "data", file.string());
    CHECK(sign::address_of(key).str() == "0x21cf8ae13bb72632562c6fff438652ba1a151bb0");
    CHECK_FALSE(std::filesystem::exists(s.dir / "data" / beta::read_signer_file_name));

    std::string const secret_looking = "0xdeadbeef-not-a-key";
    {
        std::ofstream out(file);
        out << secret_looking;
    }
    try {
        (void)beta::load_read_signer(s.dir / "data", file.string());
        FAIL("a file without a key must stop the start");
    } catch (std::runtime_error const& e) {
        std::string const what = e.what();
        CHECK_THAT(what, Catch::Contains(file.string()));
        CHECK_THAT(what, !Catch::Contains("deadbeef"));
    }
    CHECK_THROWS_AS(beta::load_read_signer(s.dir, (s.dir / "missing.key").string()),
                    std::runtime_error);
}
