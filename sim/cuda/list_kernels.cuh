#pragma once
// The neighbour-list stages around the shared bodies of neighbour_list.h, one thread per
// particle. Every kernel is launched every step (so a CUDA graph replays the same launches);
// those of a build return at once on a step that does not rebuild, which the displacement
// check decides on the device (ListControl::rebuild).
#include <cstdint>

#include "sim/cuda/dem_thread_bodies.cuh"
#include "sim/cuda/list_control.h"
#include "sim/neighbour_list.h"

namespace plab::sim::cuda {

// Whether any particle moved past the rebuild distance; the last block to finish turns the
// request into this step's decision (a grid-wide reduction without a second launch).
__global__ void list_check_kernel(StepBuffers b, NeighbourList l, float rebuild_dist2,
                                  ListControl* ctl) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool moved = i < b.count && moved_past_skin(i, l, b, rebuild_dist2);
    const int any = __syncthreads_or(moved);
    if (threadIdx.x != 0) return;
    if (any) atomicOr(&ctl->request, 1u);
    __threadfence();  // the request is visible before this block counts as done
    if (atomicAdd(&ctl->blocks_done, 1u) != gridDim.x - 1) return;
    // The last block: every other block's request is in.
    __threadfence();
    const unsigned int rebuild = atomicExch(&ctl->request, 0u) != 0u ? 1u : 0u;
    ctl->rebuild = rebuild;
    ctl->blocks_done = 0;
    ctl->steps += 1;
    ctl->builds += rebuild;
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

}  // namespace plab::sim::cuda
