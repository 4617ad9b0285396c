// The silo discharge case (sim/validation/silo_validation.h) at reduced size on the CPU backend:
// the flow fit on constructed series, Beverloo's law, and a small silo of glass beads that drains
// through its orifice and holds with the orifice closed. `particle-lab validate silo` runs the
// case at any size against Beverloo's law; the measured table is in docs/validation.md.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sim/cpu/cpu_simulator.h"
#include "sim/validation/silo_validation.h"

namespace plab::sim {
namespace {

TEST(SiloValidation, BeverlooFlowFollowsTheFiveHalvesPowerOfTheOpening) {
    const double d = 0.01;
    EXPECT_NEAR(beverloo_flow(0.58, 1500, 0.06, d),
                0.58 * 1500 * std::sqrt(9.81) * std::pow(0.045, 2.5), 1e-12);
    EXPECT_NEAR(beverloo_flow(1, 1000, 0.035, d) / beverloo_flow(1, 1000, 0.02, d),
                std::pow(0.02 / 0.005, 2.5), 1e-9);
    EXPECT_EQ(beverloo_flow(0.58, 1500, 0.015, d), 0.0);  // D ≤ 1.5 d: no flow
}

TEST(SiloValidation, BeverloosFitOverOrificesRecoversItsConstants) {
    const double d = 0.01, rho = 1500;
    const std::vector<double> D = {0.06, 0.08, 0.10, 0.12};
    // Flows that follow the law with k = 1.5 exactly: one C, no orifice off it.
    std::vector<double> W;
    for (double o : D) W.push_back(beverloo_flow(0.55, rho, o, d));
    BeverlooFit f = fit_beverloo(D, W, rho, d);
    EXPECT_NEAR(f.c, 0.55, 1e-9);
    EXPECT_LT(f.worst, 1e-9);
    EXPECT_NEAR(f.c_free, 0.55, 1e-9);
    EXPECT_NEAR(f.k_free, 1.5, 1e-9);
    // Flows with k = 1.75: the free fit finds both constants; with k held at 1.5 the small
    // orifices fall below the law and the large ones above it.
    W.clear();
    for (double o : D) W.push_back(beverloo_flow(0.566, rho, o, d, 1.75));
    f = fit_beverloo(D, W, rho, d);
    EXPECT_NEAR(f.c_free, 0.566, 1e-9);
    EXPECT_NEAR(f.k_free, 1.75, 1e-9);
    EXPECT_LT(f.c, 0.566);
    EXPECT_GT(f.worst, 0.01);
    EXPECT_LT(beverloo_flow(f.c, rho, D[0], d), W[0] * 1.2);
    // One orifice: its own C and no free fit; an orifice too small for the law is left out.
    f = fit_beverloo({0.05, 0.012}, {beverloo_flow(0.6, rho, 0.05, d), 0.0}, rho, d);
    EXPECT_NEAR(f.c, 0.6, 1e-9);
    EXPECT_EQ(f.c_free, 0.0);
    EXPECT_EQ(f.k_free, 0.0);
}

TEST(SiloValidation, TheFitRecoversASteadyFlowAndItsChangeWithHeight) {
    // 2 kg/s from 0.1 s on, the fill falling 0.1 m a second from 0.5 m.
    std::vector<SiloSample> steady;
    for (int k = 0; k <= 300; ++k) {
        const double t = 0.01 * k, m = t < 0.1 ? 0.0 : 2.0 * (t - 0.1);
        steady.push_back({t, m, 0.5 - 0.05 * m});
    }
    const SiloFit f = fit_silo_flow(steady, 0.1, 0.1, 3);
    EXPECT_NEAR(f.flow, 2.0, 1e-9);
    ASSERT_EQ(f.windows.size(), 3u);
    for (const SiloWindow& w : f.windows) {
        EXPECT_NEAR(w.flow, 2.0, 1e-9);
        EXPECT_GE(w.samples, 3);
    }
    EXPECT_LT(f.spread, 1e-9);
    EXPECT_GT(f.windows[0].fill_hi, f.windows[2].fill_lo);
    // A flow that slows as the fill sinks spreads across the windows.
    std::vector<SiloSample> slowing;
    double m = 0;
    for (int k = 0; k <= 300; ++k) {
        const double fill = 0.5 - 0.05 * m;
        slowing.push_back({0.01 * k, m, fill});
        m += 0.01 * 4.0 * fill;  // W ∝ the fill's height
    }
    EXPECT_GT(fit_silo_flow(slowing, 0.0, 0.1, 3).spread, 0.1);
}

TEST(SiloValidation, ASmallSiloDrainsThroughItsOrificeAndHoldsWhenItIsClosed) {
    // 9 beads wide, filled 8 high: about 730 beads. (Filled 6 high the fill stood above the
    // 5 d orifice for only 0.25 s, the start of the flow the fit skips: with the rolling
    // springs it dropped below it one sample after the skip, leaving nothing to fit.)
    const SiloCase c = silo_case(9, 8);
    CpuSimulator sim;
    const SiloFill fill = settle_silo(sim, c);
    EXPECT_EQ(fill.non_finite, 0u);
    // A random pack of frictional spheres: between random loose and random close packing.
    const double d = 2.0 * c.params.radius;
    const double phi = fill.bulk_density / (c.params.mass / (M_PI / 6.0 * d * d * d));
    EXPECT_GT(phi, 0.5);
    EXPECT_LT(phi, 0.66);
    EXPECT_NEAR(fill.height / d, 8.0, 1.5);

    const SiloResult closed = discharge_silo(sim, c, fill, 0, 0.3);
    EXPECT_EQ(closed.discharged, 0u);
    EXPECT_EQ(closed.non_finite, 0u);

    const SiloResult open = discharge_silo(sim, c, fill, 5, 0.5);
    EXPECT_EQ(open.non_finite, 0u);
    // Beverloo with C = 0.58 puts ~480 beads a second through 5 d, ~240 in 0.5 s (less the
    // ~0.1 s the first beads take to fall clear of the plate); half of that is a flow, not a
    // trickle.
    EXPECT_GT(open.discharged, 120u);
    EXPECT_GT(open.fit.flow, 0.0);
    EXPECT_GT(open.coefficient, 0.2);
    EXPECT_LT(open.coefficient, 1.5);
    // The series only ever grows.
    for (std::size_t k = 1; k < open.series.size(); ++k)
        EXPECT_GE(open.series[k].discharged, open.series[k - 1].discharged);
}

}  // namespace
}  // namespace plab::sim
