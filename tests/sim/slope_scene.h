#pragma once
// A bead sliding down a tilted welded mesh, the geometry's analytic check for both backends.
// With the classic law the bead settles to a steady slide: the surface's spring holds it at
// the overlap m g cos θ / k, and the damping and shear on the tangential velocity balance the
// slope's pull at the speed m g sin θ / (damping + shear). The bead slides along one of the
// mesh's edge lines, across its corners, where every contact shows up in several triangles:
// a contact counted twice would halve the overlap there.
#include <cmath>
#include <memory>
#include <numbers>
#include <optional>

#include "sim/engine/simulator.h"
#include "sim/flat_grid.h"
#include "sim/geometry/scene_geometry.h"
#include "sim/model/presets.h"
#include "sim/test_helpers.h"

namespace plab::sim::testing {

struct Slope {
    float theta_deg = 30.f;
    Domain domain{{-0.3f, -0.3f, -0.3f}, {0.3f, 0.3f, 0.3f}};
    Params params;
    float start_uphill = 0.15f;  // m, where the bead starts, uphill of the plane's centre
    Vec3 normal, downhill;       // unit vectors of the tilted plane (it passes through the origin)

    explicit Slope(float theta = 30.f) : theta_deg(theta) {
        params = preset_params(Preset::Classic);
        params.radius = 0.01f;
        params.mass = 0.001f;
        params.spring = 100.f;
        params.damping = 0.02f;
        params.shear = 0.08f;
        params.attraction = 0.f;
        params.dt = 1e-4f;
        params.substeps = 10;
        params.gravity_x = params.gravity_z = 0.f;
        params.gravity_y = -9.81f;
        params.global_damping = 1.f;
        params.collider_radius = 0.f;
        const float t = theta_deg * std::numbers::pi_v<float> / 180.f;
        normal = {-std::sin(t), std::cos(t), 0.f};
        downhill = {-std::cos(t), -std::sin(t), 0.f};
    }

    float gravity() const { return -params.gravity_y; }
    float theta() const { return theta_deg * std::numbers::pi_v<float> / 180.f; }
    float steady_overlap() const {
        return params.mass * gravity() * std::cos(theta()) / params.spring;
    }
    float steady_speed() const {
        return params.mass * gravity() * std::sin(theta()) / (params.damping + params.shear);
    }

    // The mesh: a 40 × 40 welded grid 0.5 m wide, rotated θ about z, with the surface friction
    // `friction` (the frictional law's μ_s against it; none: the run's wall_friction).
    Body body(std::optional<float> friction = {}) const {
        Body b;
        b.friction = friction;
        b.shape = BodyShape::Mesh;
        b.mesh = flat_grid(40, 0.25f);
        b.rotate_deg = {0.f, 0.f, theta_deg};
        return b;
    }

    // One bead resting on the plane (no overlap yet) on the mesh's edge line z = 0,
    // start_uphill of the centre.
    InitialState initial(std::optional<float> friction = {}) const {
        const Vec3 on_plane = -start_uphill * downhill;
        InitialState s =
            state_from_positions({on_plane + params.radius * normal}, domain, params.radius);
        s.geometry = std::make_shared<const SceneGeometry>(place_bodies({body(friction)}, domain));
        return s;
    }

    // How far the bead at `pos` has sunk into the plane, m.
    float overlap(Vec3 pos) const { return params.radius - dot(pos, normal); }
};

// The range of the bead's overlap and downhill speed over its steady slide, and its largest
// speed across the slope.
struct Slide {
    float min_overlap = 1.f, max_overlap = 0.f;
    float min_speed = 1e9f, max_speed = 0.f;
    float max_sideways = 0.f;
};

// Runs the slope on `sim`: 0.6 s to settle (ten time constants of the tangential drag, six of
// the normal damping), then 0.4 s measured after every 10 steps, across corners and edges of
// the grid.
inline Slide slide(Simulator& sim, const Slope& s) {
    sim.reset(s.initial(), s.params);
    for (int k = 0; k < 600; ++k) sim.step(s.params);
    Slide out;
    for (int k = 0; k < 400; ++k) {
        sim.step(s.params);
        const Snapshot snap = sim.download();
        const Vec3 pos = xyz(snap.pos[0]), vel = xyz(snap.vel[0]);
        out.min_overlap = std::fmin(out.min_overlap, s.overlap(pos));
        out.max_overlap = std::fmax(out.max_overlap, s.overlap(pos));
        out.min_speed = std::fmin(out.min_speed, dot(vel, s.downhill));
        out.max_speed = std::fmax(out.max_speed, dot(vel, s.downhill));
        out.max_sideways = std::fmax(out.max_sideways, std::fabs(vel.z));
    }
    return out;
}

// The frictional law on the same mesh tilted `theta_deg`: one glass bead (the preset's, 1 cm,
// no rolling resistance) released at rest, the mesh's friction `mu`. Returns the bead's
// downhill acceleration over 0.2 s, m/s²: g (sin θ − μ cos θ) while it slides, (5/7) g sin θ
// once μ ≥ (2/7) tan θ and it rolls without slipping.
inline double frictional_slope_acceleration(Simulator& sim, float mu, float theta_deg) {
    Slope s(theta_deg);
    s.params = preset_params(Preset::GlassBeads);
    s.params.rolling_friction = 0.f;
    s.params.gravity_x = s.params.gravity_z = 0.f;
    s.params.gravity_y = -9.81f;
    s.params.substeps = 1;
    s.params.collider_radius = 0.f;
    // A domain just round its 5 cm path (the mesh reaches past it): few cells to sort.
    s.domain = {{-0.08f, -0.08f, -0.08f}, {0.08f, 0.08f, 0.08f}};
    s.start_uphill = 0.03f;
    sim.reset(s.initial(mu), s.params);
    const int steps = static_cast<int>(std::lround(0.2 / s.params.dt));
    for (int i = 0; i < steps; ++i) sim.step(s.params);
    return dot(xyz(sim.download().vel[0]), s.downhill) / (steps * double(s.params.dt));
}

// What frictional_slope_acceleration must find on the slope at 20°, m/s²: with the mesh's
// μ 0.05 the bead slides at g (sin θ − μ cos θ); with μ 0.4 (above (2/7) tan θ = 0.104) it rolls
// without slipping at (5/7) g sin θ; either within 2% of g sin θ.
struct SlideOrRoll {
    static constexpr float kTheta = 20.f, kSlidingMu = 0.05f, kRollingMu = 0.4f;
    double slides, rolls, tolerance;
};
inline SlideOrRoll slide_or_roll() {
    const double g = 9.81, th = SlideOrRoll::kTheta * std::numbers::pi / 180.0;
    return {g * (std::sin(th) - SlideOrRoll::kSlidingMu * std::cos(th)),
            5.0 / 7.0 * g * std::sin(th), 0.02 * g * std::sin(th)};
}

}  // namespace plab::sim::testing
