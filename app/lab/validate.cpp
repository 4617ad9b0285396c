#include "app/lab/validate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>
#include <sstream>

#include "app/lab/interrupt.h"
#include "app/lab/output_file.h"
#include "app/lab/validate_drum.h"
#include "app/lab/validate_granular.h"
#include "app/lab/validate_silo.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/model/run_checks.h"
#include "sim/run/make_simulator.h"
#include "sim/validation/sph_validation.h"

namespace plab::app {
namespace {

using sim::format_numbers;

// Ends the case's run at the next step once SIGINT or SIGTERM arrived (interrupt.h).
void stop_when_interrupted() { throw_if_interrupted("before the case finished"); }

// The SPH cases' default resolution.
constexpr int kSphResolution = 40;

bool dam_break(const ValidateConfig& config, sim::Simulator& sim, std::ostream& out) {
    ValidateConfig c = config;
    if (c.resolution == 0) c.resolution = kSphResolution;
    PLAB_REQUIRE(c.resolution >= 4 && c.resolution <= 400, "--resolution must be in [4, 400]");
    PLAB_REQUIRE(c.depth >= 1 && c.depth <= 400, "--depth must be in [1, 400]");
    const auto path = c.out / "dam_break.csv";
    // Checked before the run (minutes at full resolution), not when its results are in.
    require_writable(path);
    const sim::SphCase sc = sim::dam_break_case(c.resolution, c.depth);
    out << "dam break (Martin & Moyce 1952, n² = 2): column a = " << sc.a << " m, " << sc.particles
        << " particles (" << c.resolution << " across a, " << c.depth
        << " layers deep), sound speed " << sc.params.sound_speed << " m/s, dt " << sc.params.dt
        << " s\n";
    out << sim::warning_lines(sim::check_run(sc.scene, sc.params), "WARNING: ");
    const auto front = sim::run_dam_break(sim, sc, 3.5, 0.02, stop_when_interrupted);
    std::ostringstream f;
    f << "# case=dam_break a_m=" << sc.a << " particles=" << sc.particles
      << " resolution=" << c.resolution << " depth=" << c.depth
      << " backend=" << sim::backend_name(sim.backend()) << "\nT,Z\n";
    for (const auto& s : front) f << s.t << "," << s.z << "\n";
    write_whole_file(path, f.str());
    double worst = 0;
    for (const auto& s : front)
        if (s.t >= 0.41 && s.t <= 3.0)
            worst = std::max(worst, std::abs(s.z / sim::martin_moyce_front(s.t) - 1));
    out << "      T   Martin & Moyce Z   simulated Z   error\n";
    for (const auto& ref : sim::martin_moyce_points()) {
        const auto near = std::min_element(front.begin(), front.end(), [&](auto a, auto b) {
            return std::abs(a.t - ref.t) < std::abs(b.t - ref.t);
        });
        out << format_numbers("  %5.2f   %16.2f   %11.3f   %+5.1f%%\n", ref.t, ref.z, near->z,
                              100 * (near->z / ref.z - 1));
    }
    const sim::DelayFit fit = sim::fit_start_delay(front, 3.0, 0.5);
    out << format_numbers(
        "with the start delayed by ΔT = %.2f (the experiment's release), worst error %.1f%%\n",
        fit.delay, 100 * fit.worst);
    const bool pass = worst <= 0.10;
    out << format_numbers("worst front error for T in [0.41, 3]: %.1f%% (threshold 10%%): ",
                          100 * worst)
        << (pass ? "PASS" : "FAIL") << "\nwrote " << path.string() << "\n";
    return pass;
}

bool hydrostatic(const ValidateConfig& config, sim::Simulator& sim, std::ostream& out) {
    ValidateConfig c = config;
    if (c.resolution == 0) c.resolution = kSphResolution;
    PLAB_REQUIRE(c.resolution >= 10 && c.resolution <= 400, "--resolution must be in [10, 400]");
    PLAB_REQUIRE(c.settle >= 0 && c.settle <= 60, "--settle must be in [0, 60] s (0: automatic)");
    const auto path = c.out / "hydrostatic.csv";
    require_writable(path);
    const sim::SphCase sc = sim::hydrostatic_case(c.resolution, 2 * c.resolution);
    out << "hydrostatic tank: depth H = " << sc.a << " m, " << sc.particles
        << " particles, sound speed " << sc.params.sound_speed << " m/s, dt " << sc.params.dt
        << " s\n";
    out << sim::warning_lines(sim::check_run(sc.scene, sc.params), "WARNING: ");
    // Settle for about ten sloshing periods of the tank unless told, then average 20
    // snapshots.
    const double settle = c.settle > 0 ? c.settle : std::max(0.4, 8.0 * std::sqrt(sc.a / 9.81));
    const sim::DepthProfile prof =
        sim::run_hydrostatic(sim, sc, settle, 20, 0.01, stop_when_interrupted);
    const double spacing = 2.0 * sc.params.radius, g = 9.81, rho0 = sc.params.rest_density;
    // Checked: away from the floor and from the free surface (two kernel reaches).
    const double y_lo = 3.0 * spacing, y_hi = sc.a - 5.0 * spacing;
    const sim::PressureFit fit = sim::fit_pressure(prof, y_lo, y_hi, rho0 * g);
    out << "settled: top particle layer at " << prof.surface - 0.5 * spacing
        << " m; the pressure vanishes at H = " << fit.surface << " m (placed at " << sc.a
        << " m); free slope " << format_numbers("%.4f", fit.slope / (rho0 * g)) << " rho0 g\n";
    std::ostringstream f;
    f << "# case=hydrostatic H_m=" << sc.a << " particles=" << sc.particles
      << " backend=" << sim::backend_name(sim.backend()) << " settle_s=" << settle
      << " surface_m=" << fit.surface << " top_layer_m=" << prof.surface - 0.5 * spacing
      << "\ny_m,pressure_pa,expected_pa,expected_placed_pa,density,checked\n";
    double worst = 0, worst_density = 0, worst_placed = 0;
    for (std::size_t k = 0; k < prof.y.size(); ++k) {
        if (prof.count[k] == 0) continue;
        // The law below the settled surface (the criterion), and below the height the
        // column was placed at, which the settled liquid no longer reaches.
        const double expected = rho0 * g * (fit.surface - prof.y[k]);
        const double placed = rho0 * g * (sc.a - prof.y[k]);
        const bool checked = prof.y[k] >= y_lo && prof.y[k] <= y_hi;
        f << prof.y[k] << "," << prof.pressure[k] << "," << expected << "," << placed << ","
          << prof.density[k] << "," << (checked ? 1 : 0) << "\n";
        if (!checked) continue;
        worst = std::max(worst, std::abs(prof.pressure[k] / expected - 1));
        worst_placed = std::max(worst_placed, std::abs(prof.pressure[k] / placed - 1));
        worst_density = std::max(worst_density, std::abs(prof.density[k] / rho0 - 1));
    }
    write_whole_file(path, f.str());
    out << format_numbers("against the placed height instead: worst pressure error %.1f%%\n",
                          100 * worst_placed);
    const double sink = std::abs(sc.a - fit.surface) < 5e-5 ? 0.0 : sc.a - fit.surface;
    const bool pass = worst <= 0.05 && worst_density <= 0.01 && std::abs(sink) <= spacing;
    out << format_numbers(
               "worst pressure error %.1f%% (threshold 5%%), worst density error %.2f%% "
               "(threshold 1%%), surface %.1f mm below the placed height (threshold one spacing, ",
               100 * worst, 100 * worst_density, 1000 * sink)
        << format_numbers("%.0f mm): ", 1000 * spacing) << (pass ? "PASS" : "FAIL") << "\nwrote "
        << path.string() << "\n";
    return pass;
}

}  // namespace

bool run_validation(const ValidateConfig& c, std::ostream& out, std::ostream* progress) {
    std::string why;
    auto sim = sim::make_simulator(c.backend, &why);
    out << "backend " << sim::backend_name(sim->backend()) << ": " << sim->device_name() << "\n";
    if (!why.empty()) out << "note: CUDA not used: " << why << "\n";
    if (progress) *progress << "running " << c.which << " ...\n" << std::flush;
    const auto start = std::chrono::steady_clock::now();
    bool pass = false;
    try {
        if (c.which == "dam-break")
            pass = dam_break(c, *sim, out);
        else if (c.which == "hydrostatic")
            pass = hydrostatic(c, *sim, out);
        else if (c.which == "column-collapse")
            pass = validate_column_collapse(c, *sim, out);
        else if (c.which == "angle-of-repose")
            pass = validate_angle_of_repose(c, *sim, out);
        else if (c.which == "silo")
            pass = validate_silo(c, *sim, out);
        else if (c.which == "drum")
            pass = validate_drum(c, *sim, out);
        else
            throw Error("unknown validation case '" + c.which +
                        "'; available: dam-break, hydrostatic, column-collapse, angle-of-repose, "
                        "silo, drum");
    } catch (const Interrupted& e) {
        // A case that did not finish has no result: its file is not written (an earlier one
        // stays as it was).
        throw Interrupted(std::string(e.what()) + ": nothing was written into " + c.out.string());
    }
    // How the last run stepped: the variants' defaults differ by backend and contact law.
    out << "step: neighbour lists "
        << (sim->effective_options().effective.neighbour_list ? "on" : "off");
    if (const std::string launch = sim->launch_summary(); !launch.empty()) out << "; " << launch;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << format_numbers("\nwall time %.1f s\n", s);
    return pass;
}

}  // namespace plab::app
