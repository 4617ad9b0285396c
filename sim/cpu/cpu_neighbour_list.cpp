// The CPU backend's neighbour lists (sim/physics/neighbour_list.h): the same bodies as the CUDA
// backend's, looped with OpenMP; the host decides each rebuild at once.
#include <algorithm>
#include <cstdint>

#include "sim/cpu/cpu_simulator.h"
#include "sim/physics/list_strays.h"

namespace plab::sim {

void CpuSimulator::reset_lists(const Params& params) {
    list_grid_ = list_grid(domain_, grid_, params);
    list_geometry_ = list_geometry(params);
    list_slots_ = list_slots_requested_ > 0 ? list_slots_requested_ : initial_list_slots(params);
    cluster_slots_ = initial_cluster_slots(params);
    cluster_overflowed_ = false;
    list_valid_ = false;
    list_overflowed_ = false;
    list_stats_ = {};
}

void CpuSimulator::set_list_slots(uint32_t slots, bool grow) {
    list_slots_requested_ = slots;
    list_grow_ = grow;
    if (slots > 0) list_slots_ = slots;
    list_valid_ = false;
}

NeighbourList CpuSimulator::list_view() {
    return {list_index_.data(), list_count_.data(), list_ref_.data(), list_slots_,
            static_cast<uint32_t>(pos_.size())};
}

bool CpuSimulator::list_step_builds(const Params& p) {
    strays_.clear();
    if (!listed()) {
        list_valid_ = false;  // the next listed step starts with a build
        return true;
    }
    ++list_stats_.steps;
    if (list_overflowed_) {  // the last build did not fit: more slots, and build again
        list_slots_ = std::max(list_slots_, grown_list_slots(list_most_found_));
        list_overflowed_ = false;
        list_valid_ = false;
    }
    if (cluster_overflowed_) {
        cluster_slots_ = std::max(cluster_slots_, grown_cluster_slots(cluster_most_found_));
        cluster_overflowed_ = false;
        list_valid_ = false;
    }
    // Switched on since the last build, or particles added since: the clusters build now.
    if (clustered() && (!clusters_built_ ||
                        cluster_count_.size() != cluster_count(static_cast<uint32_t>(pos_.size()))))
        list_valid_ = false;
    bool build = !list_valid_;
    if (!build) {
        const StepBuffers b = views();
        const NeighbourList l = list_view();
        const float limit2 = list_geometry_.rebuild_dist2;
        const auto n = static_cast<std::int64_t>(b.count);
        std::int64_t moved = 0;
#pragma omp parallel for schedule(static) reduction(+ : moved)
        for (std::int64_t i = 0; i < n; ++i)
            moved += moved_past_skin(static_cast<uint32_t>(i), l, b, limit2) ? 1 : 0;
        list_stats_.moved += static_cast<uint64_t>(moved);
        const uint32_t limit = stray_limit(resolved_.effective.list_strays, b.count, p);
        build = moved > static_cast<std::int64_t>(limit);
        if (!build && moved > 0) {
            // A few: listed in cell order (so the repair sums in one order) and repaired.
            for (uint32_t i = 0; i < b.count; ++i)
                if (moved_past_skin(i, l, b, limit2)) strays_.push_back(i);
            list_stats_.strays += strays_.size();
        }
    }
    if (build) ++list_stats_.builds;
    return build;
}

void CpuSimulator::repair_strays(const StepBuffers& b, const Params& p) {
    if (strays_.empty()) return;
    const NeighbourList l = list_view();
    const GridSpec g = list_grid_;
    const Domain d = domain_;
    const float limit2 = list_geometry_.rebuild_dist2;
    const StrayList s{strays_.data(), nullptr, nullptr, static_cast<uint32_t>(strays_.size()), 0};
    queued_.resize(b.count, 0);
    repairs_.clear();
    for (uint32_t f : strays_)
        queue_stray_repairs(f, l, b, g, p, limit2, [&](uint32_t j) {
            if (queued_[j]) return;
            queued_[j] = 1;
            repairs_.push_back(j);
        });
    const auto strays = static_cast<uint32_t>(strays_.size());
    const auto repairs = static_cast<std::int64_t>(repairs_.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < repairs; ++k)
        dem_repair_particle(repairs_[k], b, g, p, d, l, s, strays, limit2);
    for (uint32_t j : repairs_) queued_[j] = 0;
    list_stats_.repaired += repairs_.size();
}

void CpuSimulator::build_lists() {
    const std::size_t n = pos_.size();
    list_index_.resize(n * list_stored_slots(list_slots_));
    list_count_.resize(n);
    list_ref_.resize(n);
    const StepBuffers b = views();
    const NeighbourList l = list_view();
    const GridSpec g = list_grid_;
    const float cutoff2 = list_geometry_.cutoff2;
    const auto count = static_cast<std::int64_t>(n);
    uint32_t most = 0;
    uint64_t overflowed = 0;
#pragma omp parallel for schedule(static) reduction(max : most) reduction(+ : overflowed)
    for (std::int64_t i = 0; i < count; ++i) {
        const uint32_t found = build_list_particle(static_cast<uint32_t>(i), l, b, g, cutoff2);
        most = std::max(most, found);
        overflowed += found > l.slots ? 1 : 0;
    }
    list_most_found_ = most;
    list_overflowed_ = overflowed > 0 && list_grow_;
    list_stats_.overflowed += overflowed;
    list_valid_ = true;
    clusters_built_ = false;  // build_cluster_pairs follows when they run
}

ClusterPairs CpuSimulator::cluster_view() {
    return {cluster_index_.data(), cluster_count_.data(), cluster_slots_,
            cluster_count(static_cast<uint32_t>(pos_.size()))};
}

void CpuSimulator::build_cluster_pairs() {
    const auto n = static_cast<uint32_t>(pos_.size());
    cluster_index_.resize(std::size_t{cluster_count(n)} * cluster_slots_);
    cluster_count_.resize(cluster_count(n));
    const NeighbourList l = list_view();
    const ClusterPairs cp = cluster_view();
    const auto clusters = static_cast<std::int64_t>(cp.clusters);
    uint32_t most = 0;
    uint64_t overflowed = 0, entries = 0;
#pragma omp parallel for schedule(static) reduction(max : most) reduction(+ : overflowed, entries)
    for (std::int64_t c = 0; c < clusters; ++c) {
        const uint32_t found = build_cluster_pairs_of(static_cast<uint32_t>(c), cp, l, n);
        if (found == kListOverflow) {  // a member's list overflowed: the lists grow
            ++overflowed;
            continue;
        }
        most = std::max(most, found);
        overflowed += found > cp.slots ? 1 : 0;
        entries += found <= cp.slots ? found : 0;
    }
    cluster_most_found_ = most;
    cluster_overflowed_ = most > cp.slots && list_grow_;
    list_stats_.cluster_overflowed += overflowed;
    list_stats_.cluster_entries = entries;
    clusters_built_ = true;
}

NeighbourListStats CpuSimulator::recent_list_stats() const {
    NeighbourListStats s = list_stats_;
    s.active = listed();
    s.slots = list_slots_;
    s.cluster_slots = clustered() ? cluster_slots_ : 0;
    return s;
}

NeighbourListStats CpuSimulator::list_stats() { return recent_list_stats(); }

}  // namespace plab::sim
