#pragma once
// One particle's share of SimStats, the same on both backends: the CPU loop
// (host_state.cpp: compute_stats) and the CUDA kernel (cuda_readback.cu) only differ in how
// they add the shares up.
#include <cmath>

#include "sim/core/hd.h"
#include "sim/core/vec.h"

namespace plab::sim {

struct ParticleStat {
    bool finite = false;        // position and velocity free of NaN and inf
    double speed2 = 0;          // m²/s², in double like the energy sum it feeds
    double kinetic_energy = 0;  // J, ½ m v²
    float density = 0;          // kg/m³, vel.w (SPH; 0 for DEM)
};

PLAB_HD inline bool is_finite(float x) {
#if defined(__CUDA_ARCH__)
    return isfinite(x);
#else
    return std::isfinite(x);
#endif
}

// `mass` in kg, the nominal particle's; a bead of another size (p.w, sim/model/bead_size.h) weighs
// mass · (1 + p.w)³. A particle that is not finite has only `finite` set.
PLAB_HD inline ParticleStat particle_stat(Float4 p, Float4 v, float mass) {
    ParticleStat s;
    s.finite = is_finite(p.x) && is_finite(p.y) && is_finite(p.z) && is_finite(v.x) &&
               is_finite(v.y) && is_finite(v.z);
    if (!s.finite) return s;
    s.speed2 = double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z;
    const double size = 1.0 + double(p.w);  // 1 for every particle of a run without a spread
    s.kinetic_energy = 0.5 * mass * (size * size * size) * s.speed2;
    s.density = v.w;
    return s;
}

}  // namespace plab::sim
