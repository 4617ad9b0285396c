#pragma once
// Strays of the neighbour lists (SimulatorOptions::list_strays), written once for both
// backends. A stray is a particle that has moved more than skin / 2 since the last build, so
// its list, and the lists that ought to hold it, may miss a contact. In a settled pile a few
// particles always do (one rattling in place is enough), and rebuilding everything for them
// costs more than the lists save. So while a step has at most `limit` strays (DEM) the lists
// stay and the step repairs what the strays touch (the classic law, after its pass) or finds
// it in its pass (the frictional law, for_each_candidate_with_strays); more start a build.
// Off by default (limit 0): on the GPU neither measured faster than the builds it saves
// (docs/benchmarks.md, *Strays*).
//
// Why the repair misses nothing: two non-strays within range were within range + skin at the
// build, so they list each other (neighbour_list.h). A pair with a stray f is found from f's
// side: a non-stray j within range of f now was within range + skin / 2 of f's position now
// at the build, so the build grid's cells around f's position now hold j; strays find each
// other in the step's short list of strays. The particles repaired are the strays and each
// non-stray within range of a stray that its list pass does not visit. Each is recomputed whole
// (its list, or for a stray the grid scan, plus the strays) from the step's copy S and written
// to A after the force pass and the drift, which stand for every other particle.
#include <cstdint>

#include "sim/physics/dem_step.h"
#include "sim/physics/neighbour_list.h"

namespace plab::sim {

// Views of one backend's stray buffers.
struct StrayList {
    uint32_t* index = nullptr;   // this step's strays (cell-order positions), `limit` slots
    uint32_t* repair = nullptr;  // the particles the step redoes (CUDA), `repair_slots` slots
    uint32_t* queued = nullptr;  // per particle: non-zero while queued for repair (CUDA)
    uint32_t limit = 0;          // 0: the first stray starts a build
    uint32_t repair_slots = 0;
};

// How many strays a step may repair before the lists rebuild: the variant's number, or with
// -1 (automatic) one in 1,024 particles, from 32 to 1,024. 0 (a build at the first stray)
// for SPH, whose density pass feeds its force pass. The classic law repairs its strays after
// its pass (dem_repair_particle), the frictional law finds them in it
// (for_each_candidate_with_strays).
uint32_t stray_limit(int requested, std::size_t count, const Params& p);

// Slots for the particles one step repairs: the strays and a few unlisted neighbours each.
// When a step queues more, every particle is redone (still exact, only slower).
inline uint32_t stray_repair_slots(uint32_t limit) { return 4u * limit; }

// Whether cell-order particle j is a stray this step. Reads the step's copy S, which holds the
// very position moved_past_skin checked at the start of the step.
PLAB_HD inline bool is_stray(uint32_t j, const NeighbourList& l, const StepBuffers& b,
                             float rebuild_dist2) {
    const float d2 = length_squared(xyz(load(b.sorted_pos + j)) - xyz(load(l.ref_pos + j)));
    return !(d2 <= rebuild_dist2);
}

// Whether the list pass of cell-order particle s (for_each_listed) visits particle f: its list
// holds f, or (overflowed) f's cell at the build lies within the grid's reach of s's.
PLAB_HD inline bool list_visits(uint32_t s, uint32_t f, const NeighbourList& l, const GridSpec& g) {
    const uint32_t found = load(l.count + s);
    if (found != kListOverflow) {
        for (uint32_t k = 0; k < found; ++k)
            if (load(l.index + list_entry(s, k, l.n)) == f) return true;
        return false;
    }
    const CellCoord a = cell_of(xyz(load(l.ref_pos + s)), g);
    const CellCoord c = cell_of(xyz(load(l.ref_pos + f)), g);
    auto near = [&](int u, int v) { return u - v <= g.reach && v - u <= g.reach; };
    return near(a.x, c.x) && near(a.y, c.y) && near(a.z, c.z);
}

// Calls queue(j) for stray f and for every non-stray j within range of it whose list pass
// does not visit f (the backend queues each particle once).
template <typename Queue>
PLAB_HD inline void queue_stray_repairs(uint32_t f, const NeighbourList& l, const StepBuffers& b,
                                        const GridSpec& g, const Params& p, float rebuild_dist2,
                                        Queue&& queue) {
    queue(f);
    const Vec3 pos = xyz(load(b.sorted_pos + f));
    const float reach2 = 4.f * p.radius * p.radius;
    for_each_candidate_in_reach(pos, b, g, [&](uint32_t j) {
        if (j == f || length_squared(xyz(load(b.sorted_pos + j)) - pos) >= reach2) return;
        if (is_stray(j, l, b, rebuild_dist2) || list_visits(j, f, l, g)) return;
        queue(j);
    });
}

// The candidates of cell-order particle i on a step that keeps the lists with `count` strays
// (`strays`, cell-order positions): a stray i scans the build grid's non-strays around it (its
// list may miss them), a non-stray its list; then every stray within `reach2` that the list
// pass does not visit. Each particle in reach comes once, so the sums equal the per-step
// grid's up to their order. The classic law's repair redoes the particles the strays touch
// with it; the frictional pass, which rewrites its contact memory in place and so cannot be
// redone afterwards, takes every particle's candidates from it on such a step.
template <typename Visit>
PLAB_HD inline void for_each_candidate_with_strays(uint32_t i, const NeighbourList& l,
                                                   const StepBuffers& b, const GridSpec& g,
                                                   const uint32_t* strays, uint32_t count,
                                                   float reach2, float rebuild_dist2,
                                                   Visit&& visit) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const bool stray = is_stray(i, l, b, rebuild_dist2);
    if (stray) {
        for_each_candidate_in_reach(pos, b, g, [&](uint32_t j) {
            if (!is_stray(j, l, b, rebuild_dist2)) visit(j);
        });
    } else {
        for_each_listed(i, l, b, g, visit);
    }
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t f = load(strays + k);
        // The distance first: most strays are far away, and the list search is longer.
        if (f == i || length_squared(xyz(load(b.sorted_pos + f)) - pos) >= reach2) continue;
        if (stray || !list_visits(i, f, l, g)) visit(f);
    }
}

// Redoes the step of cell-order particle i with the strays: its pair forces over its list (a
// non-stray) or over the build grid's non-strays around it (a stray), plus every stray its
// list pass does not visit; then the kick and the drift into A, as the force pass and the
// drift would have.
PLAB_HD inline void dem_repair_particle(uint32_t i, const StepBuffers& b, const GridSpec& g,
                                        const Params& p, const Domain& d, const NeighbourList& l,
                                        const StrayList& s, uint32_t strays, float rebuild_dist2) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Vec3 vel = xyz(load(b.sorted_vel + i));
    const uint32_t id = load(b.sorted_id + i);
    const float reach2 = 4.f * p.radius * p.radius;
    const Vec3 force = dem_pair_forces_over(i, pos, vel, id, b, p, [&](auto&& visit) {
        for_each_candidate_with_strays(i, l, b, g, s.index, strays, reach2, rebuild_dist2, visit);
    });
    dem_drift_into_state(i, pos, xyz(dem_new_velocity(pos, vel, id, force, b.geometry, p)), id, b,
                         p, d);
}

}  // namespace plab::sim
