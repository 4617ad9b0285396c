#pragma once
// The rotating drum case of `particle-lab validate` (validate.h): glass beads in a drum turning
// about its horizontal axis in the rolling regime, the free surface's dynamic angle of repose
// against Alizadeh et al.'s experiment (sim/validation/drum_validation.h), with a frictional
// preset (--preset glass-beads, the default, or sand-like).
#include <iosfwd>

#include "app/lab/validate_config.h"
#include "sim/engine/simulator.h"

namespace plab::app {

// Runs the drum `c.resolution` beads across (24 by default; 80 is the reference's bead) for
// `c.spin_up` s, then samples the surface's angle every 0.1 s for `c.measure` s; passes when
// the samples' mean lies within kDrumTolerance of the reference's 27°, no bead left the drum
// and every bead stayed finite. Writes DIR/drum.csv (the angle against time) and
// DIR/drum_surface.csv (the last sample's surface).
bool validate_drum(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out);

// Degrees the mean angle may lie from the reference's.
inline constexpr double kDrumTolerance = 3.0;

}  // namespace plab::app
