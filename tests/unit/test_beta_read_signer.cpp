// Unit tests of beta's read signer key (reference-server/src/providers/beta/read_signer.hpp,
// CONTRACT §6.2): generated once into the data directory with mode 0600, or read from a
// configured file; a bad file stops the start without ever showing its content.
#include "providers/beta/read_signer.hpp"
#include "support/temp_dir.hpp"

#include <gateway/sign/secp256k1.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace gateway;
namespace beta = gateway::server::beta;

namespace {

unsigned mode_of(std::filesystem::path const& p) {
    struct stat st {};
    REQUIRE(::stat(p.c_str(), &st) == 0);
    return st.st_mode & 0777;
}

} // namespace

TEST_CASE("beta read signer: generated once into the data directory, owner-only", "[unit][beta]") {
    test::temp_dir s("beta-signer-gen");
    auto const data = s.path / "data";
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
    auto const other = beta::load_read_signer(s.path / "other", "");
    CHECK(sign::address_of(other) != sign::address_of(first));
}

TEST_CASE("beta read signer: a configured key file wins, a bad one fails without its content",
          "[unit][beta]") {
    test::temp_dir s("beta-signer-cfg");
    auto const file = s.path / "signer.key";
    {
        std::ofstream out(file);
        out << "\n 4FD0A42218F3EAE43A6CE26D22544E986139A01E5B34A62DB53757FFCA81BAE1 \n";
    }
    auto const key = beta::load_read_signer(s.path / "data", file.string());
    CHECK(sign::address_of(key).str() == "0x21cf8ae13bb72632562c6fff438652ba1a151bb0");
    CHECK_FALSE(std::filesystem::exists(s.path / "data" / beta::read_signer_file_name));

    std::string const secret_looking = "0xdeadbeef-not-a-key";
    {
        std::ofstream out(file);
        out << secret_looking;
    }
    try {
        (void)beta::load_read_signer(s.path / "data", file.string());
        FAIL("a file without a key must stop the start");
    } catch (std::runtime_error const& e) {
        std::string const what = e.what();
        CHECK_THAT(what, Catch::Contains(file.string()));
        CHECK_THAT(what, !Catch::Contains("deadbeef"));
    }
    CHECK_THROWS_AS(beta::load_read_signer(s.path, (s.path / "missing.key").string()),
                    std::runtime_error);
}
