#pragma once
// Order statistics of timing samples.
#include <algorithm>
#include <cmath>
#include <vector>

namespace plab::app {

// Linear interpolation between closest ranks (q in [0, 1]); NaN for no samples.
inline double percentile(std::vector<double> v, double q) {
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

inline double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

}  // namespace plab::app
