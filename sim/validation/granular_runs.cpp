#include "sim/validation/granular_runs.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/error.h"

namespace plab::sim::granular {

Params case_params(Preset preset, std::string_view what) {
    Params p = preset_params(preset);
    PLAB_REQUIRE(runs_frictional_law(p),
                 "the " + std::string(what) +
                     " case takes a frictional DEM preset (glass-beads, sand-like), not " +
                     std::string(preset_name(preset)));
    p.substeps = std::max(1, static_cast<int>(std::lround(0.005 / p.dt)));
    return p;
}

double rest_speed(const Params& p) { return 0.05 * std::sqrt(kG * 2.0 * p.radius); }

std::pair<double, bool> run_to_rest(Simulator& sim, const Params& p, double min_time,
                                    double max_time, const std::function<void()>& after_step) {
    const double step_time = call_time(p);
    const int check_every = std::max(1, static_cast<int>(std::lround(0.05 / step_time)));
    double t = 0;
    for (long calls = 1; t < max_time; ++calls) {
        sim.step(p);
        t += step_time;
        if (after_step) after_step();
        if (t >= min_time && calls % check_every == 0) {
            const SimStats st = sim.stats(p);
            if (st.non_finite > 0) return {t, false};
            if (st.max_speed < rest_speed(p)) return {t, true};
        }
    }
    return {t, false};
}

}  // namespace plab::sim::granular
