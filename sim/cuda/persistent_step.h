#pragma once
// The whole DEM step as one persistent cooperative kernel (SimulatorOptions::persistent_kernel):
// as many blocks as fit on the GPU at once, each looping over its share of every stage, with
// a grid-wide sync between the stages instead of a kernel launch. Private to sim/cuda.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/cuda/device_buffer.h"
#include "sim/engine/simulator.h"
#include "sim/physics/dem_step.h"

namespace plab::sim::cuda {

// Cells per tile of the in-kernel exclusive scan: one block scans a tile, then one block scans
// the tile totals, so the second pass stays short (512 totals for a 1M-cell grid).
inline constexpr uint32_t kScanTile = 2048;

class PersistentStep {
  public:
    // Empty when `options` can run as one persistent kernel for `model` on `device`,
    // otherwise why not (a sentence the panel and bench show). Asks the device once.
    std::string unavailable_reason(int device, const SimulatorOptions& options, Model model,
                                   Memory memory);

    // Bytes reserve(cells) would add; reserve grows the scan's tile totals for `cells` grid
    // cells (+1 for the end entry), never in a step.
    std::size_t growth_bytes(std::size_t cells) const;
    void reserve(std::size_t cells);
    bool reserved_for(std::size_t cells) const { return tile_sums_.size() >= tiles(cells); }

    // Enqueues one step on `stream`. Call only after unavailable_reason(...) returned "" for the
    // same options and memory layout. `group` is the force pass's threads per particle.
    void enqueue(const StepBuffers& b, const GridSpec& g, const Params& p, const Domain& d,
                 const SimulatorOptions& options, Memory memory, int group, cudaStream_t stream);

    // Blocks of the last launch (co-resident blocks per SM × SMs).
    int grid_blocks() const { return fit_.blocks_per_sm * sms_; }

  private:
    static std::size_t tiles(std::size_t cells) { return (cells + 1 + kScanTile - 1) / kScanTile; }
    // Occupancy of the kernel instance for one block size and shared-memory size, cached.
    struct Fit {
        int block = 0;
        std::size_t shared = 0;
        Memory memory = Memory::Sorted;
        int blocks_per_sm = 0;
    };
    const Fit& fit(const SimulatorOptions& options, Memory memory);

    int device_ = -1;
    bool cooperative_ = false;  // cudaDevAttrCooperativeLaunch
    int sms_ = 0;
    Fit fit_;
    DeviceBuffer<uint32_t> tile_sums_;
};

}  // namespace plab::sim::cuda
