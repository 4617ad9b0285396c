#pragma once
// `mpirun -n K particle-lab bench ...`: the bench's scene stepped by K ranks (one process each,
// sim/ranks/rank_stepper.h) over the job's transport; rank 0 prints the configuration, a table
// row per rank (its particles, halo, the particles that crossed its cuts, the time stepping and
// exchanging) and the total, and writes --save's checkpoint of the gathered state (which any
// rank count, one process included, continues).
#include <iosfwd>

#include "app/lab/bench_config.h"
#include "sim/ranks/rank_transport.h"

namespace plab::app {

// Every rank calls it. Returns false (rank 0 only) when the final state is no result: the
// divergence guard's reason is printed instead of the timings being presented as valid. Throws
// plab::Error on what the ranks cannot run yet (emitters or
// sinks, --render, --save-every, a window other than start) or a bad configuration.
bool run_rank_bench(const BenchConfig& config, sim::RankTransport& transport, std::ostream& out);

}  // namespace plab::app
