// SPH formulas and the CPU backend's SPH step: the kernel, the walls, conservation, the
// equation of state, and the divergence guard.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "sim/physics/sph_kernel.h"
#include "sim/run/divergence.h"
#include "sim/validation/sph_validation.h"

namespace plab::sim {
namespace {

Params water() { return preset_params(Preset::Water); }

TEST(SphKernel, IntegratesToOne) {
    const SphConstants c = sph_constants(water());
    // Midpoint rule over the kernel's support on a fine grid.
    const int n = 80;
    const double reach = 2.0 * c.h, step = 2.0 * reach / n;
    double sum = 0;
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const double px = -reach + (x + 0.5) * step, py = -reach + (y + 0.5) * step,
                             pz = -reach + (z + 0.5) * step;
                sum += sph_w(static_cast<float>(px * px + py * py + pz * pz), c);
            }
    EXPECT_NEAR(sum * step * step * step, 1.0, 2e-3);
    EXPECT_EQ(sph_w(c.reach2, c), 0.f);
    EXPECT_GT(sph_w(0.f, c), 0.f);
}

TEST(SphKernel, GradientMatchesTheKernelsSlope) {
    // The calibrated gradient stays within a few per cent of the kernel's own derivative.
    const SphConstants c = sph_constants(water());
    for (float q : {0.3f, 0.8f, 1.3f, 1.8f}) {
        const float r = q * c.h, e = 1e-4f * c.h;
        const float dw = (sph_w((r + e) * (r + e), c) - sph_w((r - e) * (r - e), c)) / (2 * e);
        EXPECT_NEAR(-sph_grad_factor(r * r, c) * r / dw, 1.0, 0.06) << "q = " << q;
    }
}

TEST(SphEquationOfState, TaitWithoutTension) {
    const SphConstants c = sph_constants(water());
    EXPECT_EQ(sph_pressure(1000.f, c), 0.f);
    EXPECT_EQ(sph_pressure(900.f, c), 0.f);  // no negative pressure at the free surface
    const float rho = 1010.f;
    const double tait = c.tait_b * (std::pow(rho / 1000.0, 7.0) - 1.0);
    EXPECT_NEAR(sph_pressure(rho, c), tait, 1e-6 * tait);
    // c² = dp/dρ at rest.
    EXPECT_NEAR((sph_pressure(1000.1f, c) - sph_pressure(1000.f, c)) / 0.1f,
                water().sound_speed * water().sound_speed, 0.01 * 3600);
}

TEST(SphConstantsTest, MassGivesRestDensityOnTheLattice) {
    const Params p = water();
    const SphConstants c = sph_constants(p);
    const double dx = 2.0 * p.radius;
    EXPECT_NEAR(c.mass / (p.rest_density * dx * dx * dx), 1.0, 0.03);
    EXPECT_GT(c.wall_density[0], 0.45f);  // half the kernel lies beyond a wall at d = 0
    EXPECT_LT(c.wall_density[0], 0.55f);
    EXPECT_EQ(sph_wall_table(c.wall_density, 3.f * c.h, c), 0.f);
}

// A lattice block filling a closed box without gravity is an exact equilibrium: every
// particle, at walls, edges and corners included, has the rest density, so nothing moves.
TEST(SphCpu, LatticeInAClosedBoxStaysAtRest) {
    Params p = water();
    p.gravity_y = 0.f;
    Scene s;
    s.name = "closed box";
    s.domain = {{0, 0, 0}, {0.08f, 0.06f, 0.05f}};
    ParticleBlock b;
    b.min = s.domain.min;
    b.max = s.domain.max;
    b.spacing = 2.f * p.radius;
    s.blocks.push_back(b);
    CpuSimulator sim;
    sim.reset(build_initial_state(s, p, scene_capacity(s)), p);
    p.substeps = 10;
    sim.step(p);
    const SimStats st = sim.stats(p);
    EXPECT_EQ(st.count, 8u * 6u * 5u);
    EXPECT_NEAR(st.density_min, p.rest_density, 0.05);
    EXPECT_NEAR(st.density_max, p.rest_density, 0.05);
    EXPECT_LT(st.max_speed, 1e-4f);
}

TEST(SphCpu, ResetComputesTheStartingDensity) {
    // A column on the floor starts hydrostatic: every particle has a density at t = 0,
    // highest at the bottom, and in the liquid's interior within 1% of the rest density.
    const SphCase c = hydrostatic_case(8, 12);
    CpuSimulator sim;
    sim.reset(build_initial_state(c.scene, c.params, c.particles), c.params);
    const Snapshot s = sim.download();
    const SimStats st = sim.stats(c.params);
    EXPECT_GT(st.density_min, 0.4f * c.params.rest_density);  // the surface's corners
    EXPECT_NEAR(st.density_max, c.params.rest_density, 0.01 * c.params.rest_density);
    float low = 0, high = 0;
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
        ASSERT_GT(s.vel[i].w, 0.f) << "particle " << i;
        if (s.pos[i].y < 0.02f && s.pos[i].x > 0.03f && s.pos[i].x < 0.05f) low = s.vel[i].w;
        if (s.pos[i].y > 0.08f && s.pos[i].y < 0.09f && s.pos[i].x > 0.03f && s.pos[i].x < 0.05f)
            high = s.vel[i].w;
    }
    EXPECT_GT(low, high);  // compressed more at the bottom
}

TEST(SphCpu, PairForcesConserveMomentum) {
    // A blob away from the walls with random velocities: pair forces are equal and opposite.
    Params p = water();
    p.gravity_y = 0.f;
    p.xsph = 0.5f;
    Scene s;
    s.name = "blob";
    s.domain = {{0, 0, 0}, {0.3f, 0.3f, 0.3f}};
    ParticleBlock b;
    b.min = {0.1f, 0.1f, 0.1f};
    b.max = {0.16f, 0.16f, 0.16f};
    b.spacing = 1.8f * p.radius;  // compressed: pressure acts from the first step
    b.jitter = 0.2f * p.radius;
    s.blocks.push_back(b);
    InitialState init = build_initial_state(s, p, scene_capacity(s));
    for (std::size_t i = 0; i < init.vel.size(); ++i)
        init.vel[i] = {0.05f * std::sin(1.7f * i), 0.05f * std::cos(2.3f * i), 0.03f, 0};
    auto momentum = [&](const Snapshot& snap) {
        double m[3] = {0, 0, 0};
        for (const Float4& v : snap.vel) {
            m[0] += v.x;
            m[1] += v.y;
            m[2] += v.z;
        }
        return std::array<double, 3>{m[0], m[1], m[2]};
    };
    CpuSimulator sim;
    sim.reset(init, p);
    p.substeps = 20;
    sim.step(p);
    const Snapshot after = sim.download();
    const auto m0 = momentum(Snapshot{init.pos, init.vel});
    const auto m1 = momentum(after);
    double speed_sum = 0;
    for (const Float4& v : after.vel) speed_sum += std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    ASSERT_GT(speed_sum, 0.0);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(m1[k], m0[k], 1e-5 * speed_sum) << "axis " << k;
    for (const Float4& q : after.pos) {  // still away from the walls
        EXPECT_GT(q.x, 0.05f);
        EXPECT_LT(q.x, 0.25f);
    }
}

TEST(SphCpu, DamBreakKeepsEveryParticleInsideTheTank) {
    const SphCase c = dam_break_case(8, 3);
    CpuSimulator sim;
    sim.reset(build_initial_state(c.scene, c.params, c.particles), c.params);
    Params p = c.params;
    p.substeps = 400;
    sim.step(p);
    const Snapshot s = sim.download();
    ASSERT_EQ(s.pos.size(), c.particles);  // mass: the same particles, each the same mass
    const Domain& d = c.scene.domain;
    for (const Float4& q : s.pos) {
        EXPECT_GE(q.x, d.min.x);
        EXPECT_LE(q.x, d.max.x);
        EXPECT_GE(q.y, d.min.y);
        EXPECT_LE(q.y, d.max.y);
        EXPECT_GE(q.z, d.min.z);
        EXPECT_LE(q.z, d.max.z);
    }
    const SimStats st = sim.stats(p);
    EXPECT_EQ(st.non_finite, 0u);
    EXPECT_GT(surge_front(s, p, d), 1.1 * c.a);  // it did collapse
    EXPECT_TRUE(divergence_reason(st, p).empty());
}

TEST(Divergence, NamesTheParameterToChange) {
    Params sph = water();
    SimStats st;
    st.count = 10;
    EXPECT_TRUE(divergence_reason(st, sph).empty());
    st.max_speed = 2.f * sph.sound_speed;
    std::string why = divergence_reason(st, sph);
    EXPECT_NE(why.find("speed of sound"), std::string::npos) << why;
    EXPECT_NE(why.find("dt"), std::string::npos) << why;
    EXPECT_NE(why.find("sound_speed"), std::string::npos) << why;
    st.max_speed = 0.f;
    st.non_finite = 3;
    why = divergence_reason(st, sph);
    EXPECT_NE(why.find("3 particles"), std::string::npos) << why;
    EXPECT_NE(why.find("CFL limit"), std::string::npos) << why;

    const Params dem = preset_params(Preset::Granular);
    EXPECT_NE(divergence_reason(st, dem).find("spring"), std::string::npos);
    SimStats fast;
    fast.max_speed = 5.f * dem.radius / dem.dt;
    EXPECT_NE(divergence_reason(fast, dem).find("two diameters"), std::string::npos);
}

TEST(SphCfl, LimitAndCourantNumberAgree) {
    Params p = water();
    const float limit = sph_max_dt(p, 2.f);
    p.dt = limit;
    EXPECT_LE(sph_courant_number(p, 2.f), kSphCourant * 1.0001f);
    // The preset runs at the limit for flow up to a tenth of the speed of sound.
    EXPECT_NEAR(water().dt, sph_max_dt(water(), 0.1f * water().sound_speed), 1e-12);
}

}  // namespace
}  // namespace plab::sim
