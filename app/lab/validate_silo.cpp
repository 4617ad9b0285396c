#include "app/lab/validate_silo.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/lab/interrupt.h"
#include "app/lab/output_file.h"
#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/validation/silo_validation.h"

namespace plab::app {
namespace {

using sim::format_numbers;

void stop_when_interrupted() { throw_if_interrupted("before the case finished"); }

sim::Preset silo_preset(const ValidateConfig& c) {
    const sim::Preset p = sim::parse_preset(c.preset);
    PLAB_REQUIRE(p == sim::Preset::GlassBeads || p == sim::Preset::Sand,
                 "--preset must be glass-beads or sand-like for the silo case, not " + c.preset);
    return p;
}

}  // namespace

bool validate_silo(const ValidateConfig& c, sim::Simulator& sim, std::ostream& out) {
    const int width = c.resolution > 0 ? c.resolution : 14;
    PLAB_REQUIRE(width >= 6 && width <= 1000, "--resolution must be in [6, 1000] for silo");
    PLAB_REQUIRE(c.fill >= 4 && c.fill <= 2000, "--fill must be in [4, 2000] bead diameters");
    PLAB_REQUIRE(c.open_time > 0 && c.open_time <= 600, "--open-time must be in (0, 600] s");
    PLAB_REQUIRE(!c.orifices.empty(), "--orifice needs at least one diameter");
    for (double o : c.orifices)
        PLAB_REQUIRE(o >= 2 && o <= width - 4,
                     format_numbers("--orifice %g must be in [2, %g] bead diameters (the silo's "
                                    "width less 4)",
                                    o, width - 4));
    const sim::Preset preset = silo_preset(c);
    const auto path = c.out / "silo.csv", series_path = c.out / "silo_series.csv";
    require_writable(path);
    require_writable(series_path);
    const sim::SiloCase sc = sim::silo_case(width, c.fill, preset);
    const sim::Params& p = sc.params;
    const std::string why = sim.unsupported(p);
    PLAB_REQUIRE(why.empty(), "the silo case cannot run on the " +
                                  std::string(sim::backend_name(sim.backend())) +
                                  " backend: " + why + " (use --backend cpu)");
    const double d = 2.0 * p.radius;
    out << "silo discharge (" << kBeverlooSource << "): a square silo " << width
        << " beads wide, filled " << c.fill << " beads high, " << sc.init.pos.size()
        << " beads; orifices open at most " << format_numbers("%g s", c.open_time) << "\n"
        << c.preset
        << format_numbers(
               " preset: d = %g mm, k = %g N/m, mu_s = %g (walls %g), mu_r = %g, dt = %.3g s\n",
               1000.0 * d, p.spring, p.friction, p.wall_friction, p.rolling_friction, p.dt);
    const sim::SiloFill fill = sim::settle_silo(sim, sc, stop_when_interrupted);
    const double phi = fill.bulk_density / (p.mass / (M_PI / 6.0 * d * d * d));
    out << format_numbers("settled in %.2f s", fill.settle_time)
        << (fill.settled ? "" : " (still moving)")
        << format_numbers(
               ": bulk density %.0f kg/m^3 (packing fraction %.3f), fill %.1f beads "
               "high\n",
               fill.bulk_density, phi, fill.height / d);
    PLAB_REQUIRE(fill.non_finite == 0 && fill.bulk_density > 0,
                 "the fill did not settle into a measurable pack (non-finite beads or no core)");

    std::ostringstream rows, s;
    s << "orifice_d,t_s,discharged_kg,fill_m\n";
    out << "  D/d   W kg/s   C      Beverloo(C=0.58)   W by fill height (high..low)    spread\n";
    bool runs_ok = true;
    double worst_spread = 0;
    std::vector<double> orifices, flows;
    for (double o : c.orifices) {
        const sim::SiloResult r =
            sim::discharge_silo(sim, sc, fill, o, c.open_time, 0.7, stop_when_interrupted);
        const double ref = sim::beverloo_flow(0.58, fill.bulk_density, r.orifice, d);
        const auto& w = r.fit.windows;
        orifices.push_back(r.orifice);
        flows.push_back(r.fit.flow);
        worst_spread = std::max(worst_spread, r.fit.spread);
        runs_ok = runs_ok && r.fit.spread <= kBeverlooSpread && !r.stalled && r.non_finite == 0;
        rows << o << "," << r.orifice << "," << r.fit.flow << "," << r.coefficient << "," << ref
             << "," << r.fit.spread;
        for (const sim::SiloWindow& x : w) rows << "," << x.flow;
        rows << "," << (w.empty() ? 0 : w.front().fill_hi) << ","
             << (w.empty() ? 0 : w.back().fill_lo) << "," << r.discharged << "," << r.run_time
             << "," << (r.stalled ? 1 : 0) << "\n";
        for (const sim::SiloSample& x : r.series)
            s << o << "," << x.t << "," << x.discharged << "," << x.fill << "\n";
        out << format_numbers("  %4.1f  %7.3f  %5.3f  %7.3f            ", o, r.fit.flow,
                              r.coefficient, ref);
        for (const sim::SiloWindow& x : w) out << format_numbers(" %6.3f", x.flow);
        out << format_numbers("  (%.1f..%.1f d)  %5.1f%%", w.empty() ? 0 : w.front().fill_hi / d,
                              w.empty() ? 0 : w.back().fill_lo / d, 100 * r.fit.spread)
            << (r.stalled ? " STALLED" : "") << (r.non_finite ? " NON-FINITE" : "")
            << format_numbers(" [%.0f beads out in %.2f s]\n", double(r.discharged), r.run_time);
    }
    // One C for all orifices, as Beverloo fitted it; the C of each orifice alone (the column
    // above) drifts with D whenever the flows' own k differs from 1.5.
    const sim::BeverlooFit law = sim::fit_beverloo(orifices, flows, fill.bulk_density, d);
    const bool pass =
        runs_ok && law.c >= kBeverlooCMin && law.c <= kBeverlooCMax && law.worst <= kBeverlooSpread;
    std::ostringstream f;
    f << "# case=silo width=" << width << " fill=" << c.fill << " preset=" << c.preset
      << " backend=" << sim::backend_name(sim.backend()) << " particles=" << sc.init.pos.size()
      << format_numbers(" d_m=%g bulk_density=%.2f packing=%.4f fill_m=%.5f", d, fill.bulk_density,
                        phi, fill.height)
      << format_numbers(" fitted_c=%.4f law_worst=%.4f free_c=%.4f free_k=%.3f", law.c, law.worst,
                        law.c_free, law.k_free)
      << "\norifice_d,orifice_m,flow_kg_s,coefficient,beverloo_kg_s,spread,w1_kg_s,w2_kg_s,"
         "w3_kg_s,fill_hi_m,fill_lo_m,discharged,open_s,stalled\n"
      << rows.str();
    write_whole_file(path, f.str());
    write_whole_file(series_path, s.str());
    out << format_numbers(
        "Beverloo fitted over the orifices (W^(2/5) against D): C = %.3f with "
        "k = 1.5",
        law.c);
    if (law.k_free > 0)
        out << format_numbers(" (C and k both fitted: C = %.3f, k = %.2f)", law.c_free, law.k_free);
    else if (orifices.size() > 1)
        out << " (C and k both fitted: none, the flows do not grow with D)";
    out << format_numbers(
               "\nC = %.3f (threshold %g-%g), worst orifice off that law by %.1f%% (threshold "
               "%g%%), worst flow spread over fill height %.1f%% (threshold %g%%): ",
               law.c, kBeverlooCMin, kBeverlooCMax, 100 * law.worst, 100 * kBeverlooSpread,
               100 * worst_spread, 100 * kBeverlooSpread)
        << (pass ? "PASS" : "FAIL") << "\nwrote " << path.string() << " and "
        << series_path.string() << "\n";
    return pass;
}

}  // namespace plab::app
