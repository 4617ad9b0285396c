// The silo's floor plate (sim/geometry/orifice_plate.h): which beads touch it, where and how deep,
// and what the frictional step does with it (a bead rests on the plate, falls through the hole).
#include <gtest/gtest.h>

#include <cmath>

#include "sim/geometry/orifice_plate.h"
#include "sim/physics/dem_frictional_step.h"

namespace plab::sim {
namespace {

constexpr float kR = 0.005f;    // bead radius, m
constexpr float kY = 0.1f;      // plate height, m
constexpr float kHole = 0.02f;  // hole radius, m

PlateContact at(Vec3 c) { return orifice_plate_contact(c, kR, kY, 0.f, 0.f, kHole); }

TEST(OrificePlate, ABeadOverThePlateTouchesItStraightBelow) {
    const PlateContact c = at({0.05f, kY + 0.8f * kR, 0.03f});
    EXPECT_NEAR(c.delta, 0.2f * kR, 1e-7f);
    EXPECT_FLOAT_EQ(c.n.x, 0.f);
    EXPECT_FLOAT_EQ(c.n.y, -1.f);
    EXPECT_FLOAT_EQ(c.n.z, 0.f);
    // One radius up it no longer touches.
    EXPECT_LE(at({0.05f, kY + 1.01f * kR, 0.03f}).delta, 0.f);
}

TEST(OrificePlate, ABeadOverTheHoleFallsThrough) {
    // On the axis, and just inside the rim by more than a radius: no contact at any height.
    for (const float y : {kY + 0.5f * kR, kY, kY - 0.5f * kR}) {
        EXPECT_LE(at({0.f, y, 0.f}).delta, 0.f) << y;
        EXPECT_LE(at({0.f, y, kHole - 1.01f * kR}).delta, 0.f) << y;
    }
}

TEST(OrificePlate, ABeadAtTheRimTouchesTheRim) {
    // Centre in the plate's plane, half a radius inside the rim along +z: pushed towards the
    // axis by half a radius of overlap.
    const PlateContact c = at({0.f, kY, kHole - 0.5f * kR});
    EXPECT_NEAR(c.delta, 0.5f * kR, 1e-6f);
    EXPECT_NEAR(c.n.z, 1.f, 1e-6f);
    EXPECT_NEAR(c.n.x, 0.f, 1e-6f);
    EXPECT_NEAR(c.n.y, 0.f, 1e-6f);
    // Above the rim, diagonally (x = z), the normal points down and out to the rim point.
    const float s = (kHole - 0.5f * kR) / std::sqrt(2.f);
    const PlateContact d = at({s, kY + 0.5f * kR, s});
    const float dist = std::sqrt(0.25f * kR * kR + 0.25f * kR * kR);
    EXPECT_NEAR(d.delta, kR - dist, 1e-6f);
    EXPECT_NEAR(d.n.x, d.n.z, 1e-6f);
    EXPECT_GT(d.n.x, 0.f);
    EXPECT_LT(d.n.y, 0.f);
    EXPECT_NEAR(length_squared(d.n), 1.f, 1e-5f);
}

TEST(OrificePlate, ABeadBelowThePlateTouchesItsUnderside) {
    const PlateContact c = at({0.05f, kY - 0.7f * kR, 0.f});
    EXPECT_NEAR(c.delta, 0.3f * kR, 1e-6f);
    EXPECT_FLOAT_EQ(c.n.y, 1.f);
}

TEST(OrificePlate, AClosedPlateHasNoHoleAndTheAxisMayBeAnywhere) {
    const PlateContact c = orifice_plate_contact({1.f, kY + 0.5f * kR, 2.f}, kR, kY, 1.f, 2.f, 0);
    EXPECT_NEAR(c.delta, 0.5f * kR, 1e-6f);
    EXPECT_FLOAT_EQ(c.n.y, -1.f);
    // A hole around (1, 2) lets the same bead through.
    EXPECT_LE(orifice_plate_contact({1.f, kY + 0.5f * kR, 2.f}, kR, kY, 1.f, 2.f, kHole).delta,
              0.f);
}

// One bead stepped alone with the frictional body: no neighbours, the domain's walls far away.
struct OneBead {
    Params p;
    Domain d{{-0.1f, 0.f, -0.1f}, {0.1f, 0.3f, 0.1f}};
    Float4 pos, vel, sorted_pos, sorted_vel, omega, omega_next;
    uint32_t id = 0, sorted_id = 0, info = 0;
    ContactMemory contacts = ContactMemory::free_slots();
    Float4 wall_xi[3], collider_xi, plate_xi;

    OneBead(Vec3 start) {
        p.contact = static_cast<int>(ContactLaw::Frictional);
        p.radius = kR;
        p.mass = 1.3e-3f;
        p.spring = 5000.f;
        p.damping = 2.f;  // restitution about 0.25
        p.gravity_y = -9.81f;
        p.collider_radius = 0.f;
        p.dt = 5e-5f;
        p.silo_floor = kY;  // d.min.y is 0
        p.orifice = 2 * kHole;
        pos = to_float4(start);
    }
    void step() {
        StepBuffers b{};
        sorted_pos = pos;
        sorted_vel = vel;
        b.sorted_pos = &sorted_pos;
        b.sorted_vel = &sorted_vel;
        b.sorted_id = &sorted_id;
        b.pos = &pos;
        b.vel = &vel;
        b.id = &id;
        b.count = 1;
        FrictionBuffers f;
        f.omega = &omega;
        f.omega_next = &omega_next;
        f.contacts = &contacts;
        f.wall_xi = wall_xi;
        f.collider_xi = &collider_xi;
        f.plate_xi = &plate_xi;
        f.contact_info = &info;
        frictional_particle_step(0, b, f, p, d, [](auto&&) {});
        omega = omega_next;
    }
};

TEST(OrificePlate, TheFrictionalStepRestsABeadOnThePlateAndDropsOneThroughTheHole) {
    OneBead on({0.05f, kY + 2 * kR, 0.f}), over({0.f, kY + 2 * kR, 0.f});
    for (int k = 0; k < 6000; ++k) {  // 0.3 s
        on.step();
        over.step();
    }
    // Resting on the plate with the overlap m g / k.
    EXPECT_NEAR(on.pos.y, kY + kR - on.p.mass * 9.81f / on.p.spring, 2e-5f);
    EXPECT_NEAR(on.vel.y, 0.f, 1e-3f);
    // Through the hole: unhindered it would fall ½ g t² ≈ 0.44 m in 0.3 s, so it lies on the
    // domain's floor, below the plate.
    EXPECT_LT(over.pos.y, kY - kR);
}

}  // namespace
}  // namespace plab::sim
