// The CUDA neighbour lists' memory, their control word's resets and copies to the host.
#include "sim/cuda/device_neighbour_lists.h"

#include <string>

#include "sim/cuda/cuda_check.h"

namespace plab::sim::cuda {
namespace {

// Steps between copies of the control word to the host (a copy each step would cost a few
// microseconds of every step).
constexpr uint64_t kListPoll = 64;

}  // namespace

void DeviceNeighbourLists::reset(const Domain& domain, const GridSpec& scene_grid,
                                 const Params& params, cudaStream_t stream) {
    grid = sim::list_grid(domain, scene_grid, params);
    geometry = list_geometry(params);
    slots = slots_requested > 0 ? slots_requested : initial_list_slots(params);
    cluster_slots = initial_cluster_slots(params);
    cluster_overflow_seen = 0;
    clusters_were_on = false;
    overflow_seen = 0;
    last_seen = {};
    was_on = false;
    step_calls = 0;
    if (control.size() == 0) control.resize(1);
    mirror.resize(1);
    if (mirror_pending) {
        PLAB_CUDA_CHECK(cudaEventSynchronize(mirror_ready.get()));
        mirror_pending = false;
    }
    PLAB_CUDA_CHECK(cudaMemsetAsync(control.data(), 0, sizeof(ListControl), stream));
}

bool DeviceNeighbourLists::reserve(std::size_t n, cudaStream_t stream) {
    const std::size_t stored = list_stored_slots(slots);
    const std::size_t growth =
        index.growth_bytes(n * stored) + count.growth_bytes(n) + ref.growth_bytes(n);
    require_free_device_memory(growth,
                               "neighbour lists of " + std::to_string(stored) + " entries for " +
                                   std::to_string(n) + " particles",
                               stored * sizeof(uint32_t) + sizeof(uint32_t) + sizeof(Float4));
    if (growth == 0) return false;
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old buffers are freed
    const bool fresh_ref = ref.size() < n;
    index.resize(n * stored);
    count.resize(n);
    ref.resize(n);
    // Read by the first check before any build writes it (that step rebuilds regardless).
    if (fresh_ref) PLAB_CUDA_CHECK(cudaMemsetAsync(ref.data(), 0, n * sizeof(Float4), stream));
    return true;
}

bool DeviceNeighbourLists::reserve_clusters(std::size_t n, cudaStream_t stream) {
    const std::size_t clusters = cluster_count(static_cast<uint32_t>(n));
    const std::size_t growth =
        cluster_index.growth_bytes(clusters * cluster_slots) + cluster_found.growth_bytes(clusters);
    require_free_device_memory(growth,
                               "cluster pairs of " + std::to_string(cluster_slots) +
                                   " neighbour clusters for " + std::to_string(clusters) +
                                   " clusters",
                               (cluster_slots + 1) * sizeof(uint32_t) / kClusterSize);
    if (growth == 0) return false;
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old buffers are freed
    cluster_index.resize(clusters * cluster_slots);
    cluster_found.resize(clusters);
    return true;
}

void DeviceNeighbourLists::request_build(cudaStream_t stream) {
    if (control.size() == 0) return;
    // Any non-zero byte pattern is a request.
    PLAB_CUDA_CHECK(cudaMemsetAsync(&control.data()->request, 1, sizeof(unsigned int), stream));
}

bool DeviceNeighbourLists::reserve_strays(uint32_t limit, std::size_t n, cudaStream_t stream) {
    const std::size_t growth = stray_index.growth_bytes(limit) +
                               stray_repair.growth_bytes(repair_slots(limit)) +
                               stray_queued.growth_bytes(n);
    if (growth == 0) return false;
    require_free_device_memory(growth, "the neighbour lists' strays", 0);
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old buffers are freed
    stray_index.resize(limit);
    stray_repair.resize(repair_slots(limit));
    if (stray_queued.growth_bytes(n) > 0) {
        stray_queued.resize(n);
        // The marks start clear; each repair clears its own again.
        PLAB_CUDA_CHECK(cudaMemsetAsync(stray_queued.data(), 0, n * sizeof(uint32_t), stream));
    }
    return true;
}

const ListControl* DeviceNeighbourLists::arrived_copy() {
    const cudaError_t arrived =
        mirror_pending ? cudaEventQuery(mirror_ready.get()) : cudaErrorNotReady;
    if (arrived != cudaErrorNotReady) PLAB_CUDA_CHECK(arrived);
    if (!mirror_pending || arrived != cudaSuccess) return nullptr;
    mirror_pending = false;
    return mirror.data();
}

void DeviceNeighbourLists::poll(cudaStream_t stream) {
    if (mirror_pending || ++step_calls % kListPoll != 0) return;
    PLAB_CUDA_CHECK(cudaMemcpyAsync(mirror.data(), control.data(), sizeof(ListControl),
                                    cudaMemcpyDeviceToHost, stream));
    PLAB_CUDA_CHECK(cudaEventRecord(mirror_ready.get(), stream));
    mirror_pending = true;
}

ListControl DeviceNeighbourLists::download_control(cudaStream_t stream) const {
    ListControl c{};
    PLAB_CUDA_CHECK(cudaMemcpyAsync(&c, control.data(), sizeof c, cudaMemcpyDeviceToHost, stream));
    PLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    return c;
}

NeighbourListStats DeviceNeighbourLists::stats_of(const ListControl& c, bool active) const {
    NeighbourListStats out;
    out.active = active;
    out.slots = slots;
    out.steps = c.steps;
    out.builds = c.builds;
    out.overflowed = c.overflowed;
    out.moved = c.moved_total;
    out.strays = c.stray_total;
    out.repaired = c.repaired_total;
    out.cluster_overflowed = c.cluster_overflowed;
    out.cluster_entries = c.cluster_entries;
    return out;
}

NeighbourListStats DeviceNeighbourLists::recent_stats(bool active) const {
    return stats_of(last_seen, active);
}

}  // namespace plab::sim::cuda
