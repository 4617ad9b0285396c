#pragma once
// The per-particle bodies of one DEM step, written once for both backends. The CPU backend
// calls them from OpenMP loops, the CUDA backend from one thread per particle.
//
// One step, with A = the current arrays and S = their cell-ordered copies:
//   hash     cell[i] = cell of A.pos[i]; slot[i] = its rank inside the cell (atomics on GPU)
//   scan     cell_start = exclusive sum of the per-cell counts (num_cells + 1 entries)
//   scatter  S[cell_start[cell[i]] + slot[i]] = A[i]           (counting sort + reorder)
//   forces   A.vel[i] = velocity after contact forces and gravity, read from S
//   drift    A.pos[i], A.vel[i], A.id[i] = drifted S.pos[i] with walls; S.id[i]
//            (the CUDA backend can fuse forces and drift into one kernel: neither reads A)
// so A holds the state again, in cell order, and every buffer keeps its role from step to
// step (which is what lets a CUDA graph replay the step).
//
// With unsorted memory (Memory::Unsorted) the state is never copied into cell order:
//   scatter  sorted_id[cell_start[cell[i]] + slot[i]] = i      (only the index into A)
//   forces   neighbours read as A[sorted_id[j]]; the kicked velocity goes to S.vel[i] (A
//            order), since A itself is still being read by the other particles
//   drift    A.pos[i], A.vel[i] = drifted A.pos[i] with S.vel[i]    (never fused)
// so particles stay where they are in memory and the force pass gathers them through an
// index: the comparison shows what the reorder buys.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/geometry/geometry_view.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/physics/dem_contact.h"
#include "sim/physics/mesh_contact.h"

namespace plab::sim {

// Raw views of one backend's buffers; owners live in the simulators.
struct StepBuffers {
    Float4* pos = nullptr;           // A: state, xyz in m
    Float4* vel = nullptr;           // A: state, xyz in m/s
    uint32_t* id = nullptr;          // A: particle id, fixed for the particle's life
    Float4* sorted_pos = nullptr;    // S
    Float4* sorted_vel = nullptr;    // S (unsorted: the kicked velocity, in A order)
    uint32_t* sorted_id = nullptr;   // S (unsorted: the index into A, in cell order)
    uint32_t* cell = nullptr;        // per particle in A order
    uint32_t* slot = nullptr;        // per particle: rank inside its cell
    uint32_t* cell_count = nullptr;  // num_cells + 1, the last entry stays 0
    uint32_t* cell_start = nullptr;  // num_cells + 1, cell c holds [start[c], start[c+1])
    Float4* force = nullptr;  // per sorted particle: summed pair forces (scatter mode only), N
    // Double-precision state (SimulatorOptions::double_state; null otherwise): A and S copies
    // of position and velocity kept in double beside the float ones the forces read.
    Double4* pos_hi = nullptr;
    Double4* vel_hi = nullptr;
    Double4* sorted_pos_hi = nullptr;
    Double4* sorted_vel_hi = nullptr;
    uint32_t count = 0;
    GeometryView geometry;  // the scene's bodies (inactive: none)
};

// Read-only loads through the non-coherent cache (__ldg) on the device. That cache is only
// safe for data no thread writes during the kernel, so a kernel that writes arrays and then
// reads them after a grid-wide sync (the persistent step) defines PLAB_COHERENT_LOADS before
// including this header and gets plain loads.
#if defined(__CUDA_ARCH__) && !defined(PLAB_COHERENT_LOADS)
#define PLAB_LOAD_NC 1
#endif

PLAB_HD inline Float4 load(const Float4* p) {
#if defined(PLAB_LOAD_NC)
    const float4 v = __ldg(reinterpret_cast<const float4*>(p));
    return {v.x, v.y, v.z, v.w};
#else
    return *p;
#endif
}

PLAB_HD inline uint32_t load(const uint32_t* p) {
#if defined(PLAB_LOAD_NC)
    return __ldg(p);
#else
    return *p;
#endif
}

// Whether the step copies the state into cell order (the default) or leaves it in place and
// reads neighbours through sorted_id. A template parameter, so the sorted path compiles to
// exactly the loads it had before.
enum class Memory { Sorted, Unsorted };

// Where the particle at cell-order position j is stored, and the arrays that hold it: S[j]
// when sorted, A[sorted_id[j]] when not.
template <Memory M>
PLAB_HD inline uint32_t stored_at(const StepBuffers& b, uint32_t j) {
    if constexpr (M == Memory::Sorted)
        return j;
    else
        return load(b.sorted_id + j);
}
template <Memory M>
PLAB_HD inline const Float4* read_pos(const StepBuffers& b) {
    return M == Memory::Sorted ? b.sorted_pos : b.pos;
}
template <Memory M>
PLAB_HD inline const Float4* read_vel(const StepBuffers& b) {
    return M == Memory::Sorted ? b.sorted_vel : b.vel;
}
template <Memory M>
PLAB_HD inline const uint32_t* read_id(const StepBuffers& b) {
    return M == Memory::Sorted ? b.sorted_id : b.id;
}

// Where the force pass leaves the kicked velocity of the particle at cell-order position j:
// in A when it reads S (sorted), beside A in S.vel when it reads A itself (unsorted).
template <Memory M>
PLAB_HD inline Float4* kicked_velocity(const StepBuffers& b, uint32_t j) {
    if constexpr (M == Memory::Sorted)
        return b.vel + j;
    else
        return b.sorted_vel + load(b.sorted_id + j);
}

template <Memory M = Memory::Sorted>
PLAB_HD inline void scatter_particle(uint32_t i, const StepBuffers& b) {
    const uint32_t dst = b.cell_start[b.cell[i]] + b.slot[i];
    if constexpr (M == Memory::Sorted) {
        b.sorted_pos[dst] = load(b.pos + i);
        b.sorted_vel[dst] = load(b.vel + i);
        b.sorted_id[dst] = b.id[i];
        if (b.pos_hi) {
            b.sorted_pos_hi[dst] = b.pos_hi[i];
            b.sorted_vel_hi[dst] = b.vel_hi[i];
        }
    } else {
        b.sorted_id[dst] = i;
    }
}

// The 27 cells around a particle as 9 rows of 3 (one per (dz, dy)). Along x the three cells
// of a row are adjacent in memory, so each row is one contiguous range of sorted particles.
inline constexpr int kNeighbourRows = 9;

// Calls range(row, begin, end) for rows first_row, first_row + row_step, ... of the 27 cells
// around `pos` that lie inside the grid: [begin, end) are the sorted particles of the row's
// (up to) three cells.
template <typename Range>
PLAB_HD inline void for_each_row_range(Vec3 pos, const StepBuffers& b, const GridSpec& g,
                                       int first_row, int row_step, Range&& range) {
    const CellCoord c = cell_of(pos, g);
    const int x0 = c.x > 0 ? c.x - 1 : 0;
    const int x1 = c.x < g.dim_x - 1 ? c.x + 1 : g.dim_x - 1;
    for (int row = first_row; row < kNeighbourRows; row += row_step) {
        const int z = c.z + row / 3 - 1;
        const int y = c.y + row % 3 - 1;
        if (z < 0 || z >= g.dim_z || y < 0 || y >= g.dim_y) continue;
        range(row, load(b.cell_start + g.linear(x0, y, z)),
              load(b.cell_start + g.linear(x1, y, z) + 1));
    }
}

// Calls visit(j) for every sorted particle j in rows first_row, first_row + row_step, ... of
// the 27 cells around `pos` (the particle itself included). The CUDA backend can split the
// rows of one particle over several threads; a single caller takes all rows.
template <typename Visit>
PLAB_HD inline void for_each_candidate(Vec3 pos, const StepBuffers& b, const GridSpec& g,
                                       Visit&& visit, int first_row = 0, int row_step = 1) {
    for_each_row_range(pos, b, g, first_row, row_step, [&](int, uint32_t begin, uint32_t end) {
        for (uint32_t j = begin; j < end; ++j) visit(j);
    });
}

// Calls visit(j) for every candidate j > i of particle i (sorted position i, at `pos`): the
// half of the 27 cells that comes after i in cell order. Cells are ordered by GridSpec::linear
// (x fastest, then y, then z), so the rows (dz, dy) before (0, 0) hold only particles before i
// and the rows after it only particles after i; in the middle row the candidates after i
// start at i + 1. Five rows instead of nine, each pair once, as the scatter form wants.
template <typename Visit>
PLAB_HD inline void for_each_later_candidate(uint32_t i, Vec3 pos, const StepBuffers& b,
                                             const GridSpec& g, Visit&& visit) {
    constexpr int kMiddleRow = kNeighbourRows / 2;  // (dz, dy) = (0, 0)
    for_each_row_range(pos, b, g, kMiddleRow, 1, [&](int row, uint32_t begin, uint32_t end) {
        for (uint32_t j = row == kMiddleRow ? i + 1 : begin; j < end; ++j) visit(j);
    });
}

// Calls visit(j) for every sorted particle in the (2R + 1)³ cells around `pos`, rows of
// 2R + 1 cells along x being contiguous ranges of sorted particles.
template <int R, typename Visit>
PLAB_HD inline void for_each_candidate_within(Vec3 pos, const StepBuffers& b, const GridSpec& g,
                                              Visit&& visit) {
    const CellCoord c = cell_of(pos, g);
    const int x0 = c.x > R ? c.x - R : 0;
    const int x1 = c.x < g.dim_x - 1 - R ? c.x + R : g.dim_x - 1;
    for (int z = c.z - R; z <= c.z + R; ++z) {
        if (z < 0 || z >= g.dim_z) continue;
        for (int y = c.y - R; y <= c.y + R; ++y) {
            if (y < 0 || y >= g.dim_y) continue;
            const uint32_t begin = load(b.cell_start + g.linear(x0, y, z));
            const uint32_t end = load(b.cell_start + g.linear(x1, y, z) + 1);
            for (uint32_t j = begin; j < end; ++j) visit(j);
        }
    }
}

// Every candidate within the grid's reach (GridSpec::reach, 1 or 2 cells).
template <typename Visit>
PLAB_HD inline void for_each_candidate_in_reach(Vec3 pos, const StepBuffers& b, const GridSpec& g,
                                                Visit&& visit) {
    if (g.reach == 2)
        for_each_candidate_within<2>(pos, b, g, visit);
    else
        for_each_candidate_within<1>(pos, b, g, visit);
}

// Sum of pair contact forces (N) on the particle at cell-order position i from the given
// neighbour rows. Most candidates are out of reach, so a neighbour's velocity and id are
// loaded only on contact.
// `candidates(visit)` calls visit(j) for every candidate j: the grid's rows (dem_pair_forces)
// or a neighbour list (neighbour_list.h); the sum is the same over any source that holds
// every particle in reach.
template <Memory M = Memory::Sorted, typename Candidates>
PLAB_HD inline Vec3 dem_pair_forces_over(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                         const StepBuffers& b, const Params& p,
                                         Candidates&& candidates) {
    const float reach2 = 4.f * p.radius * p.radius;
    Vec3 force{};
    candidates([&](uint32_t j) {
        if (j == i) return;
        const uint32_t s = stored_at<M>(b, j);
        const Vec3 other = xyz(load(read_pos<M>(b) + s));
        if (length_squared(other - pos) >= reach2) return;
        force += contact_force(pos, vel, id, p.radius, other, xyz(load(read_vel<M>(b) + s)),
                               load(read_id<M>(b) + s), p.radius, p);
    });
    return force;
}

template <Memory M = Memory::Sorted>
PLAB_HD inline Vec3 dem_pair_forces(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                    const StepBuffers& b, const GridSpec& g, const Params& p,
                                    int first_row = 0, int row_step = 1) {
    return dem_pair_forces_over<M>(i, pos, vel, id, b, p, [&](auto&& visit) {
        for_each_candidate(pos, b, g, visit, first_row, row_step);
    });
}

// The scatter form of the same sum (Newton's third law): each touching pair once, from the
// particle earlier in cell order. Returns the force on i from its later neighbours and hands
// the opposite force to add_to_other(j, f) (an atomic add where particles run in parallel).
// Pair forces are exactly antisymmetric (contact_force), so both forms compute the same
// physics; only the order of the float sums differs.
template <Memory M = Memory::Sorted, typename AddToOther>
PLAB_HD inline Vec3 dem_pair_forces_half(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                         const StepBuffers& b, const GridSpec& g, const Params& p,
                                         AddToOther&& add_to_other) {
    const float reach2 = 4.f * p.radius * p.radius;
    Vec3 force{};
    for_each_later_candidate(i, pos, b, g, [&](uint32_t j) {
        const uint32_t s = stored_at<M>(b, j);
        const Vec3 other = xyz(load(read_pos<M>(b) + s));
        if (length_squared(other - pos) >= reach2) return;
        const Vec3 f = contact_force(pos, vel, id, p.radius, other, xyz(load(read_vel<M>(b) + s)),
                                     load(read_id<M>(b) + s), p.radius, p);
        force += f;
        add_to_other(j, -f);
    });
    return force;
}

// The forces on a bead besides its neighbours': the collider and the scene's bodies.
PLAB_HD inline Vec3 dem_body_forces(Vec3 pos, Vec3 vel, uint32_t id, const GeometryView& geo,
                                    const Params& p) {
    return collider_force(pos, vel, id, p) + mesh_force(pos, vel, id, geo, p);
}

// Velocity after the step's forces: pair forces, the collider, the bodies, gravity.
PLAB_HD inline Float4 dem_new_velocity(Vec3 pos, Vec3 vel, uint32_t id, Vec3 pair_force,
                                       const GeometryView& geo, const Params& p) {
    return to_float4(kick(vel, pair_force + dem_body_forces(pos, vel, id, geo, p), p));
}

template <Memory M = Memory::Sorted>
PLAB_HD inline void dem_force_particle(uint32_t i, const StepBuffers& b, const GridSpec& g,
                                       const Params& p) {
    const uint32_t s = stored_at<M>(b, i);
    const Vec3 pos = xyz(load(read_pos<M>(b) + s));
    const Vec3 vel = xyz(load(read_vel<M>(b) + s));
    const uint32_t id = load(read_id<M>(b) + s);
    *kicked_velocity<M>(b, i) =
        dem_new_velocity(pos, vel, id, dem_pair_forces<M>(i, pos, vel, id, b, g, p), b.geometry, p);
}

// Drift with walls from cell-ordered position `pos` and the kicked velocity `vel`, written
// back into the state arrays A (which nothing reads during the force pass: neighbours are
// read from S, so the CUDA backend can fuse this into its force kernel). Returns the new
// position (what A.pos[i] now holds), for a caller that hashes it.
PLAB_HD inline Vec3 dem_drift_into_state(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                         const StepBuffers& b, const Params& p, const Domain& d) {
    drift_and_walls(pos, vel, p, d);
    b.pos[i] = to_float4(pos);
    b.vel[i] = to_float4(vel);
    b.id[i] = id;
    return pos;
}

// Sorted: i is a cell-order position (S.pos[i] drifts with the kicked A.vel[i]). Unsorted: i
// is an index into A (A.pos[i] drifts with the kicked S.vel[i]); each particle writes only
// itself, so this pass may update A in place.
template <Memory M = Memory::Sorted>
PLAB_HD inline void dem_drift_particle(uint32_t i, const StepBuffers& b, const Params& p,
                                       const Domain& d) {
    if constexpr (M == Memory::Sorted)
        dem_drift_into_state(i, xyz(load(b.sorted_pos + i)), xyz(b.vel[i]), b.sorted_id[i], b, p,
                             d);
    else
        dem_drift_into_state(i, xyz(b.pos[i]), xyz(b.sorted_vel[i]), b.id[i], b, p, d);
}

// The double-precision state's kick and drift for cell-order position i, from the pair force
// computed in float: the velocity and position are updated in double from their double
// copies in S (so the small v·dt added to a large position every step is not rounded to
// float), written to A in double and rounded to float for the next step's forces.
PLAB_HD inline void dem_kick_drift_hi(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id, Vec3 pair_force,
                                      const StepBuffers& b, const Params& p, const Domain& d) {
    const Vec3 force = pair_force + dem_body_forces(pos, vel, id, b.geometry, p);
    const Vec3d gravity{p.gravity_x, p.gravity_y, p.gravity_z};
    Vec3d v = xyz(b.sorted_vel_hi[i]) +
              (to_vec3d(force) * (1.0 / double(p.mass)) + gravity) * double(p.dt);
    Vec3d x = xyz(b.sorted_pos_hi[i]);
    drift_and_walls(x, v, p, d);
    b.pos_hi[i] = to_double4(x);
    b.vel_hi[i] = to_double4(v);
    b.pos[i] = to_float4(x);
    b.vel[i] = to_float4(v);
    b.id[i] = id;
}

}  // namespace plab::sim
