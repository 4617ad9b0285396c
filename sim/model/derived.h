#pragma once
// Quantities derived from Params that several places need (the SPH step, the colour map, the
// hydrostatic start, the window's panel), each written once. Host and device; no device code
// of its own, so host-only code may include it.
#include <cmath>

#include "sim/core/hd.h"
#include "sim/model/params.h"

namespace plab::sim {

// γ of Tait's equation of state p = B ((ρ/ρ₀)^γ − 1), the usual exponent for water.
inline constexpr float kTaitGamma = 7.f;

// Tait's B = ρ₀ c² / γ (Pa). In double: the hydrostatic start integrates with it in double
// (scene.cpp); the float users round it once.
PLAB_HD inline double tait_b(const Params& p) {
    return double(p.rest_density) * p.sound_speed * p.sound_speed / kTaitGamma;
}

// Tait's pressure (Pa) at the density ratio ρ/ρ₀, negative pressures cut to zero (why:
// sph_pressure). The ratio is the argument so that each caller keeps its own way of forming
// it (the step multiplies by 1/ρ₀, the colour map divides).
PLAB_HD inline float tait_pressure(float density_ratio, float tait_b) {
    static_assert(kTaitGamma == 7.f, "the seventh power is multiplied out below");
    const float r = density_ratio;
    const float r2 = r * r;
    const float r7 = r2 * r2 * r2 * r;
    const float p = tait_b * (r7 - 1.f);
    return p > 0.f ? p : 0.f;
}

// |g| (m/s²).
PLAB_HD inline float gravity_magnitude(const Params& p) {
    return sqrtf(p.gravity_x * p.gravity_x + p.gravity_y * p.gravity_y + p.gravity_z * p.gravity_z);
}

}  // namespace plab::sim
