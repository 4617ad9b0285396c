#pragma once
// Closed-form results of the linear spring–dashpot contact, used to derive stable presets and
// to check the simulation. For two equal particles of mass m the overlap δ obeys
//   μ δ'' + c δ' + k δ = 0,  μ = m/2 (reduced mass),
// because each particle feels c·(relative velocity) and k·δ. With ω₀ = √(k/μ) and the damping
// ratio ζ = c / (2√(kμ)) < 1, contact lasts t_c = π / (ω₀√(1−ζ²)) and the normal restitution is
//   e = exp(−ζπ / √(1−ζ²)).
#include <cmath>

namespace plab::sim {

inline double reduced_mass(double mass) { return 0.5 * mass; }

inline double damping_ratio(double spring, double damping, double mass) {
    return damping / (2.0 * std::sqrt(spring * reduced_mass(mass)));
}

inline double contact_time(double spring, double damping, double mass) {
    const double zeta = damping_ratio(spring, damping, mass);
    const double omega0 = std::sqrt(spring / reduced_mass(mass));
    return M_PI / (omega0 * std::sqrt(1.0 - zeta * zeta));
}

inline double predicted_restitution(double spring, double damping, double mass) {
    const double zeta = damping_ratio(spring, damping, mass);
    return std::exp(-zeta * M_PI / std::sqrt(1.0 - zeta * zeta));
}

// The dashpot coefficient that gives restitution e (0 < e ≤ 1).
inline double damping_for_restitution(double e, double spring, double mass) {
    const double ln_e = std::log(e);
    const double zeta = -ln_e / std::sqrt(M_PI * M_PI + ln_e * ln_e);
    return 2.0 * zeta * std::sqrt(spring * reduced_mass(mass));
}

// Explicit DEM is stable and accurate when a contact spans about 20 steps: dt = t_c / 20,
// with t_c the undamped contact time π√(μ/k).
inline double stable_dt(double spring, double mass) {
    return contact_time(spring, 0.0, mass) / 20.0;
}

// The largest dt at which the explicit step still resolves contacts (the start-up check warns
// above it; sim/model/run_checks.h): 1/ω₀ = √(μ/k) = t_c/π for the stiffness k of the spring and
// the attraction together, and μ/(2c) for the dashpots c (damping and shear). A particle held
// by a dense pack oscillates up to about twice as fast as one pair (ω ≈ 2ω₀) and semi-implicit
// Euler diverges once ω·dt > 2, so both limits keep such a pack stable; stable_dt (t_c/20) is
// the accurate choice well below them. Infinite without springs and dashpots.
inline double dem_max_dt(double spring, double attraction, double damping, double shear,
                         double mass) {
    const double mu = reduced_mass(mass), k = spring + attraction, c = damping + shear;
    const double by_spring = k > 0 ? std::sqrt(mu / k) : INFINITY;
    const double by_dashpot = c > 0 ? mu / (2.0 * c) : INFINITY;
    return std::fmin(by_spring, by_dashpot);
}

}  // namespace plab::sim
