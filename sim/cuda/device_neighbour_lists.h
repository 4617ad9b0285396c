#pragma once
// The CUDA backend's neighbour lists with a skin (sim/physics/neighbour_list.h) and their
// strays (sim/physics/list_strays.h): the lists' buffers, the device's control word
// (list_control.h) and the host's copy of it, and the settings the lists were reset with.
// Grown outside any captured step. The stages that use them are in cuda_list_step.cu.
// Private to sim/cuda.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "sim/core/vec.h"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/device_buffer.h"
#include "sim/cuda/list_control.h"
#include "sim/cuda/pinned_buffer.h"
#include "sim/engine/simulator.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/physics/cluster_pairs.h"
#include "sim/physics/list_strays.h"
#include "sim/physics/neighbour_list.h"

namespace plab::sim::cuda {

struct DeviceNeighbourLists {
    DeviceBuffer<uint32_t> index, count;  // the entries, and their count per particle
    DeviceBuffer<Float4> ref;             // each particle's position at the last build, m
    DeviceBuffer<uint32_t> stray_index, stray_repair, stray_queued;
    uint32_t stray_limit_now = 0;
    uint32_t stray_repair_slots_set = 0;  // set_stray_repair_slots; 0: from the limit
    // The rebuild is decided on the device each step; the host learns what the builds found
    // from a copy made every kListPoll steps, read once it has arrived, so no step waits.
    DeviceBuffer<ListControl> control;
    PinnedBuffer<ListControl> mirror;
    Event mirror_ready = make_event();
    bool mirror_pending = false;
    unsigned long long overflow_seen = 0;  // ListControl::overflowed when last read
    ListControl last_seen{};               // the last copy that arrived
    uint32_t slots = 0;                    // per particle in `index`
    uint32_t slots_requested = 0;          // set_list_slots; 0: from the parameters
    bool grow = true;                      // grow the slots after an overflow
    bool was_on = false;                   // the last step ran with the lists
    uint64_t step_calls = 0;
    GridSpec grid;  // the lists' grid: cells range + skin wide
    ListGeometry geometry;
    // Cluster pairs (SimulatorOptions::cluster_pairs), built after the lists when they run.
    DeviceBuffer<uint32_t> cluster_index, cluster_found;
    uint32_t cluster_slots = 0;
    unsigned long long cluster_overflow_seen = 0;  // ListControl::cluster_overflowed when read
    bool clusters_were_on = false;                 // the last step ran by cluster pairs

    NeighbourList view(uint32_t n) const {
        return {index.data(), count.data(), ref.data(), slots, n};
    }
    ClusterPairs cluster_view(uint32_t n) const {
        return {cluster_index.data(), cluster_found.data(), cluster_slots, cluster_count(n)};
    }
    StrayList stray_view() const {
        return {stray_index.data(), stray_repair.data(), stray_queued.data(), stray_limit_now,
                repair_slots(stray_limit_now)};
    }
    uint32_t repair_slots(uint32_t limit) const {
        return stray_repair_slots_set > 0 ? stray_repair_slots_set : stray_repair_slots(limit);
    }

    // Starts again for a run on `scene_grid` with `params`: the lists' grid, reach and slots,
    // no report seen, the control cleared on `stream` (waits for a copy still on its way).
    void reset(const Domain& domain, const GridSpec& scene_grid, const Params& params,
               cudaStream_t stream);
    // Allocates the lists for `n` particles and the current slots (checked like any growth;
    // waits for `stream` before freeing). Returns whether the buffers were reallocated (a
    // captured step that holds the old pointers must be captured again).
    bool reserve(std::size_t n, cudaStream_t stream);
    // The cluster pairs for `n` particles and the current cluster slots, as reserve.
    bool reserve_clusters(std::size_t n, cudaStream_t stream);
    // The next step rebuilds (enqueued on `stream`).
    void request_build(cudaStream_t stream);
    // The stray buffers for `limit` strays among `n` particles (checked like any growth; waits
    // for `stream` before freeing). Returns whether they were reallocated.
    bool reserve_strays(uint32_t limit, std::size_t n, cudaStream_t stream);

    // The copy of the control that poll started, once it has arrived (null otherwise; never
    // waits). Valid until the next poll.
    const ListControl* arrived_copy();
    // Every kListPoll calls, a new copy of the control to the host on `stream`, unless one is
    // still on its way.
    void poll(cudaStream_t stream);
    // The control as the steps enqueued so far leave it (waits for `stream`).
    ListControl download_control(cudaStream_t stream) const;
    // The counters of the last copy that arrived (`active`: the lists run now).
    NeighbourListStats recent_stats(bool active) const;
    // The counters of `c` with the slots a list has now.
    NeighbourListStats stats_of(const ListControl& c, bool active) const;
};

}  // namespace plab::sim::cuda
