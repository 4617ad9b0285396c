// The neighbour lists of the CUDA backend (sim/neighbour_list.h): their buffers, the stages
// that replace the grid build and the reorder while they run, and what the host reads back.
#include <algorithm>
#include <string>

#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/cuda/list_kernels.cuh"
#include "sim/error.h"

namespace plab::sim::cuda {
namespace {

// Steps between copies of the control word to the host (a copy each step would cost a few
// microseconds of every step).
constexpr uint64_t kListPoll = 64;

}  // namespace

void CudaSimulator::Impl::reset_lists(const Params& params) {
    list_grid = sim::list_grid(domain, grid, params);
    list_geometry_ = list_geometry(params);
    list_slots = list_slots_requested > 0 ? list_slots_requested : initial_list_slots(params);
    list_overflow_seen = 0;
    list_last_seen = {};
    list_was_on = false;
    list_step_calls = 0;
    if (list_control.size() == 0) list_control.resize(1);
    list_mirror.resize(1);
    if (list_mirror_pending) {
        PLAB_CUDA_CHECK(cudaEventSynchronize(list_mirror_ready.get()));
        list_mirror_pending = false;
    }
    PLAB_CUDA_CHECK(cudaMemsetAsync(list_control.data(), 0, sizeof(ListControl), stream.get()));
    if (options.neighbour_list) reserve_lists();
    request_list_build();
}

void CudaSimulator::Impl::reserve_lists() {
    const std::size_t n = count;
    const std::size_t slots = list_stored_slots(list_slots);
    const std::size_t growth =
        list_index.growth_bytes(n * slots) + list_count.growth_bytes(n) + list_ref.growth_bytes(n);
    require_free_device_memory(growth,
                               "neighbour lists of " + std::to_string(slots) + " entries for " +
                                   std::to_string(n) + " particles",
                               slots * sizeof(uint32_t) + sizeof(uint32_t) + sizeof(Float4));
    if (growth == 0) return;
    sync();
    graph.reset();  // it captured the old buffers
    const bool fresh_ref = list_ref.size() < n;
    list_index.resize(n * slots);
    list_count.resize(n);
    list_ref.resize(n);
    // Read by the first check before any build writes it (that step rebuilds regardless).
    if (fresh_ref)
        PLAB_CUDA_CHECK(cudaMemsetAsync(list_ref.data(), 0, n * sizeof(Float4), stream.get()));
}

void CudaSimulator::Impl::request_list_build() {
    if (list_control.size() == 0) return;
    // Any non-zero byte pattern is a request.
    PLAB_CUDA_CHECK(
        cudaMemsetAsync(&list_control.data()->request, 1, sizeof(unsigned int), stream.get()));
}

void CudaSimulator::Impl::prepare_list_step(const Params& p) {
    if (!listed()) {
        list_was_on = false;
        stray_limit_now = 0;
        return;
    }
    prepare_strays(p);
    if (!list_was_on) {
        // Off until now: the order and the lists are stale (or were never built).
        reserve_lists();
        request_list_build();
        list_was_on = true;
    }
    const cudaError_t arrived =
        list_mirror_pending ? cudaEventQuery(list_mirror_ready.get()) : cudaErrorNotReady;
    if (arrived != cudaErrorNotReady) PLAB_CUDA_CHECK(arrived);
    if (list_mirror_pending && arrived == cudaSuccess) {
        list_mirror_pending = false;
        take_list_report(*list_mirror.data());
    }
    if (!list_mirror_pending && ++list_step_calls % kListPoll == 0) {
        PLAB_CUDA_CHECK(cudaMemcpyAsync(list_mirror.data(), list_control.data(),
                                        sizeof(ListControl), cudaMemcpyDeviceToHost, stream.get()));
        PLAB_CUDA_CHECK(cudaEventRecord(list_mirror_ready.get(), stream.get()));
        list_mirror_pending = true;
    }
}

void CudaSimulator::Impl::prepare_strays(const Params& p) {
    const uint32_t limit = stray_limit(options.list_strays, count, p);
    if (limit == 0) {
        stray_limit_now = 0;
        return;
    }
    const std::size_t growth = stray_index.growth_bytes(limit) +
                               stray_repair.growth_bytes(repair_slots(limit)) +
                               stray_queued.growth_bytes(count);
    if (growth > 0) {
        require_free_device_memory(growth, "the neighbour lists' strays", 0);
        sync();
        graph.reset();  // it captured the old buffers
        stray_index.resize(limit);
        stray_repair.resize(repair_slots(limit));
        if (stray_queued.growth_bytes(count) > 0) {
            stray_queued.resize(count);
            // The marks start clear; each repair clears its own again.
            PLAB_CUDA_CHECK(
                cudaMemsetAsync(stray_queued.data(), 0, count * sizeof(uint32_t), stream.get()));
        }
    }
    stray_limit_now = limit;
}

void CudaSimulator::Impl::enqueue_stray_repair(const Params& p) {
    // The frictional pass finds its strays' contacts itself (enqueue_frictional).
    if (!listed() || stray_limit_now == 0 || count == 0 || runs_frictional_law(p)) return;
    cudaStream_t s = stream.get();
    const int block = options.block_size;
    stray_queue_kernel<<<blocks_for(stray_limit_now, block), block, 0, s>>>(
        views(), list_grid, p, list_view(), stray_view(), list_geometry_.rebuild_dist2,
        list_control.data());
    check_launch();
    // As many threads as the default queue holds (the repair loops over more).
    const uint32_t threads = std::min<uint32_t>(stray_repair_slots(stray_limit_now), count);
    stray_repair_kernel<<<blocks_for(threads, block), block, 0, s>>>(
        views(), list_grid, p, domain, list_view(), stray_view(), list_geometry_.rebuild_dist2,
        list_control.data());
    check_launch();
}

void CudaSimulator::Impl::take_list_report(const ListControl& seen) {
    list_last_seen = seen;
    if (seen.overflowed <= list_overflow_seen) return;
    list_overflow_seen = seen.overflowed;
    const uint32_t wanted = grown_list_slots(seen.most_found);
    if (!list_grow || wanted <= list_slots) return;
    list_slots = wanted;
    reserve_lists();
    graph.reset();  // the slot count is a kernel argument
    request_list_build();
}

void CudaSimulator::Impl::enqueue_list_grid() {
    cudaStream_t s = stream.get();
    const int block = options.block_size;
    list_check_kernel<<<blocks_for(count, block), block, 0, s>>>(
        views(), list_view(), list_geometry_.rebuild_dist2, stray_view(), list_control.data());
    check_launch();
    const uint32_t cells = list_grid.num_cells() + 1;
    list_zero_counts_kernel<<<std::min(blocks_for(cells, block), 1024u), block, 0, s>>>(
        cell_count.data(), cells, list_control.data());
    check_launch();
    list_hash_count_kernel<<<blocks_for(count, block), block, 0, s>>>(views(), list_grid,
                                                                      list_control.data());
    check_launch();
}

void CudaSimulator::Impl::enqueue_list_reorder() {
    cudaStream_t s = stream.get();
    const int block = options.block_size;
    list_scatter_kernel<<<blocks_for(count, block), block, 0, s>>>(views(), list_control.data());
    check_launch();
    if (options.deterministic) enqueue_cell_order(list_grid.num_cells(), list_control.data());
    list_build_kernel<<<blocks_for(count, block), block, 0, s>>>(
        views(), list_grid, list_view(), list_geometry_.cutoff2, list_control.data());
    check_launch();
}

NeighbourListStats CudaSimulator::Impl::read_list_stats() {
    NeighbourListStats out;
    out.active = listed();
    out.slots = list_slots;
    if (list_control.size() == 0) return out;
    ListControl c{};
    PLAB_CUDA_CHECK(
        cudaMemcpyAsync(&c, list_control.data(), sizeof c, cudaMemcpyDeviceToHost, stream.get()));
    sync();
    // An exact report: an overflow grows the slots now (the next step builds with them).
    if (listed()) take_list_report(c);
    out.slots = list_slots;
    out.steps = c.steps;
    out.builds = c.builds;
    out.overflowed = c.overflowed;
    out.moved = c.moved_total;
    out.strays = c.stray_total;
    out.repaired = c.repaired_total;
    return out;
}

NeighbourListStats CudaSimulator::list_stats() { return impl_->read_list_stats(); }

NeighbourListStats CudaSimulator::recent_list_stats() const {
    const Impl& m = *impl_;
    NeighbourListStats out;
    out.active = m.listed();
    out.slots = m.list_slots;
    out.steps = m.list_last_seen.steps;
    out.builds = m.list_last_seen.builds;
    out.overflowed = m.list_last_seen.overflowed;
    out.moved = m.list_last_seen.moved_total;
    out.strays = m.list_last_seen.stray_total;
    out.repaired = m.list_last_seen.repaired_total;
    return out;
}

void CudaSimulator::set_stray_repair_slots(uint32_t slots) {
    Impl& m = *impl_;
    m.sync();
    m.graph.reset();  // the slots are a kernel argument
    m.stray_repair_slots_set = slots;
}

void CudaSimulator::set_list_slots(uint32_t slots, bool grow) {
    Impl& m = *impl_;
    m.list_slots_requested = slots;
    m.list_grow = grow;
    if (slots > 0) m.list_slots = slots;
    m.sync();
    m.graph.reset();
    if (m.options.neighbour_list && m.count > 0) m.reserve_lists();
    m.request_list_build();
}

}  // namespace plab::sim::cuda
