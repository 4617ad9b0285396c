#include "sim/io/checkpoint_content.h"

#include <cmath>

#include "sim/core/format_numbers.h"

namespace plab::sim {
namespace {

// The id of the particle at slot i (the arrays are in memory order when `order` is given).
double id_of(const InitialState& s, std::size_t i) {
    return double(s.order.empty() ? i : s.order[i]);
}

bool finite3(double x, double y, double z) {
    return std::isfinite(x) && std::isfinite(y) && std::isfinite(z);
}

}  // namespace

std::string content_problem(const InitialState& s, const Params& p) {
    const std::size_t n = s.pos.size();
    if (n == 0) return "it holds no particles (a run has at least 1)";
    std::size_t non_finite = 0, first_bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        bool ok = finite3(s.pos[i].x, s.pos[i].y, s.pos[i].z) &&
                  finite3(s.vel[i].x, s.vel[i].y, s.vel[i].z);
        if (!s.pos_hi.empty())
            ok = ok && finite3(s.pos_hi[i].x, s.pos_hi[i].y, s.pos_hi[i].z) &&
                 finite3(s.vel_hi[i].x, s.vel_hi[i].y, s.vel_hi[i].z);
        if (!ok && non_finite++ == 0) first_bad = i;  // a memory slot; id_of names it
    }
    if (non_finite > 0) {
        const Float4 &x = s.pos[first_bad], &v = s.vel[first_bad];
        return "the file holds non-finite values: " + std::to_string(non_finite) + " of " +
               std::to_string(n) +
               " particles have a NaN or infinite position or velocity (the first, " +
               format_numbers("particle %.0f, at [%g, %g, %g] m moving at [%g, %g, %g] m/s); ",
                              id_of(s, first_bad), x.x, x.y, x.z, v.x, v.y, v.z) +
               "the run it was saved from had already diverged, or the file was written so; it "
               "cannot continue";
    }
    // The walls hold a particle's centre within a radius of them; a step may overshoot by a
    // little more. Four radii of the largest bead are far past anything a run leaves.
    const double slack = 4.0 * double(p.radius) * (1.0 + double(p.radius_spread));
    const Domain& d = s.domain;
    std::size_t outside = 0, first_out = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Float4& x = s.pos[i];
        const bool in = x.x >= d.min.x - slack && x.x <= d.max.x + slack &&
                        x.y >= d.min.y - slack && x.y <= d.max.y + slack &&
                        x.z >= d.min.z - slack && x.z <= d.max.z + slack;
        if (!in && outside++ == 0) first_out = i;
    }
    if (outside > 0) {
        const Float4& x = s.pos[first_out];
        return std::to_string(outside) + " of " + std::to_string(n) +
               format_numbers(
                   " particles lie outside the domain [%g, %g, %g] to [%g, %g, %g] m "
                   "by more than %g m (four radii; the first, particle %.0f, at "
                   "[%g, %g, %g] m): the state does not belong to its domain",
                   d.min.x, d.min.y, d.min.z, d.max.x, d.max.y, d.max.z, slack, id_of(s, first_out),
                   x.x, x.y, x.z);
    }
    return {};
}

}  // namespace plab::sim
