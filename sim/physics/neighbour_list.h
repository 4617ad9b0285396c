#pragma once
// Neighbour lists with a skin (SimulatorOptions::neighbour_list), written once for both
// backends. At a build the grid is made with cells of (range + skin) / reach, the particles are
// sorted into cell order and each particle lists every other particle within range + skin.
// Between builds the particles keep their cell-order positions (the step copies A to S instead
// of sorting) and the force passes loop over the lists. While no particle has moved more than
// skin / 2 since the build, two particles within range now were within range + skin then, so
// the list holds every contact; the step rebuilds as soon as one has moved further.
//
// A particle with more candidates than the list's slots is marked kListOverflow: its force
// sums scan the grid of the last build from its position at that build (which covers every
// particle within range + skin of it then, so no contact is missed), and the backend grows the
// slots for the next build.
#include <cstddef>
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/physics/dem_step.h"

namespace plab::sim {

inline constexpr uint32_t kListOverflow = 0xffffffffu;

// The list's entries lie in groups of four, group-major: entries 4g … 4g + 3 of particle i
// side by side at (g · n + i) · 4 (list_entry). A thread then writes and reads four entries
// in one 16 B access, and a warp's read of one group still covers one run of memory. One
// entry at a time, slot-major (k · n + i), a build's writes went to as many 32 B sectors as
// entries (the threads of a warp find their candidates at different times, so one store
// instruction wrote 32 rows).
inline constexpr uint32_t kListGroup = 4;

// Where entry k of cell-order particle i lies, in a list laid out for n particles.
PLAB_HD inline std::size_t list_entry(uint32_t i, uint32_t k, uint32_t n) {
    return (std::size_t{k / kListGroup} * n + i) * kListGroup + k % kListGroup;
}

// Entries the index holds for a particle of `slots`: whole groups (a group's store may reach
// past the last slot).
PLAB_HD inline uint32_t list_stored_slots(uint32_t slots) {
    return (slots + kListGroup - 1) / kListGroup * kListGroup;
}

// Views of one backend's list buffers.
struct NeighbourList {
    uint32_t* index = nullptr;  // slots × particles in groups of four (list_entry)
    uint32_t* count = nullptr;  // per cell-order particle; kListOverflow when it did not fit
    Float4* ref_pos = nullptr;  // per cell-order particle: its position at the last build, m
    uint32_t slots = 0;
    uint32_t n = 0;  // particles the index is laid out for

    PLAB_HD bool active() const { return index != nullptr; }
};

// Where one run's lists reach, from its parameters (host side).
struct ListGeometry {
    float cutoff2 = 0;        // m², (range + skin)²: what a build lists
    float rebuild_dist2 = 0;  // m², (skin / 2)²: a particle moved this far forces a rebuild
};

ListGeometry list_geometry(const Params& p);

// The grid a list build runs on: the scene's grid rebuilt with cells of (range + skin) / reach,
// so that the same stencil covers range + skin.
GridSpec list_grid(const Domain& domain, const GridSpec& scene_grid, const Params& p);

// The slots a first build gets for `p`: about 1.5 × the candidates of a dense packing within
// range + skin, a multiple of 8 (a build that finds more grows them; whole groups of four).
uint32_t initial_list_slots(const Params& p);

// Slots for a particle that found `found` candidates: 25% headroom, a multiple of 8.
uint32_t grown_list_slots(uint32_t found);

// Four entries of particle i, group g, as one store (16 B on the device) and one load.
struct ListGroup {
    uint32_t e[kListGroup];
};
PLAB_HD inline void store_list_group(const NeighbourList& l, uint32_t i, uint32_t g,
                                     const ListGroup& q) {
    uint32_t* at = l.index + list_entry(i, g * kListGroup, l.n);
#ifdef __CUDA_ARCH__
    *reinterpret_cast<uint4*>(at) = make_uint4(q.e[0], q.e[1], q.e[2], q.e[3]);
#else
    for (uint32_t c = 0; c < kListGroup; ++c) at[c] = q.e[c];
#endif
}
PLAB_HD inline ListGroup load_list_group(const NeighbourList& l, uint32_t i, uint32_t g) {
    const uint32_t* at = l.index + list_entry(i, g * kListGroup, l.n);
#if defined(PLAB_LOAD_NC)
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(at));
    return {{v.x, v.y, v.z, v.w}};
#else
    return {{at[0], at[1], at[2], at[3]}};
#endif
}

// Lists the cell-order particles j ≠ i within cutoff2 of cell-order particle i (from the
// sorted copy S, just built) and records its position. Returns how many it found: more than
// l.slots marks the particle kListOverflow. The entries gather in a group of four (selects,
// so that it stays in registers), written whole; the last group's unused entries are left
// as they were (the count says where the list ends).
PLAB_HD inline uint32_t build_list_particle(uint32_t i, const NeighbourList& l,
                                            const StepBuffers& b, const GridSpec& g,
                                            float cutoff2) {
    const Float4 self = load(b.sorted_pos + i);
    const Vec3 pos = xyz(self);
    uint32_t found = 0;
    ListGroup q{};
    for_each_candidate_in_reach(pos, b, g, [&](uint32_t j) {
        if (j == i || length_squared(xyz(load(b.sorted_pos + j)) - pos) >= cutoff2) return;
        if (found < l.slots) {
            const uint32_t c = found % kListGroup;
            PLAB_UNROLL
            for (uint32_t k = 0; k < kListGroup; ++k) q.e[k] = k == c ? j : q.e[k];
            if (c == kListGroup - 1) store_list_group(l, i, found / kListGroup, q);
        }
        ++found;
    });
    if (found <= l.slots && found % kListGroup != 0) store_list_group(l, i, found / kListGroup, q);
    l.count[i] = found <= l.slots ? found : kListOverflow;
    l.ref_pos[i] = self;
    return found;
}

// Whether cell-order particle i has moved past the rebuild distance since the last build (its
// current position is A.pos[i]: between builds the step keeps the cell order). NaN counts as
// moved.
PLAB_HD inline bool moved_past_skin(uint32_t i, const NeighbourList& l, const StepBuffers& b,
                                    float rebuild_dist2) {
    const float d2 = length_squared(xyz(load(b.pos + i)) - xyz(load(l.ref_pos + i)));
    return !(d2 <= rebuild_dist2);
}

// Between builds: the state A, in cell order since the last build, becomes the step's S.
PLAB_HD inline void copy_particle_in_place(uint32_t i, const StepBuffers& b) {
    b.sorted_pos[i] = load(b.pos + i);
    b.sorted_vel[i] = load(b.vel + i);
}

// Calls visit(j) for every candidate of cell-order particle i: its list entries first_entry,
// first_entry + step, ...; or, when it overflowed, the grid of the last build around its
// position then (split by rows like for_each_candidate on a one-cell-reach grid; a wider grid
// is scanned whole by entry 0's caller). The particle itself is among the grid's candidates
// and never in the list.
template <typename Visit>
PLAB_HD inline void for_each_listed(uint32_t i, const NeighbourList& l, const StepBuffers& b,
                                    const GridSpec& g, Visit&& visit, int first_entry = 0,
                                    int step = 1) {
    const uint32_t found = load(l.count + i);
    if (found == kListOverflow) {
        const Vec3 then = xyz(load(l.ref_pos + i));
        if (g.reach == 1)
            for_each_candidate(then, b, g, visit, first_entry, step);
        else if (first_entry == 0)
            for_each_candidate_in_reach(then, b, g, visit);
        return;
    }
    if (first_entry == 0 && step == 1) {
        // A group at a time; one call of `visit` in the code (not one per entry of a group).
        for (uint32_t k = 0; k < found; k += kListGroup) {
            const ListGroup q = load_list_group(l, i, k / kListGroup);
            const uint32_t end = found - k < kListGroup ? found - k : kListGroup;
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
            for (uint32_t c = 0; c < end; ++c)
                visit(c == 0 ? q.e[0] : c == 1 ? q.e[1] : c == 2 ? q.e[2] : q.e[3]);
        }
        return;
    }
    for (uint32_t k = static_cast<uint32_t>(first_entry); k < found; k += step)
        visit(load(l.index + list_entry(i, k, l.n)));
}

// The DEM gather force pass over the list (sorted memory): the kick into A.vel[i], as
// dem_force_particle.
PLAB_HD inline void dem_force_particle_listed(uint32_t i, const StepBuffers& b, const GridSpec& g,
                                              const Params& p, const NeighbourList& l) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Vec3 vel = xyz(load(b.sorted_vel + i));
    const uint32_t id = load(b.sorted_id + i);
    const Vec3 force = dem_pair_forces_over(
        i, pos, vel, id, b, p, [&](auto&& visit) { for_each_listed(i, l, b, g, visit); });
    b.vel[i] = dem_new_velocity(pos, vel, id, force, b.geometry, p);
}

}  // namespace plab::sim
