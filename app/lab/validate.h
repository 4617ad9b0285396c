#pragma once
// `particle-lab validate dam-break|hydrostatic`: the SPH validation cases at a chosen
// resolution on any backend, with their data written as CSV for scripts/plot_validation.py
// and a summary against the acceptance thresholds (front within 10% of Martin & Moyce for
// T ≤ 3; pressure within 5% of ρ₀ g (H − y) away from the floor and the surface, H the
// settled surface, found within a spacing of the placed height).
#include <filesystem>
#include <iosfwd>
#include <string>

#include "sim/simulator.h"

namespace plab::app {

struct ValidateConfig {
    std::string which;  // "dam-break" or "hydrostatic"
    sim::Backend backend = sim::Backend::Auto;
    int resolution = 40;  // particles across the column width a (dam break) or the tank
    int depth = 8;        // dam break: particle layers across the tank (z)
    double settle = 0;    // hydrostatic: seconds to settle before measuring; 0 = auto
    std::filesystem::path out = "validation";
};

// Runs one case, prints the comparison to `out`, writes DIR/<case>.csv. Returns true when
// the case meets its thresholds. Throws plab::Error on bad input or an unwritable file (both
// before the run), and Interrupted on SIGINT/SIGTERM (interrupt.h; nothing is written then).
bool run_validation(const ValidateConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
