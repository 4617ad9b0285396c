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

// Contacts one thread can list in shared memory before it falls back to computing them inline.
inline constexpr int kContactSlots = 12;

// The pair forces in two passes: first find the contacts among the candidates (a distance test
// per candidate) and list them in shared memory, then compute the contact law for the listed
// ones. In one pass a warp runs the long contact law whenever any of its lanes touches, i.e.
// on nearly every candidate (measured: 12.8 of 32 lanes active); listed, it runs it about as
// often as a lane has contacts. `slots` is this thread's first slot; slots are `stride` apart.
__device__ inline Vec3 pair_forces_listed(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                          const StepBuffers& b, const GridSpec& g,
                                          const Params& p, int first_row, int row_step,
                                          uint32_t* slots, int stride) {
    const float reach2 = 4.f * p.radius * p.radius;
    Vec3 force{};
    int listed = 0;
    for_each_candidate(
        pos, b, g,
        [&](uint32_t j) {
            if (j == i) return;
            const Vec3 other = xyz(load(b.sorted_pos + j));
            if (length_squared(other - pos) >= reach2) return;
            if (listed < kContactSlots) {
                slots[listed * stride] = j;
                ++listed;
            } else {  // a crowded particle: no slot left, compute it here
                force += contact_force(pos, vel, id, p.radius, other, xyz(load(b.sorted_vel + j)),
                                       load(b.sorted_id + j), p.radius, p);
            }
        },
        first_row, row_step);
    for (int k = 0; k < listed; ++k) {
        const uint32_t j = slots[k * stride];
        force += contact_force(pos, vel, id, p.radius, xyz(load(b.sorted_pos + j)),
                               xyz(load(b.sorted_vel + j)), load(b.sorted_id + j), p.radius, p);
    }
    return force;
}

// `group` threads (a power of two ≤ 32) share one particle, each taking every group-th
// neighbour row; a shuffle sums their forces. At small N this gives the GPU enough threads to
// hide memory latency; at large N one thread per particle (group 1) is the plain gather.
// With `fused`, the same thread then drifts the particle (the integrate stage) and writes the
// state, saving a launch and a pass over the particles.
// With `listed`, contacts go through pair_forces_listed (dynamic shared memory of
// kContactSlots × blockDim.x uint32 is then required).
__global__ void force_kernel(StepBuffers b, GridSpec g, Params p, Domain d, int group,
                             bool fused, bool listed) {
    extern __shared__ uint32_t contact_slots[];
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t i = t / group;
    const int lane = static_cast<int>(t % group);
    const bool active = i < b.count;
    Vec3 pos{}, vel{}, force{};
    uint32_t id = 0;
    if (active) {
        pos = xyz(load(b.sorted_pos + i));
        vel = xyz(load(b.sorted_vel + i));
        id = load(b.sorted_id + i);
        force = listed ? pair_forces_listed(i, pos, vel, id, b, g, p, lane, group,
                                            contact_slots + threadIdx.x, blockDim.x)
                       : dem_pair_forces(i, pos, vel, id, b, g, p, lane, group);
    }
    // Every lane of the warp reaches the shuffles (inactive ones add zeros).
    for (int offset = group / 2; offset > 0; offset /= 2) {
        force.x += __shfl_xor_sync(0xffffffffu, force.x, offset);
        force.y += __shfl_xor_sync(0xffffffffu, force.y, offset);
        force.z += __shfl_xor_sync(0xffffffffu, force.z, offset);
    }
    if (!active || lane != 0) return;
    const Float4 kicked = dem_new_velocity(pos, vel, id, force, p);
    if (fused)
        dem_drift_into_state(i, pos, xyz(kicked), id, b, p, d);
    else
        b.vel[i] = kicked;
}

__global__ void drift_kernel(StepBuffers b, Params p, Domain d) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count) dem_drift_particle(i, b, p, d);
}

// Scatter form of the force pass: each touching pair once, the neighbour's opposite force
// added with atomics into b.force (zeroed before), then finish_kernel kicks and drifts.
__global__ void pair_scatter_kernel(StepBuffers b, GridSpec g, Params p) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    auto add = [&](uint32_t j, Vec3 f) {
        atomicAdd(&b.force[j].x, f.x);
        atomicAdd(&b.force[j].y, f.y);
        atomicAdd(&b.force[j].z, f.z);
    };
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Vec3 vel = xyz(load(b.sorted_vel + i));
    add(i, dem_pair_forces_half(i, pos, vel, load(b.sorted_id + i), b, g, p, add));
}

__global__ void finish_kernel(StepBuffers b, Params p, Domain d) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Vec3 vel = xyz(load(b.sorted_vel + i));
    const uint32_t id = load(b.sorted_id + i);
    const Float4 kicked = dem_new_velocity(pos, vel, id, xyz(b.force[i]), p);
    dem_drift_into_state(i, pos, xyz(kicked), id, b, p, d);
}

}  // namespace plab::sim::cuda
