#pragma once
// What one CUDA thread does in each DEM stage, shared by the kernel per stage (dem_kernels.cuh)
// and the persistent step that runs every stage in one kernel (persistent_step.cu). Device
// functions only: a header that defines kernels can be included by one .cu file alone.
#include <cstddef>
#include <cstdint>

#include "sim/physics/dem_step.h"
#include "sim/physics/neighbour_list.h"

namespace plab::sim::cuda {

// Cell and in-cell rank of the particle at A index i, from its position `pos`.
__device__ inline void count_into_cell(uint32_t i, Vec3 pos, const StepBuffers& b,
                                       const GridSpec& g) {
    const uint32_t c = cell_index(pos, g);
    b.cell[i] = c;
    // The old count is this particle's rank in its cell: the counting sort's slot.
    b.slot[i] = atomicAdd(b.cell_count + c, 1u);
}

// Cell and in-cell rank of particle i (A order).
__device__ inline void hash_count_particle(uint32_t i, const StepBuffers& b, const GridSpec& g) {
    count_into_cell(i, xyz(load(b.pos + i)), b, g);
}

// Contacts one thread can list in shared memory before it falls back to computing them inline.
inline constexpr int kContactSlots = 12;

// Dynamic shared memory of a force kernel's block of `threads` that lists contacts (`listed`).
inline std::size_t contact_list_bytes(bool listed, int threads) {
    return listed
               ? std::size_t{kContactSlots} * static_cast<std::size_t>(threads) * sizeof(uint32_t)
               : 0;
}

// The pair forces in two passes: first find the contacts among the candidates (a distance test
// per candidate) and list them in shared memory, then compute the contact law for the listed
// ones. In one pass a warp runs the long contact law whenever any of its lanes touches, i.e.
// on nearly every candidate (measured: 12.8 of 32 lanes active); listed, it runs it about as
// often as a lane has contacts. `slots` is this thread's first slot; slots are `stride` apart.
// `candidates(visit)` visits the candidates: the grid's rows or the neighbour list's entries.
template <Memory M, typename Candidates>
__device__ inline Vec3 pair_forces_listed(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                          const StepBuffers& b, const Params& p,
                                          Candidates&& candidates, uint32_t* slots, int stride) {
    const float reach2 = 4.f * p.radius * p.radius;
    Vec3 force{};
    int listed = 0;
    candidates([&](uint32_t j) {
        if (j == i) return;
        const uint32_t s = stored_at<M>(b, j);
        const Vec3 other = xyz(load(read_pos<M>(b) + s));
        if (length_squared(other - pos) >= reach2) return;
        if (listed < kContactSlots) {
            slots[listed * stride] = s;  // where it is stored, not its cell-order position
            ++listed;
        } else {  // a crowded particle: no slot left, compute it here
            force += contact_force(pos, vel, id, p.radius, other, xyz(load(read_vel<M>(b) + s)),
                                   load(read_id<M>(b) + s), p.radius, p);
        }
    });
    for (int k = 0; k < listed; ++k) {
        const uint32_t s = slots[k * stride];
        force += contact_force(pos, vel, id, p.radius, xyz(load(read_pos<M>(b) + s)),
                               xyz(load(read_vel<M>(b) + s)), load(read_id<M>(b) + s), p.radius, p);
    }
    return force;
}

// The scatter form's pair forces (dem_pair_forces_half) in the same two passes: the contacts
// among the later candidates listed first (their cell-order positions, kContactSlots at most;
// a crowded particle computes the rest inline), then the law and the neighbour's atomic add
// for the listed ones, so that a warp runs them about as often as a lane has contacts.
template <Memory M, typename AddToOther>
__device__ inline Vec3 pair_forces_half_listed(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                               const StepBuffers& b, const GridSpec& g,
                                               const Params& p, uint32_t* slots, int stride,
                                               AddToOther&& add_to_other) {
    const float reach2 = 4.f * p.radius * p.radius;
    Vec3 force{};
    auto pair = [&](uint32_t j, uint32_t s, Vec3 other) {
        const Vec3 f = contact_force(pos, vel, id, p.radius, other, xyz(load(read_vel<M>(b) + s)),
                                     load(read_id<M>(b) + s), p.radius, p);
        force += f;
        add_to_other(j, -f);
    };
    int listed = 0;
    for_each_later_candidate(i, pos, b, g, [&](uint32_t j) {
        const uint32_t s = stored_at<M>(b, j);
        const Vec3 other = xyz(load(read_pos<M>(b) + s));
        if (length_squared(other - pos) >= reach2) return;
        if (listed < kContactSlots)
            slots[listed++ * stride] = j;
        else
            pair(j, s, other);
    });
    for (int k = 0; k < listed; ++k) {
        const uint32_t j = slots[k * stride];
        const uint32_t s = stored_at<M>(b, j);
        pair(j, s, xyz(load(read_pos<M>(b) + s)));
    }
    return force;
}

// Thread t of the force pass: `group` threads (a power of two ≤ 32) share the particle at
// cell-order position t / group, each taking every group-th neighbour row; a shuffle sums
// their forces. At small N this gives the GPU enough threads to hide memory latency; at large
// N one thread per particle (group 1) is the plain gather. With `fused` (sorted memory only),
// the same thread then drifts the particle (the integrate stage) and writes the state, saving
// a pass over the particles. With `listed`, contacts go through pair_forces_listed and
// `slots` (stride `stride`) is this thread's part of kContactSlots × stride shared uint32.
// With an active neighbour list (sorted memory) the candidates are its entries, split over
// the group's lanes as the rows are. Every lane of a warp must call this together (the
// shuffles); lanes past the particles take part with zeros.
template <Memory M>
__device__ inline void force_thread(uint32_t t, const StepBuffers& b, const GridSpec& g,
                                    const Params& p, const Domain& d, int group, bool fused,
                                    bool listed, uint32_t* slots, int stride,
                                    const NeighbourList& list = {}) {
    const uint32_t i = t / group;
    const int lane = static_cast<int>(t % group);
    const bool active = i < b.count;
    Vec3 pos{}, vel{}, force{};
    uint32_t id = 0;
    if (active) {
        const uint32_t s = stored_at<M>(b, i);
        pos = xyz(load(read_pos<M>(b) + s));
        vel = xyz(load(read_vel<M>(b) + s));
        id = load(read_id<M>(b) + s);
        auto candidates = [&](auto&& visit) {
            if (list.active())
                for_each_listed(i, list, b, g, visit, lane, group);
            else
                for_each_candidate(pos, b, g, visit, lane, group);
        };
        force = listed ? pair_forces_listed<M>(i, pos, vel, id, b, p, candidates, slots, stride)
                       : dem_pair_forces_over<M>(i, pos, vel, id, b, p, candidates);
    }
    for (int offset = group / 2; offset > 0; offset /= 2) {
        force.x += __shfl_xor_sync(0xffffffffu, force.x, offset);
        force.y += __shfl_xor_sync(0xffffffffu, force.y, offset);
        force.z += __shfl_xor_sync(0xffffffffu, force.z, offset);
    }
    if (!active || lane != 0) return;
    if constexpr (M == Memory::Sorted) {
        if (fused && b.pos_hi) {  // the double-precision state
            dem_kick_drift_hi(i, pos, vel, id, force, b, p, d);
            return;
        }
    }
    const Float4 kicked = dem_new_velocity(pos, vel, id, force, b.geometry, p);
    if (M == Memory::Sorted && fused)
        dem_drift_into_state(i, pos, xyz(kicked), id, b, p, d);
    else
        *kicked_velocity<M>(b, i) = kicked;
}

}  // namespace plab::sim::cuda
