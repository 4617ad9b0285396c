#include "sim/validation/drum_validation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "sim/core/error.h"
#include "sim/core/format_numbers.h"
#include "sim/geometry/body.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/model/bead_size.h"
#include "sim/model/dem_theory.h"
#include "sim/model/scene.h"
#include "sim/validation/granular_runs.h"

namespace plab::sim {
namespace {

using granular::call_time;

// A random packing of spheres holds about this share of its volume: it sizes a layer of beads.
constexpr double kPacking = 0.6;

// The preset's beads scaled to `diameter` (see drum_case).
Params scaled_beads(Params p, double diameter) {
    const double s = 0.5 * diameter / p.radius;
    p.radius = static_cast<float>(0.5 * diameter);
    p.mass = static_cast<float>(p.mass * s * s * s);
    p.spring = static_cast<float>(p.spring * s * s);
    p.damping = static_cast<float>(p.damping * std::pow(s, 2.5));
    p.shear = static_cast<float>(p.shear * std::pow(s, 2.5));
    p.dt = static_cast<float>(stable_dt(p.spring, p.mass));
    p.substeps = std::max(1, static_cast<int>(std::lround(0.005 / p.dt)));
    return p;
}

// Whether `q` lies inside the drum (its centre within the wall and the end walls).
bool inside_drum(const Float4& q, const DrumCase& c) {
    const double x = q.x - c.center.x, y = q.y - c.center.y, z = q.z - c.center.z;
    return x * x + y * y <= c.radius * c.radius && std::abs(z) <= 0.5 * c.length;
}

}  // namespace

DrumCase drum_case(int resolution, Preset preset, double rpm) {
    PLAB_REQUIRE(resolution >= kDrumMinResolution && resolution <= kDrumMaxResolution,
                 format_numbers("the drum must be %g to %g bead diameters across",
                                kDrumMinResolution, kDrumMaxResolution));
    PLAB_REQUIRE(std::isfinite(rpm) && std::abs(rpm) <= 600,
                 "the drum's speed must be a number in [-600, 600] rev/min");
    const DrumReference& ref = kDrumReference;
    DrumCase c;
    const double d = ref.diameter / resolution;
    c.params = scaled_beads(granular::case_params(preset, "drum"), d);
    c.params.collider_radius = 0.f;
    const Params& p = c.params;
    c.radius = 0.5 * ref.diameter;
    c.length = ref.length;
    c.rpm = rpm;
    const double share = double(resolution) / kDrumReferenceResolution;
    const auto beads = static_cast<std::size_t>(std::lround(ref.beads * share * share * share));

    // The domain holds the drum with two beads to spare; the axis runs along z through its
    // middle.
    const auto room = static_cast<float>(c.radius + 2 * d);
    const auto half = static_cast<float>(0.5 * c.length + 2 * d);
    const Domain domain{{-room, -room, -half}, {room, room, half}};
    c.center = {0.f, 0.f, 0.f};

    // Lattice sites 1.1 diameters apart, a bead and a half inside the wall and the end walls,
    // lowest first; the beads take the lowest `beads` of them, each jittered a little.
    const double s = 1.1 * d, jitter = 0.045 * d;
    const double reach = c.radius - 1.5 * d, ends = 0.5 * c.length - 1.5 * d;
    const int across = static_cast<int>(std::floor(reach / s)), deep = static_cast<int>(ends / s);
    std::vector<Float4> sites;
    for (int j = -across; j <= across; ++j)
        for (int k = -deep; k <= deep; ++k)
            for (int i = -across; i <= across; ++i) {
                const double x = i * s, y = j * s;
                if (x * x + y * y <= reach * reach)
                    sites.push_back({static_cast<float>(x), static_cast<float>(y),
                                     static_cast<float>(k * s), 0.f});
            }
    PLAB_REQUIRE(sites.size() >= beads,
                 "the drum's lattice holds fewer sites than the case's beads");
    sites.resize(beads);  // the loops ran upwards: the lowest first
    for (std::size_t n = 0; n < sites.size(); ++n) {
        Float4& q = sites[n];
        q.x += static_cast<float>(jitter * bead_deviation(3 * n, 7u, 1.f));
        q.y += static_cast<float>(jitter * bead_deviation(3 * n + 1, 7u, 1.f));
        q.z += static_cast<float>(jitter * bead_deviation(3 * n + 2, 7u, 1.f));
    }
    assign_bead_sizes(sites, p);

    Body drum;
    drum.shape = BodyShape::Cylinder;
    drum.center = c.center;
    drum.axis = {0.f, 0.f, 1.f};
    drum.radius = static_cast<float>(c.radius);
    drum.length = static_cast<float>(c.length);
    drum.inside = true;
    drum.motion.spin_axis = {0.f, 0.f, 1.f};
    drum.motion.spin_center = c.center;
    drum.motion.spin_rpm = static_cast<float>(rpm);

    c.init.domain = domain;
    c.init.grid = scene_grid(domain, p);
    c.init.pos = std::move(sites);
    c.init.vel.assign(c.init.pos.size(), Float4{});
    c.init.geometry = std::make_shared<const SceneGeometry>(place_bodies({drum}, domain));
    return c;
}

DrumSurface drum_surface(const Snapshot& s, const DrumCase& c) {
    const double d = 2.0 * c.params.radius;
    const double half = 0.5 * c.length - 2 * d;
    // Half a layer of a column: its beads in a slab one diameter thick along the drum.
    const double layer = kPacking * d * d * 2 * half / (std::numbers::pi / 6 * d * d * d);
    const auto keep = static_cast<std::size_t>(std::max(1.0, std::round(0.5 * layer)));
    const int columns = std::max(1, static_cast<int>(std::floor(0.5 * c.radius / d)));
    std::vector<std::vector<float>> heights(2 * columns);
    for (const Float4& q : s.pos) {
        if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) continue;
        if (std::abs(q.z - c.center.z) > half) continue;
        const double x = q.x - c.center.x;
        const auto k = static_cast<long>(std::floor(x / d)) + columns;
        if (k < 0 || k >= 2 * columns) continue;
        heights[k].push_back(q.y - c.center.y + bead_radius(q, c.params));
    }
    DrumSurface out;
    for (int k = 0; k < 2 * columns; ++k) {
        std::vector<float>& h = heights[k];
        if (h.size() < 3 * keep) continue;  // a column the bed does not fill
        std::nth_element(h.begin(), h.begin() + keep, h.end(), std::greater<>());
        out.x.push_back((k - columns + 0.5) * d);
        out.y.push_back(h[keep]);
    }
    const auto n = static_cast<double>(out.x.size());
    if (n < 2) return out;
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < out.x.size(); ++i) mx += out.x[i] / n, my += out.y[i] / n;
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < out.x.size(); ++i) {
        sxy += (out.x[i] - mx) * (out.y[i] - my);
        sxx += (out.x[i] - mx) * (out.x[i] - mx);
    }
    out.angle_deg = std::atan(sxy / sxx) * 180.0 / std::numbers::pi;
    return out;
}

DrumResult run_drum(Simulator& sim, const DrumCase& c, double spin_up, double measure, double every,
                    const DrumHook& after_step) {
    PLAB_REQUIRE(spin_up >= 0 && measure > 0 && every > 0, "the drum's times must be positive");
    const Params& p = c.params;
    sim.reset(c.init, p);
    const double step_time = call_time(p);
    const long between = std::max(1L, std::lround(every / step_time));
    const long spin_calls = std::lround(spin_up / step_time);
    const long samples = std::max(1L, std::lround(measure / (between * step_time)));
    const long total = spin_calls + samples * between;
    DrumResult r;
    for (long call = 1; call <= total; ++call) {
        sim.step(p);
        if (after_step) after_step();
        if (call <= spin_calls || (call - spin_calls) % between != 0) continue;
        const SimStats st = sim.stats(p);
        if (st.non_finite > 0) break;
        r.last = drum_surface(sim.download(), c);
        r.samples.push_back({call * step_time, r.last.angle_deg});
    }
    r.run_time = total * step_time;
    const Snapshot end = sim.download();
    for (const Float4& q : end.pos) {
        if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z))
            ++r.non_finite;
        else if (!inside_drum(q, c))
            ++r.escaped;
    }
    if (r.samples.empty()) return r;
    for (const DrumSample& x : r.samples) r.mean_deg += x.angle_deg / double(r.samples.size());
    double var = 0;
    for (const DrumSample& x : r.samples)
        var += (x.angle_deg - r.mean_deg) * (x.angle_deg - r.mean_deg);
    r.spread_deg = std::sqrt(var / double(r.samples.size()));
    return r;
}

}  // namespace plab::sim
