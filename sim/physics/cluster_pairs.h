#pragma once
// Cluster pairs (SimulatorOptions::cluster_pairs), after the neighbour lists' builds: the
// particles, in cell order since the build, taken eight at a time as clusters, and for each
// cluster the clusters holding any particle its members listed (within range + skin then).
// While no particle has moved half the skin, every contact of a member lies in one of those
// clusters, so the force pass tests a member against every particle of its listed clusters.
// That tests more pairs than the particle lists, but the CUDA pass reads each neighbour cluster
// once for a whole cluster (a warp: 8 members × 8 neighbours, the loads coalesced, every lane
// busy), instead of one scattered read per listed candidate and lane.
//
// A cluster with more neighbour clusters than the slots, or with a member whose own list
// overflowed, is marked kListOverflow: its members read their particle lists (for_each_listed,
// exact either way), and the backend grows the slots for the next build.
#include <cstddef>
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/model/params.h"
#include "sim/physics/neighbour_list.h"

namespace plab::sim {

inline constexpr uint32_t kClusterSize = 8;

PLAB_HD inline uint32_t cluster_count(uint32_t particles) {
    return (particles + kClusterSize - 1) / kClusterSize;
}

// Views of one backend's cluster-pair buffers.
struct ClusterPairs {
    uint32_t* index = nullptr;  // per cluster c, its neighbour clusters at c · slots + k
    uint32_t* count = nullptr;  // per cluster; kListOverflow when they did not fit
    uint32_t slots = 0;
    uint32_t clusters = 0;

    PLAB_HD bool active() const { return index != nullptr; }
};

// The slots a first build gets for `p` (as many as a particle's list: a cluster of eight finds
// about as many clusters as one particle finds particles), and after `found` did not fit.
uint32_t initial_cluster_slots(const Params& p);
uint32_t grown_cluster_slots(uint32_t found);

// Lists the neighbour clusters of cluster c from its members' particle lists (just built, for
// n particles) without repeats. Returns how many it found (counted past the slots when they do
// not fit, then possibly with repeats: a bound for the growth), or kListOverflow when a member's
// own list overflowed.
PLAB_HD inline uint32_t build_cluster_pairs_of(uint32_t c, const ClusterPairs& cp,
                                               const NeighbourList& l, uint32_t n) {
    uint32_t* out = cp.index + std::size_t{c} * cp.slots;
    const uint32_t first = c * kClusterSize;
    const uint32_t end = first + kClusterSize < n ? first + kClusterSize : n;
    uint32_t found = 0;
    bool member_overflowed = false;
    for (uint32_t i = first; i < end && !member_overflowed; ++i) {
        const uint32_t listed = l.count[i];
        if (listed == kListOverflow) {
            member_overflowed = true;
            break;
        }
        for (uint32_t k = 0; k < listed; ++k) {
            const uint32_t jc = l.index[list_entry(i, k, l.n)] / kClusterSize;
            const uint32_t kept = found < cp.slots ? found : cp.slots;
            bool seen = false;
            // Newest first: the members' lists run through the cells in order, so a repeat
            // is most often the cluster just added.
            for (uint32_t q = kept; q-- > 0 && !seen;) seen = out[q] == jc;
            if (seen) continue;
            if (found < cp.slots) out[found] = jc;
            ++found;
        }
    }
    cp.count[c] = member_overflowed || found > cp.slots ? kListOverflow : found;
    return member_overflowed ? kListOverflow : found;
}

// Calls visit(j) for every candidate of cell-order particle i: every particle of its cluster's
// neighbour clusters (i itself among them), or its own list when the cluster overflowed.
template <typename Visit>
PLAB_HD inline void for_each_clustered(uint32_t i, const ClusterPairs& cp, const NeighbourList& l,
                                       const StepBuffers& b, const GridSpec& g, Visit&& visit) {
    const uint32_t c = i / kClusterSize;
    const uint32_t found = load(cp.count + c);
    if (found == kListOverflow) {
        for_each_listed(i, l, b, g, visit);
        return;
    }
    const uint32_t* neighbours = cp.index + std::size_t{c} * cp.slots;
    for (uint32_t k = 0; k < found; ++k) {
        const uint32_t first = load(neighbours + k) * kClusterSize;
        const uint32_t end = first + kClusterSize < b.count ? first + kClusterSize : b.count;
        for (uint32_t j = first; j < end; ++j) visit(j);
    }
}

// The DEM gather force pass over the cluster pairs (sorted memory, the classic law): the kick
// into A.vel[i], as dem_force_particle_listed. The CPU backend's pass, and the reference the
// CUDA warp pass (cluster_kernels.cuh) is tested against.
PLAB_HD inline void dem_force_particle_clustered(uint32_t i, const StepBuffers& b,
                                                 const GridSpec& g, const Params& p,
                                                 const NeighbourList& l, const ClusterPairs& cp) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Vec3 vel = xyz(load(b.sorted_vel + i));
    const uint32_t id = load(b.sorted_id + i);
    const Vec3 force = dem_pair_forces_over(
        i, pos, vel, id, b, p, [&](auto&& visit) { for_each_clustered(i, cp, l, b, g, visit); });
    b.vel[i] = dem_new_velocity(pos, vel, id, force, b.geometry, p);
}

}  // namespace plab::sim
