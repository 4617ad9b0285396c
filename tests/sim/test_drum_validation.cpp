// The rotating drum case (sim/validation/drum_validation.h) at reduced size on the CPU backend:
// the set-up, the surface fit on a constructed bed, and a small drum whose bed climbs the rising
// wall and rolls down at an angle. `particle-lab validate drum` runs the case at any size
// against the reference's 27°; the measured angles are in docs/validation.md.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "sim/validation/drum_validation.h"

namespace plab::sim {
namespace {

TEST(DrumValidation, TheCaseFillsTheDrumWithTheReferencesShareOfBeads) {
    const DrumCase c = drum_case(16);
    const DrumReference& ref = kDrumReference;
    EXPECT_EQ(c.init.pos.size(),
              static_cast<std::size_t>(std::lround(ref.beads * 0.2 * 0.2 * 0.2)));
    EXPECT_DOUBLE_EQ(c.radius, 0.12);
    EXPECT_DOUBLE_EQ(c.length, 0.36);
    EXPECT_FLOAT_EQ(c.params.radius, 0.0075f);
    // Every bead inside the drum, a bead and a half from its walls.
    for (const Float4& q : c.init.pos) {
        EXPECT_LE(std::hypot(q.x, q.y), c.radius - 1.4 * 2 * c.params.radius);
        EXPECT_LE(std::abs(q.z), 0.5 * c.length - 1.4 * 2 * c.params.radius);
    }
    // The bed fills about a third of the drum once packed (the beads' own volume over 0.6).
    const double bead = std::numbers::pi / 6 * std::pow(2.0 * c.params.radius, 3);
    const double drum = std::numbers::pi * c.radius * c.radius * c.length;
    EXPECT_NEAR(c.init.pos.size() * bead / 0.6 / drum, 0.33, 0.02);
    // Similar beads: the pack sinks by the same share of a diameter under its weight (k d / m g)
    // and the restitution (the dashpot over √(k m)) stays the preset's.
    const Params preset = preset_params(Preset::GlassBeads);
    const auto sink = [](const Params& p) { return p.spring * 2 * p.radius / p.mass; };
    const auto dashpot = [](const Params& p) { return p.damping / std::sqrt(p.spring * p.mass); };
    EXPECT_NEAR(sink(c.params) / sink(preset), 1.0, 1e-4);
    EXPECT_NEAR(dashpot(c.params) / dashpot(preset), 1.0, 1e-4);
    EXPECT_EQ(c.params.friction, preset.friction);
    // One drum, closed, turning at the reference's speed about z.
    ASSERT_TRUE(c.init.geometry);
    ASSERT_EQ(c.init.geometry->bodies.size(), 1u);
    const float omega = c.init.geometry->bodies[0].omega.z;
    EXPECT_NEAR(omega, 11.6 * 2 * std::numbers::pi / 60, 1e-5);
}

// A bed packed below the plane y = x·tan(θ) − 0.02 across the drum.
Snapshot plane_bed(const DrumCase& c, double angle_deg) {
    const double d = 2.0 * c.params.radius;
    const double s = d * std::cbrt(std::numbers::pi / 6 / 0.6);  // a packing of 0.6
    const double slope = std::tan(angle_deg * std::numbers::pi / 180);
    Snapshot bed;
    for (double z = -0.5 * c.length + d; z <= 0.5 * c.length - d; z += s)
        for (double y = -c.radius + d; y <= c.radius - d; y += s)
            for (double x = -c.radius + d; x <= c.radius - d; x += s)
                if (x * x + y * y < (c.radius - d) * (c.radius - d) && y <= x * slope - 0.02)
                    bed.pos.push_back(
                        {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z), 0.f});
    // A few beads thrown above the surface do not lift it.
    for (int k = 0; k < 5; ++k)
        bed.pos.push_back({static_cast<float>(0.01 * k), 0.09f, static_cast<float>(0.02 * k), 0.f});
    return bed;
}

TEST(DrumValidation, TheSurfaceFitFindsTheAngleOfAFlatBed) {
    const DrumCase c = drum_case(24);
    for (const double angle : {30.0, -20.0}) {
        const DrumSurface f = drum_surface(plane_bed(c, angle), c);
        EXPECT_GE(f.x.size(), 6u);
        EXPECT_NEAR(f.angle_deg, angle, 1.0) << angle;
    }
    EXPECT_EQ(drum_surface(Snapshot{}, c).x.size(), 0u);  // an empty drum has no surface
}

TEST(DrumValidation, ATurningDrumCarriesItsBedUpTheRisingWallAndItRollsDown) {
    // Turning clockwise (seen from +z) the wall rises on the −x side: the surface falls towards
    // +x. A coarse drum, 16 beads across, a second and a half.
    const DrumCase c = drum_case(16, Preset::GlassBeads, -kDrumReference.rpm);
    CpuSimulator sim;
    const DrumResult r = run_drum(sim, c, 1.0, 0.5, 0.1);
    EXPECT_EQ(r.non_finite, 0u);
    EXPECT_EQ(r.escaped, 0u);
    ASSERT_EQ(r.samples.size(), 5u);
    for (const DrumSample& x : r.samples) EXPECT_LT(x.angle_deg, 0.0) << x.t;
    EXPECT_LT(r.mean_deg, -15.0);
    EXPECT_GT(r.mean_deg, -40.0);
}

}  // namespace
}  // namespace plab::sim
