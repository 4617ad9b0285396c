#include "sim/validation/silo_validation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/error.h"
#include "sim/validation/granular_runs.h"

namespace plab::sim {
namespace {

using granular::call_time;
using granular::kG;

// Beverloo's shape constant for spheres.
constexpr double kBeverlooK = 1.5;

// The fill's packing fraction once settled, for sizing the lattice and the basin (the case
// measures the real one).
constexpr double kSettledFraction = 0.6;

// Seconds between two samples of the discharge.
constexpr double kSampleEvery = 0.01;

// A flow that adds no bead below the plate for this long has stopped (an arch spans the
// orifice).
constexpr double kStallTime = 0.5;

// The lattice the beads start on, as in the other granular cases: a small gap and a jitter.
double lattice_spacing(const Params& p) { return 2.2 * p.radius; }
float lattice_jitter(const Params& p) { return 0.09f * p.radius; }

// The settled fill's bulk density: the beads whose centres lie in the silo's core (two
// diameters in from the walls, the plate and the 99th percentile of the tops) over its volume.
// Returns 0 when the fill is too small to have a core.
double bulk_density(const Snapshot& s, const Params& p, const SiloCase& c, double& top) {
    const double d = 2.0 * p.radius, y_f = c.init.domain.min.y + c.floor;
    std::vector<double> tops;
    for (const Float4& q : s.pos)
        if (std::isfinite(q.y) && q.y > y_f) tops.push_back(q.y + p.radius - y_f);
    if (tops.empty()) return 0;
    std::sort(tops.begin(), tops.end());
    top = tops[tops.size() * 99 / 100];
    const double x0 = c.init.domain.min.x + 2 * d, x1 = c.init.domain.max.x - 2 * d;
    const double z0 = c.init.domain.min.z + 2 * d, z1 = c.init.domain.max.z - 2 * d;
    const double y0 = y_f + 2 * d, y1 = y_f + top - 2 * d;
    if (x1 - x0 < d || z1 - z0 < d || y1 - y0 < d) return 0;
    std::size_t inside = 0;
    for (const Float4& q : s.pos)
        if (q.x >= x0 && q.x < x1 && q.y >= y0 && q.y < y1 && q.z >= z0 && q.z < z1) ++inside;
    return inside * double(p.mass) / ((x1 - x0) * (y1 - y0) * (z1 - z0));
}

// Beads whose centres lie a radius or more below the plate: through the orifice.
std::size_t below_plate(const Snapshot& s, float y_f, float radius) {
    std::size_t n = 0;
    for (const Float4& q : s.pos)
        if (q.y < y_f - radius) ++n;
    return n;
}

// Least-squares slope of mass against time over the samples `in` picks (0 with fewer than 3).
template <typename In>
std::pair<double, int> slope(const std::vector<SiloSample>& series, In in) {
    double n = 0, st = 0, sm = 0, stt = 0, stm = 0;
    for (const SiloSample& s : series) {
        if (!in(s)) continue;
        n += 1;
        st += s.t;
        sm += s.discharged;
        stt += s.t * s.t;
        stm += s.t * s.discharged;
    }
    const double den = n * stt - st * st;
    if (n < 3 || den <= 0) return {0.0, static_cast<int>(n)};
    return {(n * stm - st * sm) / den, static_cast<int>(n)};
}

}  // namespace

double beverloo_flow(double c, double rho_b, double D, double d, double k, double g) {
    const double open = D - k * d;
    return open > 0 ? c * rho_b * std::sqrt(g) * std::pow(open, 2.5) : 0.0;
}

BeverlooFit fit_beverloo(const std::vector<double>& orifices, const std::vector<double>& flows,
                         double rho_b, double d, double g) {
    PLAB_REQUIRE(orifices.size() == flows.size(), "fit_beverloo: one flow per orifice");
    const double scale = std::pow(rho_b * std::sqrt(g), 0.4);  // W^(2/5) per (C^(2/5) m)
    double xy = 0, xx = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    int n = 0;
    for (std::size_t i = 0; i < orifices.size(); ++i) {
        const double open = orifices[i] - kBeverlooK * d, y = std::pow(flows[i], 0.4);
        if (open <= 0) continue;
        xy += open * y;
        xx += open * open;
        sx += orifices[i];
        sy += y;
        sxx += orifices[i] * orifices[i];
        sxy += orifices[i] * y;
        ++n;
    }
    BeverlooFit f;
    if (n == 0 || scale <= 0) return f;
    f.c = std::pow(xy / xx / scale, 2.5);
    for (std::size_t i = 0; i < orifices.size(); ++i) {
        const double law = beverloo_flow(f.c, rho_b, orifices[i], d, kBeverlooK, g);
        if (law > 0) f.worst = std::max(f.worst, std::abs(flows[i] / law - 1.0));
    }
    const double den = n * sxx - sx * sx;
    if (n >= 2 && den > 0) {
        const double slope = (n * sxy - sx * sy) / den, intercept = (sy - slope * sx) / n;
        if (slope > 0) {
            f.c_free = std::pow(slope / scale, 2.5);
            f.k_free = -intercept / slope / d;
        }
    }
    return f;
}

SiloCase silo_case(int width_beads, int fill_beads, Preset preset) {
    PLAB_REQUIRE(width_beads >= 6 && width_beads <= 1000,
                 "the silo must be 6 to 1000 bead diameters wide");
    PLAB_REQUIRE(fill_beads >= 4 && fill_beads <= 2000,
                 "the fill must be 4 to 2000 bead diameters high");
    SiloCase c;
    c.params = granular::case_params(preset, "silo");
    Params& p = c.params;
    const double d = 2.0 * p.radius, s = lattice_spacing(p);
    c.width = width_beads * d;
    // Enough lattice layers for the settled fill, and a basin for all of it: a looser packing
    // (0.55) and a heap at about 25 degrees under the orifice.
    const double across = std::floor(c.width / s);
    const double fill = fill_beads * d;
    const double beads = kSettledFraction * c.width * c.width * fill / (M_PI / 6.0 * d * d * d);
    const double layers = std::ceil(beads / (across * across));
    c.floor = fill * kSettledFraction / 0.55 + 0.25 * c.width + 2 * d;
    p.silo_floor = static_cast<float>(c.floor);
    p.orifice = 0.f;  // closed while the fill settles
    Scene scene;
    scene.name = "silo";
    const auto w = static_cast<float>(c.width);
    const auto y_f = static_cast<float>(c.floor);
    const auto lattice_top = static_cast<float>(c.floor + layers * s);
    scene.domain = {{0.f, 0.f, 0.f}, {w, lattice_top + static_cast<float>(d), w}};
    ParticleBlock b;
    b.min = {0.f, y_f, 0.f};
    b.max = {w, lattice_top, w};
    b.spacing = static_cast<float>(s);
    b.jitter = lattice_jitter(p);
    scene.blocks.push_back(b);
    c.init = build_initial_state(scene, p, scene_capacity(scene));
    return c;
}

SiloFill settle_silo(Simulator& sim, const SiloCase& c, const SiloHook& after_step) {
    Params p = c.params;
    p.orifice = 0.f;
    SiloFill f;
    sim.reset(c.init, p);
    const double lattice_height = c.init.domain.max.y - c.init.domain.min.y - c.floor;
    const auto [t, rest] =
        granular::run_to_rest(sim, p, 0.2, 1.0 + 3.0 * std::sqrt(lattice_height / kG), after_step);
    f.settle_time = t;
    f.settled = rest;
    f.non_finite = sim.stats(p).non_finite;
    const Snapshot s = sim.download();
    f.pos = s.pos;
    double top = 0;
    f.bulk_density = bulk_density(s, p, c, top);
    const double mass = double(s.pos.size()) * p.mass;
    f.height = f.bulk_density > 0 ? mass / (f.bulk_density * c.width * c.width) : 0;
    return f;
}

SiloFit fit_silo_flow(const std::vector<SiloSample>& series, double skip, double fill_min,
                      int windows) {
    PLAB_REQUIRE(windows >= 1, "at least one window");
    SiloFit f;
    // The windows cover the fill heights the samples reached, down to `fill_min`.
    double hi = fill_min, lo = INFINITY;
    for (const SiloSample& s : series) {
        if (s.t < skip || s.fill < fill_min) continue;
        hi = std::max(hi, s.fill);
        lo = std::min(lo, s.fill);
    }
    if (!(lo < hi)) lo = fill_min;
    const double flow =
        slope(series, [&](const SiloSample& s) { return s.t >= skip && s.fill >= fill_min; }).first;
    f.flow = flow;
    for (int k = 0; k < windows; ++k) {
        SiloWindow w;
        w.fill_hi = hi - (hi - lo) * k / windows;
        w.fill_lo = k == windows - 1 ? lo : hi - (hi - lo) * (k + 1) / windows;
        const auto [wf, wn] = slope(series, [&](const SiloSample& s) {
            return s.t >= skip && s.fill >= fill_min && s.fill >= w.fill_lo &&
                   (s.fill < w.fill_hi || k == 0);
        });
        w.flow = wf;
        w.samples = wn;
        f.windows.push_back(w);
    }
    // A window without a fit (too few samples) cannot show the flow is steady: it counts as a
    // full 100% spread.
    for (const SiloWindow& w : f.windows)
        f.spread =
            std::max(f.spread, w.samples >= 3 && flow > 0 ? std::abs(w.flow / flow - 1) : 1.0);
    return f;
}

SiloResult discharge_silo(Simulator& sim, const SiloCase& c, const SiloFill& fill,
                          double orifice_beads, double max_time, double stop_fill,
                          const SiloHook& after_step) {
    Params p = c.params;
    const double d = 2.0 * p.radius;
    PLAB_REQUIRE(orifice_beads >= 0 && orifice_beads <= std::round(c.width / d) - 4,
                 "the orifice must be 0 to the silo's width less 4 bead diameters wide");
    PLAB_REQUIRE(fill.bulk_density > 0, "the settled fill has no bulk density to measure with");
    SiloResult r;
    r.orifice = orifice_beads * d;
    p.orifice = static_cast<float>(r.orifice);
    // The settled fill at rest (its contacts' memory starts again from zero).
    InitialState start;
    start.domain = c.init.domain;
    start.grid = c.init.grid;
    start.pos = fill.pos;
    start.vel.assign(fill.pos.size(), Float4{});
    sim.reset(start, p);

    const auto y_f = static_cast<float>(c.init.domain.min.y + c.floor);
    const double area = c.width * c.width, rho_b = fill.bulk_density;
    const double total = double(fill.pos.size()) * p.mass;
    Snapshot settled;
    settled.pos = fill.pos;
    const std::size_t below0 = below_plate(settled, y_f, p.radius);  // none, as a rule
    const double above0 = total - double(below0) * p.mass;
    const double step_time = call_time(p);
    const int sample_every = std::max(1, static_cast<int>(std::lround(kSampleEvery / step_time)));
    r.series.push_back({0.0, 0.0, above0 / (rho_b * area)});
    double t = 0, last_change = 0;
    std::size_t below = below0;
    for (long calls = 1; t < max_time; ++calls) {
        sim.step(p);
        t += step_time;
        if (after_step) after_step();
        if (calls % sample_every != 0) continue;
        const std::size_t now = below_plate(sim.download(), y_f, p.radius);
        if (now != below) last_change = t;
        below = now;
        const double out = double(now - std::min(now, below0)) * p.mass;
        r.series.push_back({t, out, (above0 - out) / (rho_b * area)});
        if (r.series.back().fill < stop_fill * r.orifice) break;
        if (t - last_change > kStallTime) {
            r.stalled = true;
            break;
        }
        if (sim.stats(p).non_finite > 0) break;
    }
    r.run_time = t;
    r.non_finite = sim.stats(p).non_finite;
    r.discharged = below - std::min(below, below0);
    // The flow settles into its steady rate within the time a bead takes to fall a few
    // orifice diameters.
    const double skip = 0.05 + 2.0 * std::sqrt(2.0 * r.orifice / kG);
    r.fit = fit_silo_flow(r.series, skip, r.orifice, 3);
    const double ref = beverloo_flow(1.0, rho_b, r.orifice, d, kBeverlooK, kG);
    r.coefficient = ref > 0 ? r.fit.flow / ref : 0;
    return r;
}

}  // namespace plab::sim
