#pragma once
// What the ranks of a slab decomposition hand each other, and one rank's step: the same code
// whether the ranks live in one process (ranks_in_one_process.h) or in several over a transport
// (rank_stepper.h, rank_transport.h).
//
// A rank steps its own particles with a halo of its neighbours' copies, in global id order: the
// simulators sum the forces on a particle in the order of its cell's particles, which the CPU
// grid keeps in memory order, so a rank whose memory runs in id order sums exactly as the whole
// domain does (with the grid rebuilt every step: lists off).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/vec.h"
#include "sim/engine/initial_state.h"
#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/physics/friction_record.h"
#include "sim/ranks/slab_decomposition.h"

namespace plab::sim {

// Particles with their global ids, and under the frictional law each one's row of its state
// (friction_rows.h).
struct Parcel {
    std::vector<uint32_t> id;
    std::vector<Float4> pos, vel;
    std::size_t row_bytes = 0;    // friction_row_bytes() under the frictional law, else 0
    std::vector<std::byte> rows;  // row_bytes a particle

    std::size_t size() const { return id.size(); }
    // A particle without a frictional row (row_bytes 0).
    void push(uint32_t i, Float4 p, Float4 v) {
        id.push_back(i);
        pos.push_back(p);
        vel.push_back(v);
    }
    // Particle k of `from`, its row with it.
    void push_from(const Parcel& from, std::size_t k);
    void append(const Parcel& other);
    const std::byte* row(std::size_t k) const { return rows.data() + k * row_bytes; }
};

// For every rank (the vector's index), the particles of `own` its halo holds.
std::vector<Parcel> halo_parcels(const SlabDecomposition& slabs, const Parcel& own);

// Takes the particles whose centres left rank `me`'s slab out of `own` (the others keep their
// order) and returns them by the rank that owns them now.
std::vector<Parcel> take_migrants(const SlabDecomposition& slabs, int me, Parcel& own);

// One step of `one` (a single substep) for a rank: `own` with `halo` stepped together in id
// order by `simulator`, reset from `scene` (its domain, grid and bodies; its particles are
// ignored); `own` takes its particles' new state, the halo's is dropped. Throws plab::Error when
// an id is in both.
void step_with_halo(Simulator& simulator, const InitialState& scene, const Params& one, Parcel& own,
                    const Parcel& halo);

// The particles (ids = their index) that rank `me` of `slabs` owns. With `frictional`, each
// with its row of `friction` (a record by id; empty: the law has not run, every row at rest).
Parcel own_share(const SlabDecomposition& slabs, int me, const std::vector<Float4>& pos,
                 const std::vector<Float4>& vel, bool frictional = false,
                 const FrictionRecord& friction = {});

// Every particle of `parts` put at its id: throws plab::Error naming an id held twice or
// missing (a lost or doubled particle).
Snapshot in_id_order(const Parcel& parts);
// The frictional state of `parts` by id (empty without rows); the ids as in_id_order checks.
FrictionRecord friction_in_id_order(const Parcel& parts);

}  // namespace plab::sim
