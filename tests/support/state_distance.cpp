#include "support/state_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace plab::test {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The largest of `measure(a[i], b[i])`; +infinity for a non-finite one or unequal lengths
// (std::max would drop a NaN).
template <typename Measure>
double largest(std::span<const sim::Float4> a, std::span<const sim::Float4> b, Measure measure) {
    if (a.size() != b.size()) return kInfinity;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double d = measure(a[i], b[i]);
        if (!std::isfinite(d)) return kInfinity;
        worst = std::max(worst, d);
    }
    return worst;
}

double axis_difference(sim::Float4 a, sim::Float4 b) {
    return std::max(
        {std::fabs(double(a.x) - b.x), std::fabs(double(a.y) - b.y), std::fabs(double(a.z) - b.z)});
}

}  // namespace

double distance3(sim::Float4 a, sim::Float4 b) {
    const double x = double(a.x) - b.x, y = double(a.y) - b.y, z = double(a.z) - b.z;
    return std::sqrt(x * x + y * y + z * z);
}

std::vector<double> distances(std::span<const sim::Float4> a, std::span<const sim::Float4> b) {
    std::vector<double> d(std::max(a.size(), b.size()), kInfinity);
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        d[i] = distance3(a[i], b[i]);
        if (!std::isfinite(d[i])) d[i] = kInfinity;
    }
    return d;
}

double max_distance(std::span<const sim::Float4> a, std::span<const sim::Float4> b) {
    return largest(a, b, distance3);
}

double max_axis_difference(std::span<const sim::Float4> a, std::span<const sim::Float4> b) {
    return largest(a, b, axis_difference);
}

}  // namespace plab::test
