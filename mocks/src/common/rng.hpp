#pragma once
/**
 * @file rng.hpp
 * The mocks' only source of randomness: SplitMix64 (Steele, Lea, Flood 2014), chosen because
 * its output is fully specified, so a seed gives the same markets on every platform (the
 * standard library's distributions are not portable).
 */
#include <cstdint>

namespace gateway::mocks {

class splitmix64 {
public:
    explicit splitmix64(std::uint64_t seed) noexcept
        : state_(seed) {}

    std::uint64_t next() noexcept {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /// Uniform in [0, n) for n > 0 (modulo bias is irrelevant at the ranges the mocks use).
    std::uint64_t below(std::uint64_t n) noexcept { return n == 0 ? 0 : next() % n; }

    /// Uniform in [lo, hi].
    std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
        return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
    }

private:
    std::uint64_t state_;
};

/// Derives an independent stream seed from a base seed and a few labels.
inline std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0,
                              std::uint64_t c = 0) noexcept {
    splitmix64 r(seed ^ (a * 0xd1b54a32d192ed03ULL));
    std::uint64_t h = r.next() ^ (b * 0xaef17502108ef2d9ULL);
    splitmix64 r2(h);
    return r2.next() ^ (c * 0x9e3779b97f4a7c15ULL);
}

} // namespace gateway::mocks
