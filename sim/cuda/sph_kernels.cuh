#pragma once
// The SPH passes around the shared bodies of sph_step.h. `group` threads (a power of two
// ≤ 32) may share one particle, each taking every group-th neighbour row, as in the DEM force
// kernel: at small N that keeps enough threads in flight.
#include <cstdint>

#include "sim/sph_step.h"

namespace plab::sim::cuda {

__device__ inline float group_sum(float v, int group) {
    for (int offset = group / 2; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__device__ inline Vec3 group_sum(Vec3 v, int group) {
    return {group_sum(v.x, group), group_sum(v.y, group), group_sum(v.z, group)};
}

__global__ void sph_density_kernel(StepBuffers b, GridSpec g, Params p, Domain d,
                                   SphConstants c, int group) {
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t i = t / group;
    const int lane = static_cast<int>(t % group);
    const bool active = i < b.count;
    Vec3 pos{};
    float sum = 0.f;
    if (active) {
        pos = xyz(load(b.sorted_pos + i));
        sum = sph_density_sum(pos, b, g, c, lane, group);
    }
    sum = group_sum(sum, group);  // every lane reaches the shuffles
    if (active && lane == 0) b.sorted_vel[i].w = sum + sph_wall_density(pos, p, d, c);
}

// Pressure, viscosity, walls and gravity, then the drift into the state arrays (fused: the
// pass reads only the sorted copies, so writing A cannot race with a neighbour's read).
__global__ void sph_force_kernel(StepBuffers b, GridSpec g, Params p, Domain d,
                                 SphConstants c, int group) {
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t i = t / group;
    const int lane = static_cast<int>(t % group);
    const bool active = i < b.count;
    Vec3 pos{};
    Float4 vel{};
    SphPairSums sums{};
    if (active) {
        pos = xyz(load(b.sorted_pos + i));
        vel = load(b.sorted_vel + i);
        sums = sph_pair_sums(i, pos, xyz(vel), vel.w, b, g, c, lane, group);
    }
    sums.accel = group_sum(sums.accel, group);
    if (c.xsph > 0.f) sums.xsph = group_sum(sums.xsph, group);
    if (!active || lane != 0) return;
    sph_finish_into_state(i, pos, xyz(vel), load(b.sorted_id + i), vel.w, sums, b, p, d, c);
}

}  // namespace plab::sim::cuda
