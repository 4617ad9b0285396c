#pragma once
// The frictional contact law's pass on the CUDA backend: one thread per particle around the
// shared body of dem_frictional_step.h, reading the cell-ordered copy S (sorted memory) and
// writing the state A and the rotations; the CPU pass is CpuSimulator::frictional_pass.
#include <cstdint>

#include "sim/dem_frictional_step.h"
#include "sim/dem_step.h"
#include "sim/neighbour_list.h"

namespace plab::sim::cuda {

// At most 80 registers a thread: 106 left room for two blocks of 256 per multiprocessor, 80
// for three; the few spills cost less than the occupancy gains (H200, 1M particles: 0.737 →
// 0.706 ms with lists, 0.996 → 0.838 ms on the grid; a cap of 64 spills too much). nvcc 12.4
// and later know the attribute.
#if defined(__CUDACC_VER_MAJOR__) && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define PLAB_FRICTIONAL_REGISTERS __maxnreg__(80)
#else
#define PLAB_FRICTIONAL_REGISTERS
#endif

// Candidates from the neighbour lists (`Listed`, `list` active) or from the 27 cells of the
// grid `g`, exactly as the CPU pass does. Two kernels, not one with a branch: each then gets
// its own register allocation instead of the larger of the two (spill stores 240 B → 152 B
// with lists, 28 B on the grid; H200, 1M: 0.728 → 0.716 ms with lists, 1.012 → 0.915 ms on
// the grid).
template <bool Listed>
__global__ void PLAB_FRICTIONAL_REGISTERS frictional_kernel(StepBuffers b, FrictionBuffers f,
                                                            GridSpec g, Params p, Domain d,
                                                            NeighbourList list) {
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= b.count) return;
    if constexpr (Listed) {
        frictional_particle_step(i, b, f, p, d,
                                 [&](auto&& visit) { for_each_listed(i, list, b, g, visit); });
    } else {
        frictional_particle_step(i, b, f, p, d, [&](auto&& visit) {
            for_each_candidate(xyz(load(b.sorted_pos + i)), b, g, visit);
        });
    }
}

// Free slots (partner kFreeSlot, no stretch) in each of `n` particles' contact memory.
__global__ void clear_contact_memory_kernel(ContactMemory* memory, std::size_t n) {
    for (std::size_t k = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; k < n;
         k += std::size_t{gridDim.x} * blockDim.x)
        memory[k] = ContactMemory::free_slots();
}

}  // namespace plab::sim::cuda
