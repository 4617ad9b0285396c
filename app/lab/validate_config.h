#pragma once
// What `particle-lab validate` was asked to run: the case, its size and its options. Read by
// validate.cpp, which dispatches, and by each case's runner (validate_granular, validate_silo).
#include <filesystem>
#include <string>
#include <vector>

#include "sim/engine/simulator.h"

namespace plab::app {

struct ValidateConfig {
    // "dam-break", "hydrostatic", "column-collapse", "angle-of-repose", "silo" or "drum".
    std::string which;
    sim::Backend backend = sim::Backend::Auto;
    // Particles across the column width a (dam break) or the tank (hydrostatic), 40 by
    // default; beads across the column's smaller side (column collapse, 6), the cylinder's
    // radius (angle of repose, 10), the silo (14) or the drum (24; 80 is the reference's bead).
    // 0: the case's default.
    int resolution = 0;
    int depth = 8;      // dam break: particle layers across the tank (z)
    double settle = 0;  // hydrostatic: seconds to settle before measuring; 0 = auto
    // Column collapse: the aspect ratios H0/L0 run, and the channel's width in beads.
    std::vector<double> aspects = {0.5, 1, 2, 3, 5, 7, 10};
    int channel = 8;
    // Silo: the orifice diameters run, in bead diameters; the fill's settled height in bead
    // diameters (the silo's width is `resolution`, 14 by default); seconds each orifice stays
    // open at most.
    std::vector<double> orifices = {5, 6, 7};
    int fill = 14;
    double open_time = 1.5;
    // Angle of repose: pour the pile grain by grain (sim::run_poured_pile) instead of lifting
    // the settled cylinder at once.
    bool pour = false;
    // Angle of repose: the reference's own piling test instead, a quasi-2D heap poured through
    // a slot into a channel (sim::run_poured_heap); `resolution` is then the channel's depth
    // in beads (18: the reference's size, 9 by default).
    bool heap = false;
    // Angle of repose: piles run one after another, each on its own floor and jitter; the
    // mean of their angles is judged (the reference averaged six).
    int piles = 1;
    // Angle of repose: simulated seconds a pile may take to come to rest before it is measured
    // as it stands.
    double rest_time = 6.0;
    // Drum: simulated seconds the drum turns before the surface is measured, and seconds it is
    // measured for.
    double spin_up = 2.0, measure = 3.0;
    // Drum: name=value overrides of the beads' dimensionless contact coefficients (friction,
    // rolling_friction, wall_friction, tangential_stiffness), applied over the scaled preset,
    // for runs that ask how the angle depends on them.
    std::vector<std::string> assignments;
    // Column collapse, angle of repose, silo and drum: the frictional preset (glass-beads or
    // sand-like).
    std::string preset = "glass-beads";
    std::filesystem::path out = "validation";
};

}  // namespace plab::app
