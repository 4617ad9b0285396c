#pragma once
// The frictional contact law's pass on the CUDA backend: one thread per particle around the
// shared body of dem_frictional_step.h, reading the cell-ordered copy S (sorted memory) and
// writing the state A and the rotations; the CPU pass is CpuSimulator::frictional_pass.
#include <cstddef>
#include <cstdint>

#include "sim/cuda/list_control.h"
#include "sim/physics/dem_frictional_step.h"
#include "sim/physics/dem_step.h"
#include "sim/physics/list_strays.h"
#include "sim/physics/neighbour_list.h"

namespace plab::sim::cuda {

// At most 80 registers a thread: 106 left room for two blocks of 256 per multiprocessor, 80
// for three; the few spills cost less than the occupancy gains (H200, 1M particles: 0.737 →
// 0.706 ms with lists, 0.996 → 0.838 ms on the grid). Fewer spill more than they gain (the
// same H200, blocks of 256, grid / lists: 80 registers 0.672 / 0.750 ms, 72 0.739 / 0.822,
// 64 0.767 / 0.883; blocks of 128 alike). nvcc 12.4 and later know the attribute; the cap can
// be set at configure time for such a comparison (CMAKE_CUDA_FLAGS=
// -DPLAB_FRICTIONAL_MAX_REGISTERS=72).
#ifndef PLAB_FRICTIONAL_MAX_REGISTERS
#define PLAB_FRICTIONAL_MAX_REGISTERS 80
#endif
#if defined(__CUDACC_VER_MAJOR__) && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define PLAB_FRICTIONAL_REGISTERS __maxnreg__(PLAB_FRICTIONAL_MAX_REGISTERS)
#else
#define PLAB_FRICTIONAL_REGISTERS
#endif

// Touching neighbours one thread lists in shared memory at a time (frictional_kernel).
inline constexpr int kTouchingListed = 12;

// Shared memory frictional_kernel needs for a block of `threads`.
inline std::size_t frictional_shared_bytes(int threads) {
    return std::size_t{kTouchingListed} * sizeof(uint32_t) * static_cast<std::size_t>(threads);
}

// The candidates of particle i that touch it, in the order `all(visit)` offers them: first
// found with a distance test per candidate and listed in shared memory (`listed`, this
// thread's first entry, entries `stride` apart), kTouchingListed at a time, then visited. In
// one pass a warp runs the long contact law whenever any of its lanes touches, i.e. on nearly
// every candidate; listed, about as often as a lane has contacts. The contact law sees the
// same contacts in the same order as without the list (the pass skips the others with the
// same test). A particle touching more than kTouchingListed is listed again from where it
// stopped. H200, 1M beads: 0.907 → 0.646 ms a step on the grid (48 candidates, 9.5
// touching); with the neighbour lists (their candidates already within reach plus the skin)
// 0.707 → 0.709.
template <typename All, typename Visit>
__device__ inline void for_each_touching(uint32_t i, const StepBuffers& b, float reach2, All&& all,
                                         uint32_t* listed, int stride, Visit&& visit) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    for (int skip = 0;; skip += kTouchingListed) {
        int found = 0, n = 0;
        all([&](uint32_t j) {
            if (j == i || length_squared(xyz(load(b.sorted_pos + j)) - pos) >= reach2) return;
            if (found++ < skip || n == kTouchingListed) return;
            listed[n++ * stride] = j;
        });
        for (int k = 0; k < n; ++k) visit(listed[k * stride]);
        if (found <= skip + kTouchingListed) return;
    }
}

// Where the pass takes each particle's candidates from: the 27 cells of the grid; the
// neighbour lists; or the lists on a step that keeps them with strays (ListControl::strays,
// listed in `strays.index`), whose contacts the pass then finds itself (sim/physics/list_strays.h).
enum class FrictionalSource { Grid, Lists, ListsWithStrays };

// Candidates from `Source`, exactly as the CPU pass takes them, through for_each_touching
// (dynamic shared memory: frictional_shared_bytes). A kernel for each source, not one with a
// branch: each then gets its own register allocation instead of the largest of them (grid and
// lists: spill stores 240 B → 152 B with lists, 28 B on the grid; H200, 1M: 0.728 → 0.716 ms
// with lists, 1.012 → 0.915 ms on the grid). With strays allowed both list kernels are
// launched every step and the one that does not match the step's stray count returns at once.
// kBodies: the scene has geometry bodies (frictional_particle_sums).
template <FrictionalSource Source, bool kBodies>
__global__ void PLAB_FRICTIONAL_REGISTERS frictional_kernel(StepBuffers b, FrictionBuffers f,
                                                            GridSpec g, Params p, Domain d,
                                                            NeighbourList list, StrayList strays,
                                                            float rebuild_dist2,
                                                            const ListControl* ctl) {
    extern __shared__ uint32_t touching[];
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    uint32_t stray_count = 0;
    if constexpr (Source != FrictionalSource::Grid) {
        if (ctl) stray_count = ctl->strays;  // 0 on a build; no control: strays not allowed
        if ((stray_count > 0) != (Source == FrictionalSource::ListsWithStrays)) return;
    }
    // The largest beads' reach: a superset for beads of different sizes, whose pairs the law
    // then tests with their own radii.
    const float range = interaction_range(p);
    const float reach2 = range * range;
    auto all = [&](auto&& visit) {
        if constexpr (Source == FrictionalSource::Grid)
            for_each_candidate(xyz(load(b.sorted_pos + i)), b, g, visit);
        else if constexpr (Source == FrictionalSource::Lists)
            for_each_listed(i, list, b, g, visit);
        else
            for_each_candidate_with_strays(i, list, b, g, strays.index, stray_count, reach2,
                                           rebuild_dist2, visit);
    };
    frictional_particle_step<kBodies>(i, b, f, p, d, [&](auto&& visit) {
        for_each_touching(i, b, reach2, all, touching + threadIdx.x, blockDim.x, visit);
    });
}

// Free slots (partner kFreeSlot, no stretch) in each of `n` particles' contact memory.
__global__ void clear_contact_memory_kernel(ContactMemory* memory, std::size_t n) {
    for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k < n;
         k += std::size_t{gridDim.x} * blockDim.x)
        memory[k] = ContactMemory::free_slots();
}

}  // namespace plab::sim::cuda
