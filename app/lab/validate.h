#pragma once
// `particle-lab validate dam-break|hydrostatic|column-collapse|angle-of-repose|silo`: the SPH and
// granular validation cases at a chosen resolution on any backend, with their data written as
// CSV for scripts/plot_validation.py and a summary against the acceptance thresholds (front
// within 10% of Martin & Moyce for T ≤ 3; pressure within 5% of ρ₀ g (H − y) away from the
// floor and the surface, H the settled surface, found within a spacing of the placed height;
// granular runout within 15% of Lajeunesse et al. 2005; pile angle within 2° of the measured
// repose angle, validate_granular.h; silo discharge against Beverloo's law, validate_silo.h).
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "sim/simulator.h"

namespace plab::app {

struct ValidateConfig {
    // "dam-break", "hydrostatic", "column-collapse", "angle-of-repose" or "silo".
    std::string which;
    sim::Backend backend = sim::Backend::Auto;
    // Particles across the column width a (dam break) or the tank (hydrostatic), 40 by
    // default; beads across the column's smaller side (column collapse, 6), the cylinder's
    // radius (angle of repose, 10) or the silo (14). 0: the case's default.
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
    // Column collapse, angle of repose and silo: the frictional preset (glass-beads or
    // sand-like).
    std::string preset = "glass-beads";
    std::filesystem::path out = "validation";
};

// Runs one case, prints the comparison to `out`, writes DIR/<case>.csv. Returns true when
// the case meets its thresholds. Throws plab::Error on bad input or an unwritable file (both
// before the run), and Interrupted on SIGINT/SIGTERM (interrupt.h; nothing is written then).
bool run_validation(const ValidateConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
