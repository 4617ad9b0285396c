#pragma once
// `particle-lab validate dam-break|hydrostatic|column-collapse|angle-of-repose|silo`: the SPH and
// granular validation cases at a chosen resolution on any backend, with their data written as
// CSV for scripts/plot_validation.py and a summary against the acceptance thresholds (front
// within 10% of Martin & Moyce for T ≤ 3; pressure within 5% of ρ₀ g (H − y) away from the
// floor and the surface, H the settled surface, found within a spacing of the placed height;
// granular runout within 15% of Lajeunesse et al. 2005; pile angle within 2° of the measured
// repose angle, validate_granular.h; silo discharge against Beverloo's law, validate_silo.h).
#include <iosfwd>

#include "app/lab/validate_config.h"

namespace plab::app {

// Runs one case, prints the comparison to `out`, writes DIR/<case>.csv. Returns true when
// the case meets its thresholds. Throws plab::Error on bad input or an unwritable file (both
// before the run), and Interrupted on SIGINT/SIGTERM (interrupt.h; nothing is written then).
bool run_validation(const ValidateConfig& config, std::ostream& out, std::ostream* progress);

}  // namespace plab::app
