#pragma once
// The divergence guard: decides from a step's statistics whether the simulation has blown up
// (or is about to), and says which parameter to change. The app pauses on it; bench stops.
#include <string>

#include "sim/engine/simulator.h"
#include "sim/model/params.h"

namespace plab::sim {

// Empty while the state is sound. Otherwise one sentence: what is wrong, then which
// parameter to lower or raise, with its current value (and for SPH the CFL limit on dt).
//   - any particle with a NaN or infinite position or velocity;
//   - DEM: a particle moving more than two diameters per step (contacts are then skipped);
//   - SPH: a particle faster than the speed of sound (the weakly compressible model then
//     no longer holds: the density error grows as (v/c)² and the step as v·dt/h).
std::string divergence_reason(const SimStats& stats, const Params& p);

}  // namespace plab::sim
