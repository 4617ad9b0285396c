// The neighbour lists of the CUDA backend (sim/physics/neighbour_list.h): the stages that
// replace the grid build and the reorder while they run, and what the host reads back. Their
// memory is DeviceNeighbourLists (device_neighbour_lists.h).
#include <algorithm>

#include "sim/core/error.h"
#include "sim/cuda/cuda_simulator_impl.cuh"
#include "sim/cuda/list_kernels.cuh"

namespace plab::sim::cuda {

void CudaSimulator::Impl::reset_lists(const Params& params) {
    lists.reset(domain, grid, params, stream.get());
    if (options.neighbour_list) reserve_lists();
    lists.request_build(stream.get());
}

void CudaSimulator::Impl::reserve_lists() {
    if (lists.reserve(count, stream.get())) graph.reset();  // it captured the old buffers
    if (clustered() && lists.reserve_clusters(count, stream.get())) graph.reset();
}

void CudaSimulator::Impl::prepare_list_step(const Params& p) {
    if (!listed()) {
        lists.was_on = false;
        lists.stray_limit_now = 0;
        return;
    }
    prepare_strays(p);
    if (!lists.was_on) {
        // Off until now: the order and the lists are stale (or were never built).
        reserve_lists();
        lists.request_build(stream.get());
        lists.was_on = true;
    }
    if (clustered() && !lists.clusters_were_on) {  // switched on: built at this step
        reserve_lists();
        lists.request_build(stream.get());
    }
    lists.clusters_were_on = clustered();
    if (const ListControl* seen = lists.arrived_copy()) take_list_report(*seen);
    lists.poll(stream.get());
}

void CudaSimulator::Impl::prepare_strays(const Params& p) {
    const uint32_t limit = stray_limit(options.list_strays, count, p);
    if (limit > 0 && lists.reserve_strays(limit, count, stream.get()))
        graph.reset();  // it captured the old buffers
    lists.stray_limit_now = limit;
}

void CudaSimulator::Impl::enqueue_stray_repair(const Params& p) {
    // The frictional pass finds its strays' contacts itself (enqueue_frictional).
    if (!listed() || lists.stray_limit_now == 0 || count == 0 || runs_frictional_law(p)) return;
    cudaStream_t s = stream.get();
    const int block = options.block_size;
    stray_queue_kernel<<<blocks_for(lists.stray_limit_now, block), block, 0, s>>>(
        views(), lists.grid, p, list_view(), lists.stray_view(), lists.geometry.rebuild_dist2,
        lists.control.data());
    check_launch();
    // As many threads as the default queue holds (the repair loops over more).
    const uint32_t threads = std::min<uint32_t>(stray_repair_slots(lists.stray_limit_now), count);
    stray_repair_kernel<<<blocks_for(threads, block), block, 0, s>>>(
        views(), lists.grid, p, domain, list_view(), lists.stray_view(),
        lists.geometry.rebuild_dist2, lists.control.data());
    check_launch();
}

void CudaSimulator::Impl::take_list_report(const ListControl& seen) {
    lists.last_seen = seen;
    if (seen.cluster_overflowed > lists.cluster_overflow_seen) {
        lists.cluster_overflow_seen = seen.cluster_overflowed;
        const uint32_t wanted = grown_cluster_slots(seen.cluster_most_found);
        if (lists.grow && wanted > lists.cluster_slots) {
            lists.cluster_slots = wanted;
            reserve_lists();
            graph.reset();  // the cluster slots are a kernel argument
            lists.request_build(stream.get());
        }
    }
    if (seen.overflowed <= lists.overflow_seen) return;
    lists.overflow_seen = seen.overflowed;
    const uint32_t wanted = grown_list_slots(seen.most_found);
    if (!lists.grow || wanted <= lists.slots) return;
    lists.slots = wanted;
    reserve_lists();
    graph.reset();  // the slot count is a kernel argument
    lists.request_build(stream.get());
}

void CudaSimulator::Impl::enqueue_list_grid() {
    cudaStream_t s = stream.get();
    const int block = options.block_size;
    list_check_kernel<<<blocks_for(count, block), block, 0, s>>>(
        views(), list_view(), lists.geometry.rebuild_dist2, lists.stray_view(),
        lists.control.data());
    check_launch();
    const uint32_t cells = lists.grid.num_cells() + 1;
    list_zero_counts_kernel<<<std::min(blocks_for(cells, block), 1024u), block, 0, s>>>(
        grid_arrays.cell_count.data(), cells, lists.control.data());
    check_launch();
    list_hash_count_kernel<<<blocks_for(count, block), block, 0, s>>>(views(), lists.grid,
                                                                      lists.control.data());
    check_launch();
}

void CudaSimulator::Impl::enqueue_list_reorder() {
    cudaStream_t s = stream.get();
    const int block = options.block_size;
    list_scatter_kernel<<<blocks_for(count, block), block, 0, s>>>(views(), lists.control.data());
    check_launch();
    if (options.deterministic) enqueue_cell_order(lists.grid.num_cells(), lists.control.data());
    list_build_kernel<<<blocks_for(count, block), block, 0, s>>>(
        views(), lists.grid, list_view(), lists.geometry.cutoff2, lists.control.data());
    check_launch();
    if (!clustered()) return;
    const ClusterPairs cp = cluster_view();
    cluster_build_kernel<<<blocks_for(cp.clusters, block), block, 0, s>>>(list_view(), cp, count,
                                                                          lists.control.data());
    check_launch();
}

NeighbourListStats CudaSimulator::Impl::read_list_stats() {
    NeighbourListStats out;
    out.active = listed();
    out.slots = lists.slots;
    if (lists.control.size() == 0) return out;
    const ListControl c = lists.download_control(stream.get());
    // An exact report: an overflow grows the slots now (the next step builds with them).
    if (listed()) take_list_report(c);
    NeighbourListStats stats = lists.stats_of(c, listed());
    stats.cluster_slots = clustered() ? lists.cluster_slots : 0;
    return stats;
}

NeighbourListStats CudaSimulator::list_stats() { return impl_->read_list_stats(); }

NeighbourListStats CudaSimulator::recent_list_stats() const {
    const Impl& m = *impl_;
    NeighbourListStats stats = m.lists.recent_stats(m.listed());
    stats.cluster_slots = m.clustered() ? m.lists.cluster_slots : 0;
    return stats;
}

void CudaSimulator::set_stray_repair_slots(uint32_t slots) {
    Impl& m = *impl_;
    m.sync();
    m.graph.reset();  // the slots are a kernel argument
    m.lists.stray_repair_slots_set = slots;
}

void CudaSimulator::set_list_slots(uint32_t slots, bool grow) {
    Impl& m = *impl_;
    m.lists.slots_requested = slots;
    m.lists.grow = grow;
    if (slots > 0) m.lists.slots = slots;
    m.sync();
    m.graph.reset();
    if (m.options.neighbour_list && m.count > 0) m.reserve_lists();
    m.lists.request_build(m.stream.get());
}

}  // namespace plab::sim::cuda
