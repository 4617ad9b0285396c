#include "app/lab/validate_drum.h"

#include <cmath>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/lab/interrupt.h"
#include "app/lab/output_file.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/model/params.h"
#include "sim/validation/drum_validation.h"

namespace plab::app {
namespace {

using sim::format_numbers;

void stop_when_interrupted() { throw_if_interrupted("before the case finished"); }

// Sample the surface this often, s: a few times in the time a bead takes to roll down it.
constexpr double kSampleEvery = 0.1;

// The parameters --set may change: the dimensionless ones. The others (the bead's size, mass,
// stiffness, dashpots and step) are scaled with the bead by drum_case and stay its own.
constexpr std::string_view kSettable[] = {"friction", "rolling_friction", "wall_friction",
                                          "tangential_stiffness"};

// Applies --set's name=value overrides to `p`, refusing any other parameter.
void apply_overrides(sim::Params& p, const std::vector<std::string>& assignments) {
    for (const std::string& a : assignments) {
        const std::string name = a.substr(0, a.find('='));
        bool settable = false;
        for (std::string_view k : kSettable) settable = settable || name == k;
        PLAB_REQUIRE(settable, "--set " + a +
                                   ": the drum case sets only friction, rolling_friction, "
                                   "wall_friction and tangential_stiffness (it scales the "
                                   "others with the bead)");
        try {
            sim::apply_assignment(p, a);
        } catch (const Error& e) {
            throw Error("--set " + a + ": " + e.what());
        }
    }
}

// "friction=0.5 wall_friction=0.5", or "" without overrides.
std::string joined(const std::vector<std::string>& assignments) {
    std::string s;
    for (const std::string& a : assignments) s += (s.empty() ? "" : " ") + a;
    return s;
}

}  // namespace

bool validate_drum(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out) {
    const int resolution = c.resolution > 0 ? c.resolution : 24;
    PLAB_REQUIRE(resolution >= sim::kDrumMinResolution && resolution <= sim::kDrumMaxResolution,
                 format_numbers("--resolution must be in [%g, %g] for drum (beads across the drum)",
                                sim::kDrumMinResolution, sim::kDrumMaxResolution));
    PLAB_REQUIRE(std::isfinite(c.spin_up) && c.spin_up >= 0 && c.spin_up <= 600,
                 "--spin-up must be in [0, 600] s");
    PLAB_REQUIRE(std::isfinite(c.measure) && c.measure >= kSampleEvery && c.measure <= 600,
                 format_numbers("--measure must be in [%g, 600] s", kSampleEvery));
    const sim::Preset preset = sim::parse_preset(c.preset);
    PLAB_REQUIRE(preset == sim::Preset::GlassBeads || preset == sim::Preset::Sand,
                 "--preset must be glass-beads or sand-like for the drum case, not " + c.preset);
    const auto path = c.out / "drum.csv", surface_path = c.out / "drum_surface.csv";
    require_writable(path);
    require_writable(surface_path);
    sim::DrumCase dc = sim::drum_case(resolution, preset);
    apply_overrides(dc.params, c.assignments);
    const sim::Params& p = dc.params;
    const std::string overrides = joined(c.assignments);
    const std::string why = sim.unsupported(p);
    PLAB_REQUIRE(why.empty(), "the drum case cannot run on the " +
                                  std::string(sim::backend_name(sim.backend())) +
                                  " backend: " + why + " (use --backend cpu)");
    const sim::DrumReference& ref = sim::kDrumReference;
    const double d = 2.0 * p.radius;
    out << "rotating drum (" << ref.source << "):\na drum "
        << format_numbers("%g m across and %g m long (%.0f beads across), %.0f beads, %g rev/min",
                          2 * dc.radius, dc.length, resolution, dc.init.pos.size(), dc.rpm)
        << format_numbers("; spin-up %g s, then the surface every %g s for %g s\n", c.spin_up,
                          kSampleEvery, c.measure)
        << c.preset
        << format_numbers(
               " preset scaled to d = %g mm: k = %g N/m, mu_s = %g (walls %g), mu_r = %g, dt = "
               "%.3g s",
               1000.0 * d, p.spring, p.friction, p.wall_friction, p.rolling_friction, p.dt)
        << (overrides.empty() ? "" : " (set: " + overrides + ")") << "\n";
    const sim::DrumResult r =
        sim::run_drum(sim, dc, c.spin_up, c.measure, kSampleEvery, stop_when_interrupted);

    std::ostringstream f, s;
    f << "# case=drum resolution=" << resolution << " preset=" << c.preset
      << " backend=" << sim::backend_name(sim.backend()) << " particles=" << dc.init.pos.size()
      << format_numbers(" d_m=%g rpm=%g mean_deg=%.3f spread_deg=%.3f reference_deg=%g", d, dc.rpm,
                        r.mean_deg, r.spread_deg, ref.angle_deg)
      << (overrides.empty() ? "" : " set=" + overrides) << "\nt_s,angle_deg\n";
    for (const sim::DrumSample& x : r.samples) f << x.t << "," << x.angle_deg << "\n";
    s << "x_m,surface_m\n";
    for (std::size_t k = 0; k < r.last.x.size(); ++k)
        s << r.last.x[k] << "," << r.last.y[k] << "\n";
    write_whole_file(path, f.str());
    write_whole_file(surface_path, s.str());

    const bool pass = !r.samples.empty() && r.non_finite == 0 && r.escaped == 0 &&
                      std::abs(r.mean_deg - ref.angle_deg) <= kDrumTolerance;
    out << format_numbers("%.0f samples: angle %.1f +- %.1f deg (reference %g, threshold +-%g)",
                          r.samples.size(), r.mean_deg, r.spread_deg, ref.angle_deg, kDrumTolerance)
        << format_numbers(", %.0f beads out of the drum, %.0f non-finite: ", r.escaped,
                          r.non_finite)
        << (pass ? "PASS" : "FAIL")
        << (overrides.empty() ? "" : " (with " + overrides + ", not the preset's coefficients)")
        << "\nwrote " << path.string() << " and " << surface_path.string() << "\n";
    return pass;
}

}  // namespace plab::app
