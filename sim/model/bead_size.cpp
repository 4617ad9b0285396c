#include "sim/model/bead_size.h"

namespace plab::sim {

float bead_deviation(uint64_t index, uint32_t seed, float spread) {
    if (!(spread > 0.f)) return 0.f;
    // SplitMix64 of the index and the seed: independent of thread count and backend.
    uint64_t z = index + (uint64_t{seed} << 32) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    const double u = static_cast<double>(z >> 11) * 0x1.0p-53;  // [0, 1)
    return static_cast<float>((2.0 * u - 1.0) * spread);
}

void assign_bead_sizes(std::span<Float4> pos, const Params& p, uint32_t seed) {
    for (std::size_t k = 0; k < pos.size(); ++k)
        pos[k].w = bead_deviation(k, seed, p.radius_spread);
}

}  // namespace plab::sim
