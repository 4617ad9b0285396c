#pragma once
// One rank of a run over several (processes or devices): it keeps the particles of its slab
// (slab_decomposition.h), and for every step takes a halo of its neighbours' particles through
// the transport, steps its own with them (rank_parcel.h: step_with_halo) and hands the particles
// that crossed a cut to their new rank. Every rank runs the same calls in the same order.
//
// Both DEM laws and SPH, without sources: under the frictional law each particle's rotation and
// contact memory travel with it (friction_rows.h). Each step restarts the rank's simulator from
// its particles: exact, not yet fast.
#include <cstddef>
#include <memory>
#include <vector>

#include "sim/engine/initial_state.h"
#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/ranks/rank_parcel.h"
#include "sim/ranks/rank_transport.h"
#include "sim/ranks/slab_decomposition.h"

namespace plab::sim {

// What the last step of a rank did.
struct RankStepStats {
    std::size_t halo = 0;      // halo particles it received
    std::size_t migrated = 0;  // particles it handed to other ranks
    double exchange_ms = 0;    // host clock in the transport (waiting for the others included)
    double compute_ms = 0;     // host clock stepping its particles
};

class RankStepper {
  public:
    // `scene` gives the domain, grid and bodies (its particles are not read). Throws
    // plab::Error when the decomposition's rank count is not the transport's, or as
    // require_rank_steppable.
    RankStepper(RankTransport& transport, SlabDecomposition slabs, InitialState scene,
                const Params& params, std::unique_ptr<Simulator> simulator);

    // The whole state (ids = index), the same on every rank: each keeps its slab's share. Under
    // the frictional law with `friction`, the law's state by id (empty: it starts at rest).
    void reset(const std::vector<Float4>& pos, const std::vector<Float4>& vel,
               const FrictionRecord& friction = {});
    // One step of `params` (each substep a step with its own exchange).
    void step(const Params& params);
    // Rank 0: every particle in id order (throws when one is lost or doubled), and under the
    // frictional law its state by id in `friction` when given; the others: empty.
    Snapshot gather(FrictionRecord* friction = nullptr);

    // Collective: the most particles a rank holds over the mean (1: even).
    double imbalance();
    // Collective: moves the cuts to the particles' quantiles now (balanced_slabs, every slab
    // still a halo wide) and hands each rank the particles of its new slab. The steps after
    // it are the same, bit for bit: only who steps which particle changes.
    struct Rebalance {
        double before = 0, after = 0;  // imbalance
        std::size_t moved = 0;         // particles this rank handed over
    };
    Rebalance rebalance();

    const Parcel& own() const { return own_; }
    const RankStepStats& last() const { return last_; }
    const SlabDecomposition& slabs() const { return slabs_; }
    RankTransport& transport() { return transport_; }

  private:
    void substep(const Params& one);

    RankTransport& transport_;
    SlabDecomposition slabs_;
    InitialState scene_;
    std::unique_ptr<Simulator> simulator_;
    Parcel own_;
    RankStepStats last_;
    bool frictional_ = false;
};

// The halo a rank needs to step `params` exactly: the interaction range for DEM; twice it for
// SPH, whose force on a particle reads its neighbours' densities of the same step, each summed
// over the neighbours' own neighbours.
float rank_halo(const Params& params);

// Throws plab::Error unless the ranks step `params` exactly: a halo at least
// rank_halo.
void require_rank_steppable(const Params& params, const SlabDecomposition& slabs);

}  // namespace plab::sim
