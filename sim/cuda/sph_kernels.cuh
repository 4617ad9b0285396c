#pragma once
// The SPH passes around the shared bodies of sph_step.h, one thread per particle.
//
// The density pass visits every candidate of the 125 half-range cells (~200 at h = 1.2
// spacings) and finds the ~55 in reach; it writes their indices into a neighbour list, so the force
// pass runs its long per-pair body only for those. Scanning the candidates again in the force pass
// would run that body for nearly every candidate: a warp executes it whenever any of its 32 lanes
// has a neighbour, and with 1 candidate in 6 in reach some lane nearly always has one. The list is
// laid out slot-major (list[k · count + i]) so that a warp's writes and reads of its k-th entries
// are one coalesced transaction. A particle with more neighbours than slots (a rare, very
// compressed one) is marked and scans its candidates again.
#include <cstdint>

#include "sim/cuda/sph_list.h"
#include "sim/physics/sph_step.h"

namespace plab::sim::cuda {

__global__ void sph_density_kernel(StepBuffers b, GridSpec g, Params p, Domain d, SphConstants c,
                                   SphList list) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    float sum = 0.f;
    uint32_t found = 0;
    for_each_candidate_in_reach(pos, b, g, [&](uint32_t j) {
        const float r2 = length_squared(xyz(load(b.sorted_pos + j)) - pos);
        if (r2 >= c.reach2) return;
        sum += sph_w(r2, c);
        if (j == i) return;
        if (found < kSphListSlots) list.index[found * b.count + i] = j;
        ++found;
    });
    list.count[i] = found <= kSphListSlots ? found : kSphListOverflow;
    const float density = c.mass * sum + sph_wall_density(pos, p, d, c, b.geometry.field);
    b.sorted_vel[i].w = density;
    list.pressure_term[i] = sph_pressure_term(density, c);
}

// Pressure, viscosity, walls and gravity over the listed neighbours, then the drift into the
// state arrays (fused: the pass reads only the sorted copies, so writing A cannot race with a
// neighbour's read).
__global__ void sph_force_kernel(StepBuffers b, GridSpec g, Params p, Domain d, SphConstants c,
                                 SphList list) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Float4 vel = load(b.sorted_vel + i);
    const uint32_t found = list.count[i];
    SphPairSums sums{};
    if (found == kSphListOverflow) {
        sums = sph_pair_sums(i, pos, xyz(vel), vel.w, b, g, c, list.pressure_term);
    } else {
        const float own = list.pressure_term[i];
        for (uint32_t k = 0; k < found; ++k) {
            // Read once, so loaded as streaming (evict first): the list is 4 × 55 B a
            // particle and would otherwise push the neighbours' positions and velocities,
            // which every particle gathers, out of L2 (4% off the step at 263k on the H200;
            // the same hint on the density pass's writes made it 1% slower).
            const uint32_t j = __ldcs(list.index + k * b.count + i);
            const Vec3 r = pos - xyz(load(b.sorted_pos + j));
            sph_add_pair(sums, r, length_squared(r), xyz(vel), vel.w, own, load(b.sorted_vel + j),
                         __ldg(list.pressure_term + j), c);
        }
    }
    sph_finish_into_state(i, pos, xyz(vel), load(b.sorted_id + i), vel.w, sums, b, p, d, c);
}

// The SPH passes over the neighbour lists with a skin (SimulatorOptions::neighbour_list): the
// density and the pressure terms, then the pair sums and the drift, both over the list (whose
// entries beyond the kernel's reach add nothing).
__global__ void sph_density_list_kernel(StepBuffers b, GridSpec g, Params p, Domain d,
                                        SphConstants c, NeighbourList l, float* pressure_terms) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    const float density = sph_density_listed(i, xyz(load(b.sorted_pos + i)), l, b, g, p, d, c);
    b.sorted_vel[i].w = density;
    pressure_terms[i] = sph_pressure_term(density, c);
}

__global__ void sph_force_list_kernel(StepBuffers b, GridSpec g, Params p, Domain d, SphConstants c,
                                      NeighbourList l, const float* pressure_terms) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) sph_force_particle_listed(i, b, g, p, d, c, pressure_terms, l);
}

// After a density pass on a freshly reset state: each particle's density, found at its
// cell-order position, into the state arrays (which are still in their own order).
__global__ void sph_density_to_state_kernel(StepBuffers b) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    b.vel[i].w = b.sorted_vel[b.cell_start[b.cell[i]] + b.slot[i]].w;
}

}  // namespace plab::sim::cuda
