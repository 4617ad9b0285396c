#pragma once
// Deterministic mode (SimulatorOptions::deterministic): the counting sort's atomics give the
// particles of one cell their ranks in whatever order the threads arrive, so the force sums,
// which visit neighbours in cell order, add in an order that changes from run to run. After the
// scatter this pass puts each cell's particles in id order: the cell order, and with it every
// sum, then depends on the state alone. One thread per cell: cells hold a handful of particles
// (DEM about one, SPH about ten), so an insertion sort in place is the cheap choice.
#include <cstdint>

#include "sim/cuda/list_control.h"
#include "sim/physics/dem_step.h"

namespace plab::sim::cuda {

// Sorted memory: moves whole particles (S arrays) so that sorted_id rises inside the cell.
__device__ inline void order_cell_sorted(uint32_t first, uint32_t end, const StepBuffers& b) {
    for (uint32_t k = first + 1; k < end; ++k) {
        const uint32_t key = b.sorted_id[k];
        if (b.sorted_id[k - 1] < key) continue;  // ids are unique: already in place
        const Float4 pos = b.sorted_pos[k], vel = b.sorted_vel[k];
        Double4 pos_hi{}, vel_hi{};
        if (b.sorted_pos_hi) {
            pos_hi = b.sorted_pos_hi[k];
            vel_hi = b.sorted_vel_hi[k];
        }
        uint32_t m = k;
        for (; m > first && b.sorted_id[m - 1] > key; --m) {
            b.sorted_id[m] = b.sorted_id[m - 1];
            b.sorted_pos[m] = b.sorted_pos[m - 1];
            b.sorted_vel[m] = b.sorted_vel[m - 1];
            if (b.sorted_pos_hi) {
                b.sorted_pos_hi[m] = b.sorted_pos_hi[m - 1];
                b.sorted_vel_hi[m] = b.sorted_vel_hi[m - 1];
            }
        }
        b.sorted_id[m] = key;
        b.sorted_pos[m] = pos;
        b.sorted_vel[m] = vel;
        if (b.sorted_pos_hi) {
            b.sorted_pos_hi[m] = pos_hi;
            b.sorted_vel_hi[m] = vel_hi;
        }
    }
}

// Unsorted memory: sorted_id holds indices into A; they are ordered by the id they point at.
__device__ inline void order_cell_unsorted(uint32_t first, uint32_t end, const StepBuffers& b) {
    for (uint32_t k = first + 1; k < end; ++k) {
        const uint32_t index = b.sorted_id[k];
        const uint32_t key = b.id[index];
        uint32_t m = k;
        for (; m > first && b.id[b.sorted_id[m - 1]] > key; --m)
            b.sorted_id[m] = b.sorted_id[m - 1];
        b.sorted_id[m] = index;
    }
}

// `cells` cells of the grid the scatter used; `ctl` (neighbour lists) skips steps that do not
// rebuild, null otherwise.
template <Memory M>
__global__ void order_cells_by_id_kernel(StepBuffers b, uint32_t cells, const ListControl* ctl) {
    if (ctl != nullptr && !ctl->rebuild) return;
    for (uint32_t c = blockIdx.x * blockDim.x + threadIdx.x; c < cells;
         c += gridDim.x * blockDim.x) {
        const uint32_t first = b.cell_start[c], end = b.cell_start[c + 1];
        if (end - first < 2) continue;
        if constexpr (M == Memory::Sorted)
            order_cell_sorted(first, end, b);
        else
            order_cell_unsorted(first, end, b);
    }
}

}  // namespace plab::sim::cuda
