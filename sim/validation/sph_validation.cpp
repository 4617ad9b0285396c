#include "sim/validation/sph_validation.h"

#include <algorithm>
#include <cmath>

#include "sim/core/error.h"
#include "sim/engine/initial_state.h"
#include "sim/model/presets.h"
#include "sim/model/sph_constants.h"
#include "sim/physics/sph_kernel.h"

namespace plab::sim {

std::vector<SurgePoint> martin_moyce_points() {
    return {{0.41, 1.11}, {0.84, 1.22}, {1.19, 1.44}, {1.63, 1.89},
            {2.20, 2.56}, {2.51, 3.00}, {2.83, 3.44}, {3.33, 4.11}};
}

double martin_moyce_front(double t) {
    const auto pts = martin_moyce_points();
    PLAB_REQUIRE(t >= pts.front().t && t <= pts.back().t,
                 "Martin & Moyce data cover T in [0.41, 3.33]");
    for (std::size_t k = 1; k < pts.size(); ++k)
        if (t <= pts[k].t) {
            const double f = (t - pts[k - 1].t) / (pts[k].t - pts[k - 1].t);
            return pts[k - 1].z + f * (pts[k].z - pts[k - 1].z);
        }
    return pts.back().z;
}

SphCase dam_break_case(int columns, int depth) {
    PLAB_REQUIRE(columns >= 4 && depth >= 1, "dam break needs at least 4 columns and 1 layer");
    SphCase c;
    c.params = preset_params(Preset::Water);
    const float spacing = 2.f * c.params.radius;
    const float a = columns * spacing;
    // The surge front reaches about 2 √(g·2a) (Ritter's solution); ten times that keeps the
    // density within 1%.
    c.params.sound_speed = static_cast<float>(20.0 * std::sqrt(9.81 * 2.0 * a));
    c.params.dt = sph_max_dt(c.params, 0.1f * c.params.sound_speed);
    c.a = a;
    c.scene.name = "dam break";
    c.scene.domain = {{0.f, 0.f, 0.f}, {5.f * a, 2.5f * a, depth * spacing}};
    ParticleBlock b;
    b.min = {0.f, 0.f, 0.f};
    b.max = {a, 2.f * a, depth * spacing};
    b.spacing = spacing;
    c.scene.blocks.push_back(b);
    c.particles = scene_capacity(c.scene);
    c.tank = c.scene.domain;
    return c;
}

SphCase hydrostatic_case(int width, int height) {
    PLAB_REQUIRE(width >= 4 && height >= 4, "hydrostatic tank needs at least 4 × 4 particles");
    SphCase c;
    c.params = preset_params(Preset::Water);
    const float spacing = 2.f * c.params.radius;
    const float w = width * spacing, depth = height * spacing;
    c.params.sound_speed = static_cast<float>(10.0 * std::sqrt(2.0 * 9.81 * depth));
    c.params.viscosity = 0.1f;  // settles faster; at rest viscosity does no work
    c.params.dt = sph_max_dt(c.params, 0.f);
    c.a = depth;
    c.scene.name = "hydrostatic tank";
    c.scene.domain = {{0.f, 0.f, 0.f}, {w, 1.5f * depth, w}};
    ParticleBlock b;
    b.min = {0.f, 0.f, 0.f};
    b.max = {w, depth, w};
    b.spacing = spacing;
    c.scene.blocks.push_back(b);
    c.particles = scene_capacity(c.scene);
    c.tank = c.scene.domain;
    return c;
}

SphCase hydrostatic_mesh_case(int width, int height) {
    SphCase c = hydrostatic_case(width, height);
    const float margin = 2.f * sph_constants(c.params).h + 2.f * c.params.radius;
    const Vec3 grow{margin, margin, margin};
    Body box;
    box.shape = BodyShape::Box;
    box.box_min = c.tank.min;
    box.box_max = c.tank.max;
    box.inside = true;
    c.scene.name = "hydrostatic mesh tank";
    c.scene.domain = {c.tank.min - grow, c.tank.max + grow};
    c.geometry = std::make_shared<const SceneGeometry>(place_bodies({box}, c.scene.domain));
    return c;
}

double surge_front(const Snapshot& s, const Params& p, const Domain& d) {
    const float spacing = 2.f * p.radius;
    double front = 0;
    for (const Float4& q : s.pos)
        if (q.y - d.min.y < 2.f * spacing && std::isfinite(q.x))
            front = std::max(front, double(q.x));
    return front - d.min.x + 0.5 * spacing;
}

DepthProfile depth_profile(const Snapshot& s, const Params& p, const Domain& d, double margin) {
    const double spacing = 2.0 * p.radius;
    const SphConstants c = sph_constants(p);
    const auto bins = static_cast<std::size_t>(std::ceil((d.max.y - d.min.y) / spacing));
    DepthProfile prof;
    prof.y.resize(bins);
    prof.pressure.assign(bins, 0);
    prof.density.assign(bins, 0);
    prof.count.assign(bins, 0);
    for (std::size_t k = 0; k < bins; ++k) prof.y[k] = d.min.y + (k + 0.5) * spacing;
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
        const Float4 q = s.pos[i];
        if (q.x - d.min.x < margin || d.max.x - q.x < margin || q.z - d.min.z < margin ||
            d.max.z - q.z < margin)
            continue;
        const auto k = static_cast<std::size_t>((q.y - d.min.y) / spacing);
        if (k >= bins) continue;
        prof.pressure[k] += sph_pressure(s.vel[i].w, c);
        prof.density[k] += s.vel[i].w;
        ++prof.count[k];
    }
    for (std::size_t k = 0; k < bins; ++k)
        if (prof.count[k] > 0) {
            prof.pressure[k] /= double(prof.count[k]);
            prof.density[k] /= double(prof.count[k]);
        }
    // The top layer: every particle within half a spacing of the highest one.
    double top = -INFINITY;
    for (const Float4& q : s.pos)
        if (std::isfinite(q.y)) top = std::max(top, double(q.y));
    double sum = 0;
    std::size_t n = 0;
    for (const Float4& q : s.pos)
        if (q.y > top - 0.5 * spacing) {
            sum += q.y;
            ++n;
        }
    prof.surface = n > 0 ? sum / double(n) + 0.5 * spacing : 0;
    return prof;
}

namespace {

// Steps until `seconds` more of simulated time have passed (whole steps of p.dt).
void advance(Simulator& sim, Params p, double seconds, const StepHook& after_step) {
    const auto steps = static_cast<long>(std::ceil(seconds / p.dt - 1e-9));
    p.substeps = 1;
    for (long s = 0; s < steps; ++s) {
        sim.step(p);
        if (after_step) after_step();
    }
}

}  // namespace

std::vector<FrontSample> run_dam_break(Simulator& sim, const SphCase& c, double until, double every,
                                       const StepHook& after_step) {
    PLAB_REQUIRE(every > 0 && until > 0, "dam break: sample spacing and end must be positive");
    sim.reset(build_initial_state(c.scene, c.params, c.particles), c.params);
    const double g = std::sqrt(double(c.params.gravity_x) * c.params.gravity_x +
                               double(c.params.gravity_y) * c.params.gravity_y +
                               double(c.params.gravity_z) * c.params.gravity_z);
    const double to_t = std::sqrt(2.0 * g / c.a);
    std::vector<FrontSample> out;
    const double dt_dimless = c.params.dt * to_t;
    long steps = 0;
    Params p = c.params;
    p.substeps = 1;
    for (double next = 0; next <= until + 1e-9; next += every) {
        while (steps * dt_dimless < next - 1e-12) {
            sim.step(p);
            ++steps;
            if (after_step) after_step();
        }
        out.push_back({steps * dt_dimless, surge_front(sim.download(), p, c.scene.domain) / c.a});
    }
    return out;
}

DelayFit fit_start_delay(const std::vector<FrontSample>& front, double until, double max_delay) {
    PLAB_REQUIRE(front.size() >= 2, "delay fit: needs a sampled front");
    auto z_at = [&](double t) {  // linear interpolation; the first sample before the start
        if (t <= front.front().t) return front.front().z;
        for (std::size_t k = 1; k < front.size(); ++k)
            if (t <= front[k].t) {
                const double f = (t - front[k - 1].t) / (front[k].t - front[k - 1].t);
                return front[k - 1].z + f * (front[k].z - front[k - 1].z);
            }
        return front.back().z;
    };
    DelayFit best{0, INFINITY};
    for (int k = 0; k * 0.01 <= max_delay + 1e-9; ++k) {
        const double delay = k * 0.01;
        double worst = 0;
        for (const SurgePoint& ref : martin_moyce_points())
            if (ref.t <= until) worst = std::max(worst, std::abs(z_at(ref.t - delay) / ref.z - 1));
        if (worst < best.worst) best = {delay, worst};
    }
    return best;
}

PressureFit fit_pressure(const DepthProfile& prof, double y_lo, double y_hi, double rho0_g) {
    PLAB_REQUIRE(rho0_g > 0, "pressure fit: rho0 g must be positive");
    double n = 0, sy = 0, sp = 0, syy = 0, syp = 0;
    for (std::size_t k = 0; k < prof.y.size(); ++k) {
        if (prof.count[k] == 0 || prof.y[k] < y_lo || prof.y[k] > y_hi) continue;
        n += 1;
        sy += prof.y[k];
        sp += prof.pressure[k];
        syy += prof.y[k] * prof.y[k];
        syp += prof.y[k] * prof.pressure[k];
    }
    PLAB_REQUIRE(n >= 2, "pressure fit: needs at least two layers with particles");
    PressureFit fit;
    fit.layers = static_cast<int>(n);
    fit.slope = -(n * syp - sy * sp) / (n * syy - sy * sy);
    // With the slope fixed, each layer says the surface is at y + p/(ρ₀ g); least squares
    // takes their mean.
    fit.surface = (sy + sp / rho0_g) / n;
    return fit;
}

DepthProfile run_hydrostatic(Simulator& sim, const SphCase& c, double settle, int snapshots,
                             double gap, const StepHook& after_step) {
    PLAB_REQUIRE(snapshots >= 1, "hydrostatic: at least one snapshot");
    InitialState initial = build_initial_state(c.scene, c.params, c.particles);
    initial.geometry = c.geometry;
    sim.reset(initial, c.params);
    advance(sim, c.params, settle, after_step);
    const double margin = 2.5 * 2.0 * c.params.radius;
    DepthProfile mean;
    for (int k = 0; k < snapshots; ++k) {
        advance(sim, c.params, gap, after_step);
        const DepthProfile prof = depth_profile(sim.download(), c.params, c.tank, margin);
        if (k == 0) {
            mean = prof;
            continue;
        }
        for (std::size_t b = 0; b < prof.y.size(); ++b) {
            mean.pressure[b] += prof.pressure[b];
            mean.density[b] += prof.density[b];
            mean.count[b] += prof.count[b];
        }
        mean.surface += prof.surface;
    }
    mean.surface /= snapshots;
    for (std::size_t b = 0; b < mean.y.size(); ++b) {
        mean.pressure[b] /= snapshots;
        mean.density[b] /= snapshots;
    }
    return mean;
}

}  // namespace plab::sim
