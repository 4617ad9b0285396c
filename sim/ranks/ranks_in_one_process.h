#pragma once
// The ranks of one slab decomposition (slab_decomposition.h) stepped in one process: each rank
// its own simulator over the particles of its slab plus a halo copied from its two neighbours
// before every step; after the step it keeps its own particles, drops the halo, and hands the
// particles that crossed a cut to their new rank. This is the exchange the transports (MPI
// between processes, NCCL between GPUs) will carry, written once where it can be tested against
// one simulator: the particles a rank steps see every neighbour within the halo, in id order
// (rank_parcel.h), so on the CPU with the grid rebuilt every step each step is the whole
// domain's bit for bit.
//
// Both DEM laws and SPH (rank_stepper.h: require_rank_steppable, rank_halo). Each step
// restarts the ranks' simulators from their new particles (the reference's way: exact, not
// fast).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/ranks/rank_parcel.h"
#include "sim/ranks/slab_decomposition.h"

namespace plab::sim {

class RanksInOneProcess {
  public:
    using MakeSimulator = std::function<std::unique_ptr<Simulator>()>;

    // Throws plab::Error as require_rank_steppable: a halo narrower than rank_halo(params) (a
    // contact across a cut would be missed).
    RanksInOneProcess(SlabDecomposition slabs, Domain domain, GridSpec grid, const Params& params,
                      MakeSimulator make);

    // The particles (ids = their index) shared out to their ranks (under the frictional law,
    // each at rest: its rotation and memory start at zero).
    void reset(std::span<const Float4> pos, std::span<const Float4> vel);
    // One step of `params` (each substep a step with its own exchange).
    void step(const Params& params);
    // Every particle in id order.
    Snapshot gather() const;

    std::vector<std::size_t> counts() const;           // particles each rank owns
    std::size_t migrated() const { return moved_; }    // particles that changed rank last step
    std::size_t halo_copies() const { return halo_; }  // halo particles copied last step
    const SlabDecomposition& slabs() const { return slabs_; }

  private:
    struct Rank {
        Parcel own;
        std::unique_ptr<Simulator> simulator;
    };
    void substep(const Params& one);
    // Moves every particle whose centre left its rank's slab to the rank that holds it now.
    void migrate();

    SlabDecomposition slabs_;
    InitialState scene_;  // the domain and grid every rank steps in
    std::vector<Rank> ranks_;
    std::size_t moved_ = 0, halo_ = 0;
    bool frictional_ = false;  // the law's rows travel with the particles (friction_rows.h)
};

}  // namespace plab::sim
