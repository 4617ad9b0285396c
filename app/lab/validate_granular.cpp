#include "app/lab/validate_granular.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/interrupt.h"
#include "app/lab/output_file.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/validation/granular_validation.h"

namespace plab::app {
namespace {

using sim::format_numbers;

void stop_when_interrupted() { throw_if_interrupted("before the case finished"); }

// Seconds a case may run (simulated) before it is measured as it stands.
constexpr double kMaxTime = 6.0;

sim::Preset granular_preset(const ValidateConfig& c) {
    const sim::Preset p = sim::parse_preset(c.preset);
    PLAB_REQUIRE(
        p == sim::Preset::GlassBeads || p == sim::Preset::Sand,
        "--preset must be glass-beads or sand-like for the granular cases, not " + c.preset);
    return p;
}

// The frictional law runs where the backend has it (the CPU's so far); say so before running.
void require_supported(const sim::Simulator& sim, const sim::Params& p) {
    const std::string why = sim.unsupported(p);
    PLAB_REQUIRE(why.empty(), "the granular cases cannot run on the " +
                                  std::string(sim::backend_name(sim.backend())) +
                                  " backend: " + why + " (use --backend cpu)");
}

void describe(const ValidateConfig& c, const sim::Params& p, std::ostream& out) {
    out << c.preset
        << format_numbers(
               " preset: d = %g mm, k = %g N/m, mu_s = %g (walls %g), mu_r = %g, "
               "k_t/k_n = %.3g, dt = %.3g s\n",
               2000.0 * p.radius, p.spring, p.friction, p.wall_friction, p.rolling_friction,
               p.tangential_stiffness, p.dt);
}

}  // namespace

bool validate_column_collapse(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out) {
    const int res = c.resolution > 0 ? c.resolution : 6;
    PLAB_REQUIRE(res >= 2 && res <= 200, "--resolution must be in [2, 200] for column-collapse");
    PLAB_REQUIRE(c.channel >= 1 && c.channel <= 200, "--channel must be in [1, 200]");
    PLAB_REQUIRE(!c.aspects.empty(), "--aspect needs at least one aspect ratio");
    for (double a : c.aspects)
        PLAB_REQUIRE(a >= 0.1 && a <= 50,
                     "--aspect " + format_numbers("%g", a) + " must be in [0.1, 50]");
    const sim::Preset preset = granular_preset(c);
    const auto path = c.out / "column_collapse.csv";
    require_writable(path);
    out << "column collapse (Lajeunesse, Monnier & Homsy 2005, quasi-2D glass beads: "
           "(Linf - L0)/L0 = 1.8 a for a < 3, 2.3 a^(2/3) above): "
        << res << " beads across the column's smaller side, a channel " << c.channel
        << " beads wide\n";
    std::ostringstream f;
    f << "# case=column_collapse resolution=" << res << " channel=" << c.channel
      << " preset=" << c.preset << " backend=" << sim::backend_name(sim.backend())
      << "\na_placed,a,particles,l0_m,h0_m,front_m,runout,reference,error,t_stop_s,at_rest\n";
    double worst = 0;
    bool finite = true, first = true;
    for (double a : c.aspects) {
        const sim::GranularCase gc = sim::column_collapse_case(a, res, c.channel, preset);
        if (first) {
            require_supported(sim, gc.params);
            describe(c, gc.params, out);
            out << "  a placed   a settled   beads   runout   reference   error   stopped\n";
        }
        first = false;
        const sim::CollapseResult r =
            sim::run_column_collapse(sim, gc, kMaxTime, stop_when_interrupted);
        const double ref = sim::lajeunesse_runout(r.a);
        const double err = r.runout / ref - 1;
        worst = std::max(worst, std::abs(err));
        finite = finite && r.non_finite == 0;
        f << a << "," << r.a << "," << r.particles << "," << r.l0 << "," << r.h0 << "," << r.front
          << "," << r.runout << "," << ref << "," << err << "," << r.t_stop << ","
          << (r.came_to_rest ? 1 : 0) << "\n";
        out << format_numbers("  %8.2f   %9.2f   %5.0f   %6.2f   %9.2f   %+5.1f%%   ", a, r.a,
                              double(r.particles), r.runout, ref, 100 * err)
            << format_numbers("%.2f s", r.t_stop) << (r.came_to_rest ? "" : " (still moving)")
            << (r.non_finite ? " NON-FINITE" : "") << "\n";
    }
    write_whole_file(path, f.str());
    const bool pass = finite && worst <= 0.15;
    out << format_numbers("worst runout error %.1f%% (threshold 15%%): ", 100 * worst)
        << (pass ? "PASS" : "FAIL") << "\nwrote " << path.string() << "\n";
    return pass;
}

namespace {

// The angles of several piles: their mean, sample standard deviation and a list for the CSV.
struct Angles {
    std::vector<double> each;
    double mean() const {
        double m = 0;
        for (double a : each) m += a / double(each.size());
        return m;
    }
    double sd() const {
        if (each.size() < 2) return 0;
        const double m = mean();
        double var = 0;
        for (double a : each) var += (a - m) * (a - m);
        return std::sqrt(var / double(each.size() - 1));
    }
    std::string list() const {
        std::string l;
        for (double a : each) l += (l.empty() ? "" : ";") + format_numbers("%.3f", a);
        return l;
    }
};

// The profile's rows for the CSV, distances times `sign` (a heap's left flank: -1), each
// marked fitted when its height lies in the flank fit's 20%-80% of the top.
void write_profile_rows(std::ostream& f, const sim::PileProfile& prof, const sim::FlankFit& fit,
                        double sign) {
    for (std::size_t k = 0; k < prof.r.size(); ++k) {
        const double h = prof.h[k];
        const bool fitted = h >= 0.2 * fit.top && h <= 0.8 * fit.top;
        f << sign * prof.r[k] << "," << h << "," << (fitted ? 1 : 0) << "\n";
    }
}

// Writes the CSV, prints the mean over piles and judges it against the reference (glass beads
// only: the sand-like preset has its own coefficients and no experiment here to be held
// against). `sound`: every pile stayed finite and had flanks to fit.
bool judge_repose(const ValidateConfig& c, sim::Preset preset, const Angles& angles, bool sound,
                  const std::filesystem::path& path, const std::string& csv, std::ostream& out) {
    write_whole_file(path, csv);
    if (c.piles > 1)
        out << format_numbers("mean over %.0f piles: %.1f deg (standard deviation %.1f deg)\n",
                              c.piles, angles.mean(), angles.sd());
    if (preset != sim::Preset::GlassBeads) {
        out << "no reference for the " << c.preset << " preset's coefficients: "
            << (sound ? "not judged" : "FAIL (no flank to fit or non-finite beads)") << "\nwrote "
            << path.string() << "\n";
        return sound;
    }
    const double err = angles.mean() - sim::kReposeReference.angle_deg;
    const bool pass = sound && std::abs(err) <= 2.0;
    out << format_numbers("angle error %+.1f deg (threshold 2 deg): ", err)
        << (pass ? "PASS" : "FAIL") << "\nwrote " << path.string() << "\n";
    return pass;
}

// The angles of `relaxation` as text, each through `format` (time, angle) with its last
// character dropped from the last one; only the samples at least `every` s apart (0: all).
std::string relaxation_text(const std::vector<sim::HeapAngleAt>& relaxation, double every,
                            const char* format) {
    std::string text;
    double next = 0;
    for (const sim::HeapAngleAt& a : relaxation) {
        if (a.t + 1e-9 < next && &a != &relaxation.back()) continue;
        text += format_numbers(format, a.t, a.angle_deg);
        next = a.t + every;
    }
    if (!text.empty()) text.pop_back();
    return text;
}

// The reference's piling test: heaps poured through a slot into a narrow channel.
bool validate_heap(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out) {
    const int depth = c.resolution > 0 ? c.resolution : 9;
    PLAB_REQUIRE(depth >= 3 && depth <= 200,
                 "--resolution must be in [3, 200] for angle-of-repose --heap (the channel's "
                 "depth in beads)");
    const sim::Preset preset = granular_preset(c);
    const auto path = c.out / "angle_of_repose.csv";
    require_writable(path);
    const sim::GranularCase first = sim::heap_case(depth, preset);
    // The box in bead diameters, as the reference gives it, scaled by the depth.
    const sim::HeapShape& ref = sim::kReferenceHeap;
    const double scale = depth / ref.depth;
    out << "angle of repose: the reference's piling test, " << first.beads
        << format_numbers(
               " beads poured through a slot %.3g beads wide, %.3g above the floor, into a "
               "channel %.4g beads wide and %.0f deep",
               ref.slot * scale, ref.drop * scale, ref.width * scale, double(depth))
        << (depth == int(sim::kReferenceHeap.depth) ? " (the reference's size)" : "")
        << ", on a rough floor of " << first.floor.size() << " glued beads; against "
        << sim::kReposeReference.source << "\n";
    require_supported(sim, first.params);
    describe(c, first.params, out);
    Angles angles;
    sim::HeapResult shown;  // the first heap's profile goes to the CSV
    bool sound = true;
    for (int k = 0; k < c.piles; ++k) {
        const sim::GranularCase gc = k == 0 ? first : sim::heap_case(depth, preset, uint32_t(k));
        const sim::HeapResult r = sim::run_poured_heap(sim, gc, c.rest_time, stop_when_interrupted);
        sound = sound && r.non_finite == 0 && r.left.rings >= 2 && r.right.rings >= 2;
        angles.each.push_back(r.angle_deg);
        if (c.piles > 1) out << "heap " << k + 1 << " of " << c.piles << ": ";
        out << format_numbers(
                   "heap %.1f mm high, flanks %.1f deg (left, %.0f columns) and %.1f deg "
                   "(right, %.0f columns): %.1f deg, settled after %.2f s",
                   1000 * std::max(r.left.top, r.right.top), r.left.angle_deg, r.left.rings,
                   r.right.angle_deg, r.right.rings, r.angle_deg, r.t_stop)
            << (r.came_to_rest ? "" : " (still moving)") << (r.non_finite ? " NON-FINITE" : "")
            << "\n  the angle after the last batch:"
            << relaxation_text(r.relaxation, 1.0, " %.1f s %.1f,") << " deg\n";
        if (k == 0) shown = r;
    }
    std::ostringstream f;
    f << "# case=angle_of_repose resolution=" << depth << " particles=" << shown.particles
      << " glued_floor=" << first.floor.size() << " formed=heap preset=" << c.preset
      << " backend=" << sim::backend_name(sim.backend())
      << format_numbers(
             " angle_deg=%.3f left_deg=%.3f right_deg=%.3f reference_deg=%g "
             "top_m=%.5f",
             shown.angle_deg, shown.left.angle_deg, shown.right.angle_deg,
             sim::kReposeReference.angle_deg, std::max(shown.left.top, shown.right.top))
      << " piles=" << c.piles << " angles_deg=" << angles.list()
      << format_numbers(" mean_deg=%.3f sd_deg=%.3f", angles.mean(), angles.sd())
      << " relaxation_s_deg=" << relaxation_text(shown.relaxation, 0.0, "%.2f:%.3f;")
      << "\nr_m,h_m,fitted\n";
    // One row per column, the left flank at negative distances.
    write_profile_rows(f, shown.profile.left, shown.left, -1);
    write_profile_rows(f, shown.profile.right, shown.right, 1);
    return judge_repose(c, preset, angles, sound, path, f.str(), out);
}

}  // namespace

bool validate_angle_of_repose(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out) {
    PLAB_REQUIRE(c.piles >= 1 && c.piles <= 100, "--piles must be in [1, 100]");
    PLAB_REQUIRE(c.rest_time >= 0.2 && c.rest_time <= 600,
                 "--rest-time must be in [0.2, 600] seconds");
    PLAB_REQUIRE(!(c.heap && c.pour), "--heap and --pour are two ways to form the pile: pick one");
    if (c.heap) return validate_heap(c, sim, out);
    const int res = c.resolution > 0 ? c.resolution : 10;
    PLAB_REQUIRE(res >= 2 && res <= 200, "--resolution must be in [2, 200] for angle-of-repose");
    const sim::Preset preset = granular_preset(c);
    const auto path = c.out / "angle_of_repose.csv";
    require_writable(path);
    const sim::GranularCase first = sim::lifted_cylinder_case(res, 1.0, preset);
    if (c.pour)
        out << "angle of repose: about " << std::lround(M_PI / 4.0 * double(first.init.pos.size()))
            << " beads (a cylinder " << res << " beads in radius) poured 25 at a time over the "
            << "axis, on a rough floor of " << first.floor.size() << " glued beads; against "
            << sim::kReposeReference.source << "\n";
    else
        out << "angle of repose: a cylinder " << res << " beads in radius and as high, cut from "
            << first.init.pos.size() << " beads settled in a box, then lifted, on a rough floor of "
            << first.floor.size() << " glued beads; against " << sim::kReposeReference.source
            << "\n";
    require_supported(sim, first.params);
    describe(c, first.params, out);
    // Each pile on its own floor and with its own jitter (seeds 0, 1, ...); the reference's
    // angle is a mean over six piles, and one pile's avalanches scatter by degrees.
    Angles angles;
    sim::PileResult shown;  // the first pile's profile goes to the CSV
    bool sound = true;
    for (int k = 0; k < c.piles; ++k) {
        const sim::GranularCase gc =
            k == 0 ? first : sim::lifted_cylinder_case(res, 1.0, preset, true, uint32_t(k));
        const sim::PileResult r =
            c.pour ? sim::run_poured_pile(sim, gc, c.rest_time, 0.025, stop_when_interrupted)
                   : sim::run_lifted_cylinder(sim, gc, c.rest_time, stop_when_interrupted);
        sound = sound && r.non_finite == 0 && r.fit.rings >= 2;
        angles.each.push_back(r.fit.angle_deg);
        if (c.piles > 1) out << "pile " << k + 1 << " of " << c.piles << ": ";
        out << format_numbers(
                   "pile %.1f mm high, flank fitted over %.0f rings: %.1f deg, settled "
                   "after %.2f s",
                   1000 * r.fit.top, r.fit.rings, r.fit.angle_deg, r.t_stop)
            << (r.came_to_rest ? "" : " (still moving)") << (r.non_finite ? " NON-FINITE" : "")
            << "\n";
        if (k == 0) shown = r;
    }
    std::ostringstream f;
    f << "# case=angle_of_repose resolution=" << res << " particles=" << shown.particles
      << " settled_in_box=" << first.init.pos.size() << " glued_floor=" << first.floor.size()
      << " formed=" << (c.pour ? "poured" : "lifted") << " preset=" << c.preset
      << " backend=" << sim::backend_name(sim.backend())
      << format_numbers(" angle_deg=%.3f reference_deg=%g top_m=%.5f", shown.fit.angle_deg,
                        sim::kReposeReference.angle_deg, shown.fit.top)
      << " piles=" << c.piles << " angles_deg=" << angles.list()
      << format_numbers(" mean_deg=%.3f sd_deg=%.3f", angles.mean(), angles.sd())
      << "\nr_m,h_m,fitted\n";
    write_profile_rows(f, shown.profile, shown.fit, 1);
    return judge_repose(c, preset, angles, sound, path, f.str(), out);
}

}  // namespace plab::app
