// The double-precision state (SimulatorOptions::double_state) on the CPU backend: it keeps
// the physics of the float state, and it removes the rounding that float positions
// accumulate when a small v·dt is added to a large position every step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sim/cpu/cpu_simulator.h"
#include "sim/model/presets.h"
#include "support/state_distance.h"

namespace plab::sim {
namespace {

SimulatorOptions with_double(bool on) {
    SimulatorOptions o;
    o.double_state = on;
    return o;
}

TEST(DoubleState, FreeFallFollowsTheExactSemiImplicitEulerSequence) {
    // One particle falling from rest, far from everything, 20,000 steps of 10 µs. Semi-
    // implicit Euler gives v_n = n g dt and y_n = y_0 − g dt² n (n + 1) / 2 exactly; float
    // positions near 0.9 m round every step's 20 µm increment to 6e-8 m.
    Params p = preset_params(Preset::Granular);
    p.dt = 1e-5f;
    p.substeps = 1000;
    InitialState init;
    init.domain = {{0.45f, 0.6f, 0.45f}, {0.55f, 1.f, 0.55f}};  // a small grid: fast steps
    init.grid = make_grid(init.domain, 2.f * p.radius);
    init.pos = {{0.5f, 0.9f, 0.5f, 0.f}};
    init.vel = {{0.f, 0.f, 0.f, 0.f}};
    double error[2] = {0, 0};
    for (bool hi : {false, true}) {
        CpuSimulator sim;
        sim.set_options(with_double(hi));
        sim.reset(init, p);
        for (int call = 0; call < 20; ++call) sim.step(p);
        EXPECT_EQ(sim.option_notes(), "");
        const double n = 20.0 * p.substeps, g = -double(p.gravity_y), dt = double(p.dt);
        const double exact = double(init.pos[0].y) - g * dt * dt * n * (n + 1) / 2;
        error[hi] = std::fabs(double(sim.download().pos[0].y) - exact);
    }
    std::printf("free fall: float state off by %.3g m, double state by %.3g m\n", error[0],
                error[1]);
    EXPECT_LT(error[1], 1e-7);      // the final rounding to float only
    EXPECT_LT(error[1], error[0]);  // and float's accumulated rounding is larger
}

TEST(DoubleState, KeepsThePhysicsOfTheFloatState) {
    // A settling classic pile: after 30 steps both states agree as closely as a float run
    // agrees with itself moved by one ulp (the pile is chaotic: 2.7e-5 m, 0.002 radius).
    Params p = preset_params(Preset::Classic);
    p.substeps = 1;
    const std::size_t n = 8000;
    const InitialState init = build_initial_state(preset_scene(Preset::Classic, n, p), p, n);
    CpuSimulator a, b;
    b.set_options(with_double(true));
    a.reset(init, p);
    b.reset(init, p);
    for (int s = 0; s < 30; ++s) {
        a.step(p);
        b.step(p);
    }
    const Snapshot x = a.download(), y = b.download();
    std::vector<double> d = test::distances(x.pos, y.pos);
    std::sort(d.begin(), d.end());
    EXPECT_LT(d.back(), 1e-2 * p.radius);
    EXPECT_LT(d[n / 2], 1e-4 * p.radius);
    EXPECT_GT(test::max_distance(y.pos, init.pos), 1e-4) << "the particles should have moved";
}

TEST(DoubleState, OtherModesRunTheFloatStateAndSaySo) {
    const Params water = preset_params(Preset::Water);
    const std::size_t n = 2000;
    CpuSimulator sph;
    sph.set_options(with_double(true));
    sph.reset(build_initial_state(preset_scene(Preset::Water, n, water), water, n), water);
    sph.step(water);
    EXPECT_NE(sph.option_notes().find("double state"), std::string::npos) << sph.option_notes();

    const Params p = preset_params(Preset::Classic);
    SimulatorOptions o = with_double(true);
    o.scatter_forces = true;
    CpuSimulator scatter;
    scatter.set_options(o);
    scatter.reset(build_initial_state(preset_scene(Preset::Classic, n, p), p, n), p);
    scatter.step(p);
    EXPECT_NE(scatter.option_notes().find("double state"), std::string::npos);
}

}  // namespace
}  // namespace plab::sim
