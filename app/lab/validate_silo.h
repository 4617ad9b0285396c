#pragma once
// The silo case of `particle-lab validate` (validate.h): a fill of beads drains through a
// circular orifice in the silo's floor, against Beverloo's law (sim/validation/silo_validation.h),
// with a frictional preset (--preset glass-beads, the default, or sand-like).
#include <iosfwd>

#include "app/lab/validate_config.h"
#include "sim/engine/simulator.h"

namespace plab::app {

// Settles one fill, then drains it through every orifice of `c.orifices` (bead diameters) in
// turn; passes when Beverloo's C fitted over all orifices with k = 1.5 lies in
// [kBeverlooCMin, kBeverlooCMax], every orifice's flow is within 10% of that law, the flow in
// each window of fill height is within 10% of the orifice's fitted flow, no flow stopped and
// every run stayed finite. Writes DIR/silo.csv (a row per orifice) and
// DIR/silo_series.csv (the discharged mass against time).
bool validate_silo(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out);

// The band of C that experiments find (Beverloo et al. 1961: C ≈ 0.58) and where it comes from.
inline constexpr double kBeverlooCMin = 0.5;
inline constexpr double kBeverlooCMax = 0.65;
inline constexpr double kBeverlooSpread = 0.10;
inline constexpr const char* kBeverlooSource =
    "Beverloo, Leniger & van de Velde, Chem. Eng. Sci. 15, 260 (1961): "
    "W = C rho_b sqrt(g) (D - 1.5 d)^(5/2), C = 0.5-0.65";

}  // namespace plab::app
