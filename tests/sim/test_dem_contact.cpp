// The shared DEM formulas: antisymmetric pair forces, the coincident-particle guard, the
// collider and the wall response.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sim/model/presets.h"
#include "sim/physics/dem_contact.h"

namespace plab::sim {
namespace {

Params contact_params() {
    Params p = preset_params(Preset::Classic);
    p.attraction = 0.05f;  // exercise every term
    return p;
}

TEST(ContactForce, IsExactlyAntisymmetric) {
    const Params p = contact_params();
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    int touching = 0;
    for (int k = 0; k < 10000; ++k) {
        const Vec3 a{u(rng) * 0.03f, u(rng) * 0.03f, u(rng) * 0.03f};
        const Vec3 b{u(rng) * 0.03f, u(rng) * 0.03f, u(rng) * 0.03f};
        const Vec3 va{u(rng), u(rng), u(rng)}, vb{u(rng), u(rng), u(rng)};
        const Vec3 fab = contact_force(a, va, 1, p.radius, b, vb, 2, p.radius, p);
        const Vec3 fba = contact_force(b, vb, 2, p.radius, a, va, 1, p.radius, p);
        EXPECT_EQ(fab.x, -fba.x);
        EXPECT_EQ(fab.y, -fba.y);
        EXPECT_EQ(fab.z, -fba.z);
        touching += length_squared(fab) > 0.f;
    }
    EXPECT_GT(touching, 1000) << "most random pairs should be in contact";
}

TEST(ContactForce, ZeroOutsideContact) {
    const Params p = contact_params();
    const Vec3 f = contact_force({0, 0, 0}, {1, 0, 0}, 0, p.radius, {2.0001f * p.radius, 0, 0},
                                 {-1, 0, 0}, 1, p.radius, p);
    EXPECT_EQ(length_squared(f), 0.f);
}

TEST(ContactForce, SpringPushesApartAlongTheLineOfCentres) {
    Params p = contact_params();
    p.damping = p.shear = p.attraction = 0.f;
    const float d = 1.5f * p.radius;  // overlap of half a radius
    const Vec3 f = contact_force({0, 0, 0}, {}, 0, p.radius, {d, 0, 0}, {}, 1, p.radius, p);
    EXPECT_FLOAT_EQ(f.x, -p.spring * (2.f * p.radius - d));
    EXPECT_EQ(f.y, 0.f);
    EXPECT_EQ(f.z, 0.f);
}

TEST(ContactForce, CoincidentParticlesGetFiniteOppositePushes) {
    const Params p = contact_params();
    const Vec3 x{0.1f, 0.2f, 0.3f};
    const Vec3 fa = contact_force(x, {}, 3, p.radius, x, {}, 9, p.radius, p);
    const Vec3 fb = contact_force(x, {}, 9, p.radius, x, {}, 3, p.radius, p);
    ASSERT_TRUE(std::isfinite(fa.x) && std::isfinite(fa.y) && std::isfinite(fa.z));
    EXPECT_LT(fa.x, 0.f);  // the lower id is pushed towards -x
    EXPECT_EQ(fa.x, -fb.x);
    EXPECT_EQ(fa.y, 0.f);
    EXPECT_EQ(fa.z, 0.f);
}

TEST(ColliderForce, PushesOutAndIsOffAtZeroRadius) {
    Params p = preset_params(Preset::Classic);
    p.collider_x = p.collider_y = p.collider_z = 0.f;
    const Vec3 inside{p.collider_radius, 0.f, 0.f};  // overlapping by one particle radius
    EXPECT_GT(collider_force(inside, {}, 0, p).x, 0.f);
    p.collider_radius = 0.f;
    EXPECT_EQ(length_squared(collider_force(inside, {}, 0, p)), 0.f);
}

TEST(Walls, ClampPositionAndScaleNormalVelocity) {
    Params p = contact_params();
    p.dt = 1.f;
    const Domain d{{-1, -1, -1}, {1, 1, 1}};
    Vec3 pos{0.f, -1.f + p.radius + 0.01f, 0.f};
    Vec3 vel{0.25f, -0.5f, 0.f};
    drift_and_walls(pos, vel, p, d);
    EXPECT_FLOAT_EQ(pos.y, -1.f + p.radius);
    EXPECT_FLOAT_EQ(vel.y, -0.5f * p.boundary_damping);
    EXPECT_FLOAT_EQ(vel.x, 0.25f);  // tangential velocity untouched
}

TEST(Kick, AddsForceOverMassAndGravity) {
    Params p = contact_params();
    p.dt = 0.5f;
    p.mass = 2.f;
    const Vec3 v = kick({1.f, 0.f, 0.f}, {4.f, 0.f, 0.f}, p);
    EXPECT_FLOAT_EQ(v.x, 1.f + 4.f / 2.f * 0.5f);
    EXPECT_FLOAT_EQ(v.y, p.gravity_y * 0.5f);
}

}  // namespace
}  // namespace plab::sim
