#pragma once
// The CUDA backend's uniform grid in device memory (sim/physics/dem_step.h): each particle's
// cell and rank in it, the per-cell counts and starts, and the scratch of the starts' scan.
// The grid's shape (GridSpec) is the caller's: this holds only its arrays. Private to sim/cuda.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "sim/cuda/device_buffer.h"

namespace plab::sim::cuda {

struct DeviceGrid {
    // Per particle: cell and slot (2 × 4 B) = 8 B. Per cell: count and start (2 × 4 B).
    static constexpr std::size_t kBytesPerParticle = 2 * sizeof(uint32_t);
    static constexpr std::size_t kBytesPerCell = 2 * sizeof(uint32_t);

    DeviceBuffer<uint32_t> cell, slot;  // per particle in A order
    // num_cells + 1 (the last entry stays 0), so the scan's end entry is the particle count.
    DeviceBuffer<uint32_t> cell_count, cell_start;
    DeviceBuffer<std::byte> scan_temp;  // CUB's scratch for the scan of `cell_count`

    // Bytes resize(n, cells) would add for `n` particles and `cells` entries (the grid's cells
    // + 1); resize grows every array to that (device_grid.cu).
    std::size_t growth_bytes(std::size_t n, std::size_t cells) const;
    void resize(std::size_t n, std::size_t cells);

    // Zeroes the first `cells` counts on `stream` (the hash then counts into them).
    void enqueue_zero_counts(uint32_t cells, cudaStream_t stream) {
        PLAB_CUDA_CHECK(cudaMemsetAsync(cell_count.data(), 0, cells * sizeof(uint32_t), stream));
    }
    // cell_start = the exclusive sum of the first `cells` counts, on `stream`.
    void enqueue_scan(uint32_t cells, cudaStream_t stream);
};

}  // namespace plab::sim::cuda
