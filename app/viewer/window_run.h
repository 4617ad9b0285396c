#pragma once
// The window's run (sim/run/run.h) as the command line asks for it, and the window's default
// scene sizes.
#include <cstddef>

#include "app/viewer/app_config.h"
#include "sim/engine/simulator.h"
#include "sim/run/run.h"

namespace plab::app {

// --preset or --scene, --particles, --set and the variants, or --load's checkpoint with --set
// and the variants over it; steps of params.substeps (a frame's worth).
sim::RunStart window_start(const AppConfig& config);

// The default particle count for a backend.
std::size_t default_particles(sim::Backend backend);

}  // namespace plab::app
