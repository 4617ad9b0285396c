#include "sim/run/divergence.h"

#include <cmath>

#include "sim/core/format_numbers.h"
#include "sim/physics/sph_kernel.h"

namespace plab::sim {
namespace {

std::string advice(const Params& p, float speed) {
    if (p.model == Model::Sph)
        return format_numbers(
            "Lower dt (now %g s; the CFL limit at this speed is %g s) or raise "
            "viscosity (now %g).",
            p.dt, sph_max_dt(p, std::isfinite(speed) ? speed : 0.f), p.viscosity);
    return format_numbers("Lower dt (now %g s) or spring (now %g N/m).", p.dt, p.spring);
}

}  // namespace

std::string divergence_reason(const SimStats& s, const Params& p) {
    if (s.non_finite > 0)
        return std::to_string(s.non_finite) +
               " particles have a NaN or infinite position or velocity. " + advice(p, s.max_speed);
    if (p.model == Model::Sph && s.max_speed > p.sound_speed)
        return format_numbers(
                   "A particle moves at %.3g m/s, faster than the speed of sound (%g m/s): "
                   "the liquid is no longer weakly compressible. ",
                   s.max_speed, p.sound_speed) +
               advice(p, s.max_speed) + " Or raise sound_speed.";
    if (p.model == Model::Dem && s.max_speed * p.dt > 4.f * p.radius)
        return format_numbers(
                   "A particle moves %.3g m per step, more than two diameters (%.3g m), so "
                   "contacts are skipped. ",
                   s.max_speed * p.dt, 4.f * p.radius) +
               advice(p, s.max_speed);
    return {};
}

}  // namespace plab::sim
