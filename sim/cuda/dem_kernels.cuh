#pragma once
// One thread per particle around the shared bodies of dem_step.h.
#include <cstdint>

#include "sim/dem_step.h"

namespace plab::sim::cuda {

__global__ void hash_count_kernel(StepBuffers b, GridSpec g) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    const uint32_t c = cell_index(xyz(load(b.pos + i)), g);
    b.cell[i] = c;
    // The old count is this particle's rank in its cell: the counting sort's slot.
    b.slot[i] = atomicAdd(b.cell_count + c, 1u);
}

__global__ void scatter_kernel(StepBuffers b) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) scatter_particle(i, b);
}

__global__ void force_kernel(StepBuffers b, GridSpec g, Params p) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) dem_force_particle(i, b, g, p);
}

__global__ void drift_kernel(StepBuffers b, Params p, Domain d) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) dem_drift_particle(i, b, p, d);
}

struct DeviceStats {
    unsigned int max_speed_bits;  // float bits; non-negative floats order like their bits
    unsigned int non_finite;
    double kinetic_energy;
};

__global__ void stats_kernel(const Float4* pos, const Float4* vel, uint32_t n, float mass,
                             DeviceStats* out) {
    float speed = 0.f;
    double energy = 0.0;
    unsigned int bad = 0;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const Float4 p = pos[i], v = vel[i];
        const bool finite = isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) &&
                            isfinite(v.y) && isfinite(v.z);
        if (!finite) {
            ++bad;
            continue;
        }
        const float s2 = v.x * v.x + v.y * v.y + v.z * v.z;
        speed = fmaxf(speed, sqrtf(s2));
        energy += 0.5 * mass * s2;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        speed = fmaxf(speed, __shfl_down_sync(0xffffffffu, speed, offset));
        energy += __shfl_down_sync(0xffffffffu, energy, offset);
        bad += __shfl_down_sync(0xffffffffu, bad, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMax(&out->max_speed_bits, __float_as_uint(speed));
        atomicAdd(&out->kinetic_energy, energy);
        atomicAdd(&out->non_finite, bad);
    }
}

}  // namespace plab::sim::cuda
