#include "sim/ranks/slab_decomposition.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"

namespace plab::sim {
namespace {

float extent(const Domain& d, int axis) {
    return axis == 0 ? d.max.x - d.min.x : axis == 1 ? d.max.y - d.min.y : d.max.z - d.min.z;
}
float low_end(const Domain& d, int axis) {
    return axis == 0 ? d.min.x : axis == 1 ? d.min.y : d.min.z;
}

// Checks the request and returns the decomposition's axis.
int checked_axis(const Domain& d, int ranks, float halo) {
    PLAB_REQUIRE(ranks >= 1,
                 "a decomposition needs at least one rank, not " + std::to_string(ranks));
    PLAB_REQUIRE(std::isfinite(halo) && halo > 0.f,
                 "the halo must be a positive width, not " + format_numbers("%g", halo));
    const int axis = longest_axis(d);
    const float length = extent(d, axis);
    const auto most = static_cast<long>(std::floor(length / halo));
    PLAB_REQUIRE(static_cast<long>(ranks) <= most,
                 std::to_string(ranks) + " slabs of a " + format_numbers("%g", length) +
                     " m domain would be narrower than the halo of " + format_numbers("%g", halo) +
                     " m: at most " + std::to_string(most) + " ranks");
    return axis;
}

}  // namespace

int SlabDecomposition::owner(float x) const {
    // The first cut above x, less one: slab r is [cuts[r], cuts[r + 1]).
    const auto above = std::upper_bound(cuts.begin() + 1, cuts.end() - 1, x);
    return static_cast<int>(above - cuts.begin()) - 1;
}

SlabDecomposition::HaloRanks SlabDecomposition::halo_ranks(float x) const {
    HaloRanks out;
    const int r = owner(x);
    if (r > 0 && x < cuts[r] + halo) out.rank[out.count++] = r - 1;
    if (r + 1 < ranks() && x >= cuts[r + 1] - halo) out.rank[out.count++] = r + 1;
    return out;
}

int longest_axis(const Domain& d) {
    int axis = 0;
    for (int a = 1; a < 3; ++a)
        if (extent(d, a) > extent(d, axis)) axis = a;
    return axis;
}

SlabDecomposition even_slabs(const Domain& d, int ranks, float halo) {
    SlabDecomposition s;
    s.axis = checked_axis(d, ranks, halo);
    s.halo = halo;
    const float lo = low_end(d, s.axis), length = extent(d, s.axis);
    s.cuts.resize(ranks + 1);
    for (int r = 0; r <= ranks; ++r)
        s.cuts[r] = lo + length * static_cast<float>(r) / static_cast<float>(ranks);
    s.cuts.back() = lo + length;  // exactly the domain's end
    return s;
}

SlabDecomposition balanced_slabs(const Domain& d, int ranks, float halo,
                                 std::span<const float> along) {
    SlabDecomposition s = even_slabs(d, ranks, halo);
    if (along.empty()) return s;
    std::vector<float> sorted(along.begin(), along.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    for (int r = 1; r < ranks; ++r) {
        const std::size_t k = n * static_cast<std::size_t>(r) / static_cast<std::size_t>(ranks);
        // Halfway between the last particle below the cut and the first above it.
        const float below = k > 0 ? sorted[k - 1] : s.cuts.front();
        const float above = k < n ? sorted[k] : s.cuts.back();
        s.cuts[r] = 0.5f * (below + above);
    }
    // Each slab at least a halo wide: up from the low end, then down from the high end (the
    // domain holds ranks halos, so both passes fit).
    for (int r = 1; r < ranks; ++r) s.cuts[r] = std::max(s.cuts[r], s.cuts[r - 1] + halo);
    for (int r = ranks - 1; r >= 1; --r) s.cuts[r] = std::min(s.cuts[r], s.cuts[r + 1] - halo);
    return s;
}

std::vector<float> coordinates_along(const SlabDecomposition& s, std::span<const Float4> pos) {
    std::vector<float> out(pos.size());
    std::transform(pos.begin(), pos.end(), out.begin(),
                   [&](const Float4& p) { return s.along(xyz(p)); });
    return out;
}

double slab_imbalance(const SlabDecomposition& s, std::span<const float> along) {
    if (along.empty()) return 0;
    std::vector<std::size_t> count(s.ranks(), 0);
    for (float x : along) ++count[s.owner(x)];
    const double mean = static_cast<double>(along.size()) / s.ranks();
    return static_cast<double>(*std::max_element(count.begin(), count.end())) / mean;
}

SlabDecomposition slabs_at_quantiles(const Domain& d, int ranks, float halo,
                                     std::span<const Float4> pos) {
    return balanced_slabs(d, ranks, halo, coordinates_along(even_slabs(d, ranks, halo), pos));
}

}  // namespace plab::sim
