// The persistent step: one cooperative kernel runs a whole DEM step, stage after stage, with a
// grid-wide sync between them. Each stage is a grid-stride loop over the per-thread bodies the
// per-stage kernels use (dem_thread_bodies.cuh), so the physics is the same code.
//
// This kernel writes arrays and reads them again after a grid sync (the cell starts, the
// sorted copy), which the read-only cache must not see: hence plain loads (dem_step.h).
#define PLAB_COHERENT_LOADS 1

#include <cooperative_groups.h>

#include <string>

#include "sim/core/error.h"
#include "sim/cuda/cuda_check.h"
#include "sim/cuda/dem_thread_bodies.cuh"
#include "sim/cuda/persistent_step.h"
#include "sim/physics/dem_step.h"

namespace plab::sim::cuda {
namespace {

namespace cg = cooperative_groups;

struct PersistentArgs {
    StepBuffers b;
    GridSpec g;
    Params p;
    Domain d;
    uint32_t* tile_sums;  // one per kScanTile cells
    uint32_t cells;       // grid cells + 1 (the end entry, whose count stays 0)
    uint32_t tiles;
    int group;    // force threads per particle
    bool fused;   // drift in the force stage (sorted memory only)
    bool listed;  // contact list in dynamic shared memory
};

// Exclusive prefix sum over the block of one value per thread: an inclusive scan inside each
// warp by shuffles, the warp totals scanned by the first warp through shared memory, and each
// warp's offset added. Sets *total to the block's sum. Every thread of the block must call it.
__device__ uint32_t block_exclusive_scan(uint32_t value, uint32_t* total) {
    __shared__ uint32_t warp_sums[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int warps = blockDim.x >> 5;  // block sizes are multiples of 32
    uint32_t x = value;
    for (int offset = 1; offset < 32; offset <<= 1) {
        const uint32_t y = __shfl_up_sync(0xffffffffu, x, offset);
        if (lane >= offset) x += y;
    }
    if (lane == 31) warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        uint32_t w = lane < warps ? warp_sums[lane] : 0;
        for (int offset = 1; offset < 32; offset <<= 1) {
            const uint32_t y = __shfl_up_sync(0xffffffffu, w, offset);
            if (lane >= offset) w += y;
        }
        warp_sums[lane] = w;  // now the inclusive sum of warps 0..lane
    }
    __syncthreads();
    const uint32_t warp_offset = warp == 0 ? 0 : warp_sums[warp - 1];
    *total = warp_sums[warps - 1];
    __syncthreads();  // warp_sums is reused by the next call
    return warp_offset + x - value;
}

// One block: exclusive scan of in[0, n) into out[0, n), blockDim.x values at a time with the
// running sum carried from chunk to chunk; returns the sum of all n. `out` may be `in` (each
// thread reads its value before the block scan and writes only that element after it).
__device__ uint32_t block_scan_range(const uint32_t* in, uint32_t* out, uint32_t n) {
    uint32_t carry = 0;
    for (uint32_t base = 0; base < n; base += blockDim.x) {
        const uint32_t k = base + threadIdx.x;
        const uint32_t v = k < n ? in[k] : 0u;
        uint32_t chunk_total = 0;
        const uint32_t prefix = block_exclusive_scan(v, &chunk_total);
        if (k < n) out[k] = carry + prefix;
        carry += chunk_total;
    }
    return carry;
}

// The stages are the ones the per-stage launches run (cuda_simulator.cu), in the same order:
// zero counts | hash + count | scan (tiles, tile totals, add back) | scatter | forces [+ drift]
// [| drift]. Each `grid.sync()` is where a kernel boundary would be.
template <Memory M>
__global__ void persistent_step_kernel(PersistentArgs a) {
    extern __shared__ uint32_t contact_slots[];
    const cg::grid_group grid = cg::this_grid();
    const uint32_t first = static_cast<uint32_t>(grid.thread_rank());
    const uint32_t stride = static_cast<uint32_t>(grid.size());
    const StepBuffers& b = a.b;

    for (uint32_t c = first; c < a.cells; c += stride) b.cell_count[c] = 0;
    grid.sync();

    for (uint32_t i = first; i < b.count; i += stride) hash_count_particle(i, b, a.g);
    grid.sync();

    // Scan, 1 of 3: every tile of kScanTile cells scanned by one block on its own (offsets
    // within the tile), its sum kept as the tile total.
    for (uint32_t tile = blockIdx.x; tile < a.tiles; tile += gridDim.x) {
        const uint32_t begin = tile * kScanTile;
        const uint32_t n = min(kScanTile, a.cells - begin);
        const uint32_t sum = block_scan_range(b.cell_count + begin, b.cell_start + begin, n);
        if (threadIdx.x == 0) a.tile_sums[tile] = sum;
    }
    grid.sync();
    // 2 of 3: one block turns the tile totals into each tile's offset (their exclusive scan).
    if (blockIdx.x == 0) block_scan_range(a.tile_sums, a.tile_sums, a.tiles);
    grid.sync();
    // 3 of 3: every cell past the first tile adds its tile's offset.
    for (uint32_t c = kScanTile + first; c < a.cells; c += stride)
        b.cell_start[c] += a.tile_sums[c / kScanTile];
    grid.sync();

    for (uint32_t i = first; i < b.count; i += stride) scatter_particle<M>(i, b);
    grid.sync();

    // Forces: whole warps go round the loop together (the group's shuffles need every lane),
    // so the bound is rounded up to a warp; the stride is a whole number of warps.
    const uint32_t force_threads = (b.count * static_cast<uint32_t>(a.group) + 31u) & ~31u;
    for (uint32_t t = first; t < force_threads; t += stride)
        force_thread<M>(t, b, a.g, a.p, a.d, a.group, a.fused, a.listed,
                        contact_slots + threadIdx.x, blockDim.x);
    if (a.fused) return;
    grid.sync();

    for (uint32_t i = first; i < b.count; i += stride) dem_drift_particle<M>(i, b, a.p, a.d);
}

void* kernel_for(Memory m) {
    return m == Memory::Sorted ? reinterpret_cast<void*>(persistent_step_kernel<Memory::Sorted>)
                               : reinterpret_cast<void*>(persistent_step_kernel<Memory::Unsorted>);
}

}  // namespace

std::string PersistentStep::unavailable_reason(int device, const SimulatorOptions& o, Model model,
                                               Memory memory) {
    if (model != Model::Dem)
        return "the persistent kernel runs the DEM step only; the " +
               std::string(model_name(model)) + " model uses the per-stage launches";
    if (o.scatter_forces)
        return "the persistent kernel computes the gather form of the forces; scatter forces "
               "use the per-stage launches";
    if (device != device_) {
        int coop = 0;
        PLAB_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
        PLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
        cooperative_ = coop != 0;
        device_ = device;
        fit_ = {};
    }
    if (!cooperative_)
        return "this GPU does not support cooperative launches (cudaDevAttrCooperativeLaunch), "
               "which the grid-wide syncs of the persistent kernel need";
    if (fit(o, memory).blocks_per_sm == 0)
        return "no block of " + std::to_string(o.block_size) +
               " threads of the persistent kernel fits on an SM (registers or shared memory)";
    return {};
}

const PersistentStep::Fit& PersistentStep::fit(const SimulatorOptions& o, Memory memory) {
    const std::size_t shared = contact_list_bytes(o.contact_list, o.block_size);
    if (fit_.block != o.block_size || fit_.shared != shared || fit_.memory != memory) {
        int blocks = 0;
        PLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_for(memory),
                                                                      o.block_size, shared));
        fit_ = {o.block_size, shared, memory, blocks};
    }
    return fit_;
}

std::size_t PersistentStep::growth_bytes(std::size_t cells) const {
    return tile_sums_.growth_bytes(tiles(cells));
}

void PersistentStep::reserve(std::size_t cells) { tile_sums_.resize(tiles(cells)); }

void PersistentStep::enqueue(const StepBuffers& b, const GridSpec& g, const Params& p,
                             const Domain& d, const SimulatorOptions& o, Memory memory, int group,
                             cudaStream_t stream) {
    const uint32_t cells = g.num_cells() + 1;
    PersistentArgs a{b,
                     g,
                     p,
                     d,
                     tile_sums_.data(),
                     cells,
                     static_cast<uint32_t>(tiles(cells - 1)),
                     group,
                     o.fuse_integrate && memory == Memory::Sorted,
                     o.contact_list};
    PLAB_REQUIRE(tile_sums_.size() >= a.tiles, "persistent step: scan buffer not reserved");
    const Fit& f = fit(o, memory);
    // Every block must be resident at once for grid.sync(): exactly what fits, no more.
    const dim3 blocks(static_cast<unsigned>(f.blocks_per_sm * sms_));
    void* args[] = {&a};
    PLAB_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel_for(memory), blocks,
                                                dim3(static_cast<unsigned>(o.block_size)), args,
                                                f.shared, stream));
}

}  // namespace plab::sim::cuda
