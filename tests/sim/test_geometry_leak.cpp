// Closed containers hold their beads: a rotated box and a sphere of triangles, each filled with
// beads and shaken by gravity turning through every direction for 100,000 steps, keep every
// bead inside and finite, with either DEM contact law and with SPH. For DEM the bodies are
// two-sided surfaces of no thickness, so this is the test that a bead pressed into a face, an
// edge or a corner is pushed back the way it came; for SPH, that the distance field's walls
// and hard surface hold a liquid sloshing into every corner.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "sim/geometry/scene_geometry.h"
#include "sim/icosphere.h"
#include "sim/model/presets.h"
#include "sim/model/sph_constants.h"
#include "sim/run/make_simulator.h"
#include "sim/test_helpers.h"

namespace plab::sim {
namespace {

// The three ways particles meet a body.
enum class Shaken { Classic, Frictional, Sph };

// Water at the lattice's spacing, its sound ten times the speed of a fall across the container.
Params shaking_liquid() {
    Params p = preset_params(Preset::Water);
    p.radius = 0.0125f;  // the 0.025 m lattice of beads_within
    p.sound_speed = 25.f;
    p.viscosity = 0.05f;
    p.dt = sph_max_dt(p, 2.5f);
    p.substeps = 10;
    return p;
}

Params shaking_params(Shaken what) {
    if (what == Shaken::Sph) return shaking_liquid();
    const ContactLaw law = what == Shaken::Classic ? ContactLaw::Classic : ContactLaw::Frictional;
    Params p = testing::container_bead_params();
    p.contact = int(law);
    // The frictional law's (unused by the classic one): glass-like grains, stickier walls.
    p.friction = 0.5f;
    p.wall_friction = 0.3f;
    p.rolling_friction = 0.05f;
    p.tangential_stiffness = 2.f / 7.f;
    return p;
}

// Gravity of 9.81 m/s² whose direction sweeps the whole sphere: a slow turn about y and a
// faster tilt, so every wall, edge and corner ends up below the beads at some time.
void set_gravity(Params& p, double t) {
    const double tilt = 2.1 * t, turn = 0.7 * t;
    p.gravity_x = float(9.81 * std::sin(tilt) * std::cos(turn));
    p.gravity_y = float(-9.81 * std::cos(tilt));
    p.gravity_z = float(9.81 * std::sin(tilt) * std::sin(turn));
}

// Beads on a lattice of 0.025 m within `half` of the origin on every axis that `inside` keeps.
template <typename Inside>
std::vector<Vec3> beads_within(float half, Inside inside) {
    std::vector<Vec3> pos;
    for (float x = -half; x <= half; x += 0.025f)
        for (float y = -half; y <= half; y += 0.025f)
            for (float z = -half; z <= half; z += 0.025f)
                if (inside(Vec3{x, y, z})) pos.push_back({x, y, z});
    return pos;
}

// Runs 100,000 steps and returns the first bead `inside` refuses, or "".
template <typename Inside>
std::string shake(Shaken what, const Body& container, const std::vector<Vec3>& beads,
                  Inside inside) {
    Params p = shaking_params(what);
    const Domain domain{{-0.3f, -0.3f, -0.3f}, {0.3f, 0.3f, 0.3f}};
    InitialState init = testing::state_from_positions(beads, domain, p.radius);
    init.grid = make_grid(domain, interaction_range(p));  // the kernel's reach for SPH
    init.geometry = std::make_shared<const SceneGeometry>(place_bodies({container}, domain));
    auto sim = make_simulator(Backend::Cpu);
    sim->reset(init, p);
    for (int call = 0; call < 10000; ++call) {
        set_gravity(p, call * p.substeps * double(p.dt));
        sim->step(p);
    }
    const Snapshot s = sim->download();
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
        const Vec3 x = xyz(s.pos[i]), v = xyz(s.vel[i]);
        const bool finite = std::isfinite(x.x + x.y + x.z + v.x + v.y + v.z);
        if (!finite || !inside(x))
            return "bead " + std::to_string(i) + " at [" + std::to_string(x.x) + ", " +
                   std::to_string(x.y) + ", " + std::to_string(x.z) + "]";
    }
    return "";
}

class GeometryLeak : public ::testing::TestWithParam<Shaken> {};

TEST_P(GeometryLeak, ARotatedBoxHoldsItsBeads) {
    Body box;
    box.shape = BodyShape::Box;
    box.box_min = {-0.1f, -0.1f, -0.1f};
    box.box_max = {0.1f, 0.1f, 0.1f};
    box.rotate_deg = {30.f, 20.f, 10.f};
    box.inside = true;
    // Inside the box in its own frame (undo the rotation about z, then y, then x).
    auto inside = [&](Vec3 x) {
        const Vec3 ex = place_normal(box, {1, 0, 0}), ey = place_normal(box, {0, 1, 0}),
                   ez = place_normal(box, {0, 0, 1});
        return std::fabs(dot(x, ex)) < 0.1f && std::fabs(dot(x, ey)) < 0.1f &&
               std::fabs(dot(x, ez)) < 0.1f;
    };
    // Start a radius and a half clear of the walls.
    const auto beads = beads_within(0.1f, [&](Vec3 x) {
        const Vec3 ex = place_normal(box, {1, 0, 0}), ey = place_normal(box, {0, 1, 0}),
                   ez = place_normal(box, {0, 0, 1});
        return std::fabs(dot(x, ex)) < 0.085f && std::fabs(dot(x, ey)) < 0.085f &&
               std::fabs(dot(x, ez)) < 0.085f;
    });
    ASSERT_GT(beads.size(), 200u);
    EXPECT_EQ(shake(GetParam(), box, beads, inside), "");
}

TEST_P(GeometryLeak, ASphereOfTrianglesHoldsItsBeads) {
    Body sphere;
    sphere.shape = BodyShape::Mesh;
    sphere.mesh = testing::icosphere(2, 0.12f);  // 320 triangles
    sphere.inside = true;
    auto inside = [](Vec3 x) { return length_squared(x) < 0.12f * 0.12f; };
    // The flat faces lie up to 1.2% of the radius inside the sphere: start well clear.
    const auto beads = beads_within(0.12f, [](Vec3 x) { return length_squared(x) < 0.1f * 0.1f; });
    ASSERT_GT(beads.size(), 200u);
    EXPECT_EQ(shake(GetParam(), sphere, beads, inside), "");
}

INSTANTIATE_TEST_SUITE_P(BothLawsAndSph, GeometryLeak,
                         ::testing::Values(Shaken::Classic, Shaken::Frictional, Shaken::Sph),
                         [](const auto& param_info) {
                             return param_info.param == Shaken::Classic      ? "Classic"
                                    : param_info.param == Shaken::Frictional ? "Frictional"
                                                                             : "Sph";
                         });

}  // namespace
}  // namespace plab::sim
