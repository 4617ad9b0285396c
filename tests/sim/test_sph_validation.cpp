// The SPH validations at reduced resolution on the CPU backend: a hydrostatic tank and the
// Martin & Moyce dam break. `particle-lab validate` runs the same cases at full resolution.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/cpu_simulator.h"
#include "sim/sph_kernel.h"
#include "sim/sph_validation.h"

namespace plab::sim {
namespace {

Snapshot run_for(CpuSimulator& sim, Params p, double seconds) {
    p.substeps = 1;
    const auto steps = static_cast<long>(std::ceil(seconds / p.dt));
    for (long s = 0; s < steps; ++s) sim.step(p);
    return sim.download();
}

TEST(SphValidation, HydrostaticPressureFollowsDepth) {
    const SphCase c = hydrostatic_case(10, 20);
    CpuSimulator sim;
    sim.reset(build_initial_state(c.scene, c.params, c.particles), c.params);
    // Settle for several sound crossings and a few sloshing periods.
    const Snapshot s = run_for(sim, c.params, 1.0);
    const SimStats st = sim.stats(c.params);
    EXPECT_EQ(st.non_finite, 0u);
    const double spacing = 2.0 * c.params.radius;
    const DepthProfile prof = depth_profile(s, c.params, c.scene.domain, 2.5 * spacing);
    const double rho0 = c.params.rest_density, g = 9.81;
    // The free surface: where the liquid's mass ends.
    const double surface = c.a * (double(st.count) / double(c.particles));
    int checked = 0;
    for (std::size_t k = 0; k < prof.y.size(); ++k) {
        // Away from the floor and the free surface (two kernel reaches each).
        if (prof.y[k] < 2.5 * spacing || prof.y[k] > surface - 5.0 * spacing) continue;
        if (prof.count[k] == 0) continue;
        const double expected = rho0 * g * (surface - prof.y[k]);
        std::printf("y %.3f  p %.1f  expected %.1f  (%.1f%%)  rho %.2f\n", prof.y[k],
                    prof.pressure[k], expected, 100 * (prof.pressure[k] / expected - 1),
                    prof.density[k]);
        EXPECT_NEAR(prof.pressure[k], expected, 0.05 * expected) << "at y = " << prof.y[k];
        EXPECT_NEAR(prof.density[k], rho0, 0.01 * rho0) << "at y = " << prof.y[k];
        ++checked;
    }
    EXPECT_GE(checked, 6);
}

TEST(SphValidation, DamBreakFrontFollowsMartinMoyce) {
    const SphCase c = dam_break_case(20, 4);
    CpuSimulator sim;
    sim.reset(build_initial_state(c.scene, c.params, c.particles), c.params);
    Params p = c.params;
    p.substeps = 1;
    const double g = 9.81, a = c.a;
    const double to_t = std::sqrt(2.0 * g / a);
    double t = 0;
    double worst = 0;
    for (const SurgePoint& ref : martin_moyce_points()) {
        if (ref.t > 3.0) break;
        while (t * to_t < ref.t) {
            sim.step(p);
            t += p.dt;
        }
        const Snapshot s = sim.download();
        const double z = surge_front(s, p, c.scene.domain) / a;
        const double ref_z = martin_moyce_front(t * to_t);
        std::printf("T %.3f  Z %.3f  Martin & Moyce %.3f  (%+.1f%%)\n", t * to_t, z, ref_z,
                    100 * (z / ref_z - 1));
        worst = std::max(worst, std::abs(z / ref_z - 1));
        EXPECT_NEAR(z, ref_z, 0.10 * ref_z) << "at T = " << t * to_t;
    }
    const SimStats st = sim.stats(p);
    EXPECT_EQ(st.non_finite, 0u);
    std::printf("worst %.1f%%, density %.1f..%.1f mean %.1f\n", 100 * worst, st.density_min,
                st.density_max, st.density_mean);
}

}  // namespace
}  // namespace plab::sim
