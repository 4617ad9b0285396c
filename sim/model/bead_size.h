#pragma once
// Beads of different sizes (Params::radius_spread, the frictional DEM law). A particle's
// position keeps its size in the w component, which nothing else uses for DEM, so the size
// travels with the position through the sort, the lists, captures and checkpoints: w is the
// relative deviation of its radius from Params::radius, r = radius · (1 + w), w within
// [−spread, spread]. Every particle of a run without a spread has w = 0. The mass grows with
// the volume (same density), the moment of inertia with mass · r².
#include <cstdint>
#include <span>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/model/params.h"

namespace plab::sim {

// `nominal`: Params::radius.
PLAB_HD inline float bead_radius(const Float4& pos, float nominal) {
    return nominal * (1.f + pos.w);
}
PLAB_HD inline float bead_radius(const Float4& pos, const Params& p) {
    return bead_radius(pos, p.radius);
}

// The bead's mass over Params::mass: its volume over the nominal bead's.
PLAB_HD inline float bead_volume_ratio(const Float4& pos) {
    const float s = 1.f + pos.w;
    return s * s * s;
}

// Each particle's deviation w, uniform in [−spread, spread], from its index and `seed` alone
// (the same scene gives the same beads on every backend and run); all 0 without a spread.
void assign_bead_sizes(std::span<Float4> pos, const Params& p, uint32_t seed = 0);

// The deviation assign_bead_sizes gives particle `index`.
float bead_deviation(uint64_t index, uint32_t seed, float spread);

}  // namespace plab::sim
