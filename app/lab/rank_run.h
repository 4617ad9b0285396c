#pragma once
// A bench configuration's scene set up over the job's ranks (sim/ranks/rank_stepper.h): every
// rank builds the scene as the bench does, the slabs are cut at the particles' quantiles, and
// each rank keeps its share. What `mpirun ... bench` times (rank_bench.h) and exports
// (rank_export.h) is stepped through it.
#include <iosfwd>
#include <memory>
#include <string>

#include "app/lab/bench_config.h"
#include "app/lab/bench_run.h"
#include "sim/ranks/rank_stepper.h"
#include "sim/ranks/rank_transport.h"

namespace plab::app {

class RankRun {
  public:
    // Every rank calls it. Throws plab::Error when the scene has emitters or sinks (they change
    // the particle count), or as BenchRun and RankStepper do.
    RankRun(const BenchConfig& config, sim::RankTransport& transport);

    void step() { stepper_.step(run_.params()); }
    bool root() const { return transport_.rank() == 0; }
    // Collective: gathers the particles, and on rank 0 resets the bench's own simulator with them
    // (the whole state in one place: the divergence guard, checkpoints and exports read it
    // there). True on rank 0.
    bool gather();
    // Rank 0, after gather(): why the state is no result ("" when sound), said as `when`.
    std::string invalid(const char* when);

    sim::RankStepper& stepper() { return stepper_; }
    sim::RankTransport& transport() { return transport_; }
    BenchRun& bench() { return run_; }
    const sim::Params& params() const { return run_.params(); }
    std::size_t particles() const { return particles_; }
    // The configuration lines every rank report starts with (backend, model, particles, slabs).
    void describe(std::ostream& out);

  private:
    sim::RankTransport& transport_;
    BenchRun run_;
    sim::InitialState scene_;  // the domain, grid and bodies the gathered state goes back into
    std::size_t particles_ = 0;
    sim::RankStepper stepper_;
};

}  // namespace plab::app
