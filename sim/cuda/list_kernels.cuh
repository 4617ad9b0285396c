#pragma once
// The neighbour-list stages around the shared bodies of neighbour_list.h, one thread per
// particle. Every kernel is launched every step (so a CUDA graph replays the same launches);
// those of a build return at once on a step that does not rebuild, which the displacement
// check decides on the device (ListControl::rebuild).
#include <cstdint>

#include "sim/cuda/dem_thread_bodies.cuh"
#include "sim/cuda/list_control.h"
#include "sim/physics/cluster_pairs.h"
#include "sim/physics/list_strays.h"
#include "sim/physics/neighbour_list.h"

namespace plab::sim::cuda {

// Counts the particles that moved past the rebuild distance and lists them as strays while
// they fit (one atomic add a block); the last block to finish turns the count and the host's
// request into this step's decision (a grid-wide reduction without a second launch): a build
// when more moved than the stray limit (s.limit, 0 unless strays are repaired).
__global__ void list_check_kernel(StepBuffers b, NeighbourList l, float rebuild_dist2, StrayList s,
                                  ListControl* ctl) {
    __shared__ unsigned int block_base;
    __shared__ unsigned int warp_moved[32];
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool moved = i < b.count && moved_past_skin(i, l, b, rebuild_dist2);
    const unsigned int block_moved = static_cast<unsigned int>(__syncthreads_count(moved));
    if (block_moved > 0) {
        if (threadIdx.x == 0) block_base = atomicAdd(&ctl->moved, block_moved);
        // This block's movers in thread order after the earlier warps'.
        const unsigned int ballot = __ballot_sync(0xffffffffu, moved);
        const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
        if (lane == 0) warp_moved[warp] = __popc(ballot);
        __syncthreads();
        if (block_base + block_moved <= s.limit && moved) {
            unsigned int rank = __popc(ballot & ((1u << lane) - 1u));
            for (unsigned int w = 0; w < warp; ++w) rank += warp_moved[w];
            s.index[block_base + rank] = i;
        }
    }
    if (threadIdx.x != 0) return;
    __threadfence();  // the count and the strays are visible before this block counts as done
    if (atomicAdd(&ctl->blocks_done, 1u) != gridDim.x - 1) return;
    // The last block: every other block's count is in.
    __threadfence();
    const bool asked = atomicExch(&ctl->request, 0u) != 0u;
    const unsigned int moved_now = atomicExch(&ctl->moved, 0u);
    const unsigned int rebuild = asked || moved_now > s.limit ? 1u : 0u;
    ctl->rebuild = rebuild;
    ctl->strays = rebuild ? 0u : moved_now;
    ctl->repairs = 0;
    ctl->blocks_done = 0;
    ctl->steps += 1;
    ctl->builds += rebuild;
    if (rebuild) ctl->cluster_entries = 0;       // the cluster pairs' build counts them again
    ctl->moved_total += asked ? 0u : moved_now;  // an asked build compares with no valid build
    ctl->stray_total += rebuild ? 0u : moved_now;
}

__global__ void list_zero_counts_kernel(uint32_t* counts, uint32_t cells, const ListControl* ctl) {
    if (!ctl->rebuild) return;
    for (uint32_t c = blockIdx.x * blockDim.x + threadIdx.x; c < cells; c += gridDim.x * blockDim.x)
        counts[c] = 0;
}

__global__ void list_hash_count_kernel(StepBuffers b, GridSpec g, const ListControl* ctl) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < b.count && ctl->rebuild) hash_count_particle(i, b, g);
}

// A build sorts the state into S; between builds A, already in cell order, is copied to S.
__global__ void list_scatter_kernel(StepBuffers b, const ListControl* ctl) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    if (ctl->rebuild)
        scatter_particle(i, b);
    else
        copy_particle_in_place(i, b);
}

__global__ void list_build_kernel(StepBuffers b, GridSpec g, NeighbourList l, float cutoff2,
                                  ListControl* ctl) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count || !ctl->rebuild) return;
    const uint32_t found = build_list_particle(i, l, b, g, cutoff2);
    if (found > l.slots) {
        atomicAdd(&ctl->overflowed, 1ull);
        atomicMax(&ctl->most_found, found);
    }
}

// The cluster pairs (sim/physics/cluster_pairs.h) from the lists just built, a thread per
// cluster. A member's overflow is the lists' to count and grow.
__global__ void cluster_build_kernel(NeighbourList l, ClusterPairs cp, uint32_t n,
                                     ListControl* ctl) {
    const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cp.clusters || !ctl->rebuild) return;
    const uint32_t found = build_cluster_pairs_of(c, cp, l, n);
    if (found == kListOverflow) return;
    if (found > cp.slots) {
        atomicAdd(&ctl->cluster_overflowed, 1ull);
        atomicMax(&ctl->cluster_most_found, found);
    } else {
        atomicAdd(&ctl->cluster_entries, static_cast<unsigned long long>(found));
    }
}

// The strays' repair (sim/physics/list_strays.h), after the force pass and the drift: each stray
// queues itself and its neighbours whose lists miss it, once each (the `queued` marks).
__global__ void stray_queue_kernel(StepBuffers b, GridSpec g, Params p, NeighbourList l,
                                   StrayList s, float rebuild_dist2, ListControl* ctl) {
    if (ctl->rebuild) return;
    const uint32_t strays = ctl->strays;
    for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < strays;
         k += gridDim.x * blockDim.x)
        queue_stray_repairs(s.index[k], l, b, g, p, rebuild_dist2, [&](uint32_t j) {
            if (atomicExch(s.queued + j, 1u) != 0u) return;
            const unsigned int slot = atomicAdd(&ctl->repairs, 1u);
            if (slot < s.repair_slots) s.repair[slot] = j;
        });
}

// Redoes the queued particles' steps; when more were queued than the slots hold, every
// particle's (exact either way).
__global__ void stray_repair_kernel(StepBuffers b, GridSpec g, Params p, Domain d, NeighbourList l,
                                    StrayList s, float rebuild_dist2, ListControl* ctl) {
    if (ctl->rebuild) return;
    const uint32_t strays = ctl->strays;
    if (strays == 0) return;
    const uint32_t queued = ctl->repairs;
    const bool all = queued > s.repair_slots;
    const uint32_t total = all ? b.count : queued;
    const uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
    if (first == 0) ctl->repaired_total += total;
    for (uint32_t k = first; k < total; k += gridDim.x * blockDim.x) {
        const uint32_t i = all ? k : s.repair[k];
        dem_repair_particle(i, b, g, p, d, l, s, strays, rebuild_dist2);
        s.queued[i] = 0;
    }
}

}  // namespace plab::sim::cuda
