#pragma once
// `particle-lab bench`: a headless run of the simulation that prints the configuration, the
// device and per-stage device timings (medians over the measured steps).
#include <iosfwd>

#include "app/lab/bench_config.h"

namespace plab::app {

// Runs the benchmark and prints to `out` (progress goes to `progress` when not null).
// Throws plab::Error on bad configuration.
void run_bench(const BenchConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
