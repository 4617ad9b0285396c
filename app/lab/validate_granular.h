#pragma once
// The granular cases of `particle-lab validate` (validate.h): column-collapse and
// angle-of-repose with a frictional preset (--preset glass-beads, the default, or sand-like;
// sim/validation/granular_validation.h).
#include <iosfwd>

#include "app/lab/validate_config.h"
#include "sim/engine/simulator.h"

namespace plab::app {

// Lajeunesse et al. (2005) runout for every aspect ratio of `c.aspects`; passes when each is
// within 15% of the reference and every run stayed finite. Writes DIR/column_collapse.csv.
bool validate_column_collapse(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out);

// The lifted cylinder's pile angle against the glass-bead experiment sim::kReposeReference;
// passes within 2°. Writes DIR/angle_of_repose.csv.
bool validate_angle_of_repose(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out);

}  // namespace plab::app
