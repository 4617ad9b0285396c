#pragma once
// The grab tool's spring (sim/model/particle_pull.h), shared by both backends.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"

namespace plab::sim {

// Where `id` is in the ascending list `ids` of `n`, or -1.
PLAB_HD inline int find_pulled(const uint32_t* ids, uint32_t n, uint32_t id) {
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ids[lo] == id ? static_cast<int>(lo) : -1;
}

// The velocity after `dt` of a particle at `x` moving at `v` under a = k (goal − x) − c v,
// by implicit Euler (v' = v + dt a(x + dt v', v')), which stays stable at any dt: a frame of
// many steps cannot overshoot the goal.
PLAB_HD inline Vec3 pulled_velocity(Vec3 v, Vec3 x, Vec3 goal, float k, float c, float dt) {
    return (v + dt * k * (goal - x)) * (1.f / (1.f + dt * c + dt * dt * k));
}

}  // namespace plab::sim
