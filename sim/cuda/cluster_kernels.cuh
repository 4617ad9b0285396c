#pragma once
// The classic DEM force pass by cluster pairs (sim/physics/cluster_pairs.h) on the device: a
// warp per cluster. Lane l holds member l % 8 and tests the members 4h + l / 8 (h = 0, 1) of
// each neighbour cluster, so one load instruction of the warp reads four neighbours side by
// side (64 B, each address shared by eight lanes: L1 broadcasts it) and a warp tests 64 pairs
// a neighbour cluster with every lane busy; a neighbour's velocity and id are read only on
// contact. The neighbour clusters' numbers are read 32 at a time and handed out by shuffles.
// With `listed` (the contact_list variant) a lane keeps its contacts in shared memory and runs
// the contact law for them after the loop, as the particle pass does (dem_thread_bodies.cuh).
// The four lanes of a member sum their forces with shuffles and the first writes the kick (and
// the drift, fused). The CPU's dem_force_particle_clustered is its reference: the same pairs,
// summed in another order.
#include <cstdint>

#include "sim/cuda/dem_thread_bodies.cuh"
#include "sim/physics/cluster_pairs.h"
#include "sim/physics/dem_step.h"

namespace plab::sim::cuda {

inline constexpr uint32_t kClusterLanes = 32;  // a warp per cluster

__global__ void cluster_force_kernel(StepBuffers b, GridSpec g, Params p, Domain d, NeighbourList l,
                                     ClusterPairs cp, bool fused, bool listed) {
    extern __shared__ uint32_t contact_slots[];  // `listed`: kContactSlots × blockDim.x
    uint32_t* slots = contact_slots + threadIdx.x;
    const int stride = static_cast<int>(blockDim.x);
    constexpr unsigned kAll = 0xffffffffu;
    constexpr uint32_t kQuarters = kClusterLanes / kClusterSize;
    const uint32_t lane = threadIdx.x % kClusterLanes;
    const uint32_t c = (blockIdx.x * blockDim.x + threadIdx.x) / kClusterLanes;
    if (c >= cp.clusters) return;  // the whole warp: a cluster's lanes share one warp
    const uint32_t member = lane % kClusterSize, quarter = lane / kClusterSize;
    const uint32_t i = c * kClusterSize + member;
    const bool active = i < b.count;
    Vec3 pos{}, vel{};
    uint32_t id = 0;
    if (active) {
        pos = xyz(load(b.sorted_pos + i));
        vel = xyz(load(b.sorted_vel + i));
        id = load(b.sorted_id + i);
    }
    const float reach2 = 4.f * p.radius * p.radius;
    Vec3 force{};
    const uint32_t found = load(cp.count + c);
    if (found == kListOverflow) {
        // The members' own lists, their entries split over the member's four lanes.
        auto candidates = [&](auto&& visit) {
            for_each_listed(i, l, b, g, visit, static_cast<int>(quarter), kQuarters);
        };
        if (active)
            force = listed ? pair_forces_listed<Memory::Sorted>(i, pos, vel, id, b, p, candidates,
                                                                slots, stride)
                           : dem_pair_forces_over(i, pos, vel, id, b, p, candidates);
    } else {
        int touching = 0;  // contacts kept in `slots` for after the loop
        const uint32_t* neighbours = cp.index + std::size_t{c} * cp.slots;
        for (uint32_t k0 = 0; k0 < found; k0 += kClusterLanes) {
            // 32 neighbour clusters read at once, handed out one by one.
            const uint32_t mine = k0 + lane < found ? load(neighbours + k0 + lane) : 0u;
            const uint32_t batch = found - k0 < kClusterLanes ? found - k0 : kClusterLanes;
            for (uint32_t e = 0; e < batch; ++e) {
                const uint32_t first = __shfl_sync(kAll, mine, static_cast<int>(e)) * kClusterSize;
                PLAB_UNROLL
                for (uint32_t h = 0; h < kClusterSize / kQuarters; ++h) {
                    const uint32_t j = first + quarter + kQuarters * h;
                    if (!active || j >= b.count || j == i) continue;
                    const Vec3 other = xyz(load(b.sorted_pos + j));
                    if (length_squared(other - pos) >= reach2) continue;
                    if (listed && touching < kContactSlots)
                        slots[touching++ * stride] = j;
                    else
                        force += contact_force(pos, vel, id, p.radius, other,
                                               xyz(load(b.sorted_vel + j)), load(b.sorted_id + j),
                                               p.radius, p);
                }
            }
        }
        // The law for the kept contacts, all lanes at once: inside the loop a warp would run it
        // for nearly every neighbour cluster (one of its 64 tests touches), a few lanes at a time.
        for (int k = 0; k < touching; ++k) {
            const uint32_t j = slots[k * stride];
            force += contact_force(pos, vel, id, p.radius, xyz(load(b.sorted_pos + j)),
                                   xyz(load(b.sorted_vel + j)), load(b.sorted_id + j), p.radius, p);
        }
    }
    for (uint32_t offset = kClusterSize; offset < kClusterLanes; offset *= 2) {
        force.x += __shfl_xor_sync(kAll, force.x, static_cast<int>(offset));
        force.y += __shfl_xor_sync(kAll, force.y, static_cast<int>(offset));
        force.z += __shfl_xor_sync(kAll, force.z, static_cast<int>(offset));
    }
    if (!active || quarter != 0) return;
    const Float4 kicked = dem_new_velocity(pos, vel, id, force, b.geometry, p);
    if (fused)
        dem_drift_into_state(i, pos, xyz(kicked), id, b, p, d);
    else
        b.vel[i] = kicked;
}

}  // namespace plab::sim::cuda
