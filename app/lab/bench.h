#pragma once
// `particle-lab bench`: a headless run of the simulation that prints the configuration, the
// device and per-stage device timings (medians over the measured steps).
#include <iosfwd>

#include "app/lab/bench_config.h"

namespace plab::app {

// The exit code of a benchmark or sweep whose run diverged or holds non-finite particles: its
// timings are printed marked INVALID and are not a result.
inline constexpr int kInvalidRunExit = 3;

// Runs the benchmark and prints to `out` (progress goes to `progress` when not null). Returns
// false when the run diverged (the divergence guard's reason is printed first and the timings
// are marked INVALID). Throws plab::Error on bad configuration.
bool run_bench(const BenchConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
