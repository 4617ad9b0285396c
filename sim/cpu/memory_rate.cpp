#include "sim/cpu/memory_rate.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "sim/core/format_numbers.h"

namespace plab::sim {

MemoryRates measure_host_rates() {
    constexpr std::size_t kBytes = std::size_t{64} << 20;
    constexpr int kRuns = 5;
    std::vector<unsigned char> a(kBytes, 1), b(kBytes, 0);
    const int threads = omp_get_max_threads();
    auto copy = [&] {
#pragma omp parallel for schedule(static)
        for (int t = 0; t < threads; ++t) {
            const std::size_t lo = kBytes * std::size_t(t) / std::size_t(threads);
            const std::size_t hi = kBytes * std::size_t(t + 1) / std::size_t(threads);
            std::memcpy(b.data() + lo, a.data() + lo, hi - lo);
        }
    };
    copy();  // a warm-up: the pages are touched
    std::vector<double> s;
    for (int r = 0; r < kRuns; ++r) {
        const auto start = std::chrono::steady_clock::now();
        copy();
        s.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(s.begin(), s.begin() + kRuns / 2, s.end());
    MemoryRates r;
    r.copy_bytes_per_s = 2.0 * double(kBytes) / s[kRuns / 2];
    r.how = format_numbers("a 64 MiB host copy over %.0f threads", double(threads));
    return r;
}

}  // namespace plab::sim
