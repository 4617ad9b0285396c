#pragma once
// Order statistics of timing samples.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
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

// "  name   median   p10   p90" with the name padded to `name_width`, ms to 4 decimals.
inline std::string percentile_row(const char* name, const std::vector<double>& v, int name_width) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-*s %10.4f %10.4f %10.4f\n", name_width, name, median(v),
                  percentile(v, 0.1), percentile(v, 0.9));
    return line;
}

}  // namespace plab::app
