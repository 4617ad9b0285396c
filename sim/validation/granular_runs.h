#pragma once
// What the granular validation cases (sim/validation/granular_validation.h,
// sim/validation/silo_validation.h) share: a frictional preset's parameters with its steps grouped
// into calls of about 5 ms, and a run until the beads are at rest.
#include <functional>
#include <string_view>
#include <utility>

#include "sim/engine/simulator.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"

namespace plab::sim::granular {

inline constexpr double kG = 9.81;  // m/s², the frictional presets' gravity

// `preset` (a frictional DEM preset: glass-beads, sand-like) with its steps grouped so that one
// Simulator::step call is about 5 ms of simulated time (the runners look at the beads between
// calls). Throws plab::Error naming the case `what` for any other preset.
Params case_params(Preset preset, std::string_view what);

// Simulated seconds of one Simulator::step call.
inline double call_time(const Params& p) { return double(p.dt) * p.substeps; }

// "At rest": every finite bead slower than 5% of √(g·d), m/s.
double rest_speed(const Params& p);

// Steps until the beads are at rest (checked every 0.05 s once `min_time` has passed) or
// `max_time` has passed; returns the time run and whether they came to rest (not when a bead
// is no longer finite). `after_step` runs after every call; an exception from it ends the run.
std::pair<double, bool> run_to_rest(Simulator& sim, const Params& p, double min_time,
                                    double max_time, const std::function<void()>& after_step);

}  // namespace plab::sim::granular
