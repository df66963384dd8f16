#pragma once
// Latency summaries for the benchmarks (not tests).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gateway::test {

struct percentiles {
    double p50 = 0, p99 = 0;
};

/// p50 and p99 of samples (any unit); the samples must not be empty.
inline percentiles summarize(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    auto at = [&](double q) {
        return samples[static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1))];
    };
    return {at(0.50), at(0.99)};
}

} // namespace gateway::test
