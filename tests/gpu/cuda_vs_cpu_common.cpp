#include "gpu/cuda_vs_cpu_common.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/test_helpers.h"

namespace plab::sim {

Divergence divergence(Simulator& a, Simulator& b, const Params& p) {
    const Snapshot x = a.download(), y = b.download();
    std::vector<double> d(x.pos.size());
    double cx = 0, cy = 0, cz = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
        const double dx = double(x.pos[i].x) - y.pos[i].x, dy = double(x.pos[i].y) - y.pos[i].y,
                     dz = double(x.pos[i].z) - y.pos[i].z;
        d[i] = std::sqrt(dx * dx + dy * dy + dz * dz);  // NaN if either is not finite
        cx += dx;
        cy += dy;
        cz += dz;
    }
    Divergence out;
    const double n = std::max<double>(1.0, d.size());
    out.centre_of_mass = std::sqrt(cx * cx + cy * cy + cz * cz) / n;
    std::sort(d.begin(), d.end());
    out.max = d.empty() ? 0 : d.back();
    out.median = d.empty() ? 0 : d[d.size() / 2];
    const double ea = a.stats(p).kinetic_energy, eb = b.stats(p).kinetic_energy;
    out.energy = std::fabs(ea - eb) / std::max(ea, 1e-30);
    for (double v : d) EXPECT_TRUE(std::isfinite(v));
    return out;
}

Divergence run_pair(Simulator& a, Simulator& b, Preset preset, std::size_t n, int steps,
                    bool perturb) {
    Params p = preset_params(preset);
    p.substeps = 1;
    const InitialState init = build_initial_state(preset_scene(preset, n, p), p, n);
    InitialState other = init;
    if (perturb)
        for (Float4& x : other.pos) x.x = std::nextafter(x.x, 1e9f);
    a.reset(init, p);
    b.reset(other, p);
    for (int i = 0; i < steps; ++i) {
        a.step(p);
        b.step(p);
    }
    return divergence(a, b, p);
}

void record(const char* key, const Divergence& d) {
    ::testing::Test::RecordProperty(std::string(key) + "_max", std::to_string(d.max));
    ::testing::Test::RecordProperty(std::string(key) + "_median", std::to_string(d.median));
    ::testing::Test::RecordProperty(std::string(key) + "_com", std::to_string(d.centre_of_mass));
    std::printf("%s: max %.3g m, median %.3g m, centre of mass %.3g m, energy %.3g\n", key, d.max,
                d.median, d.centre_of_mass, d.energy);
}

}  // namespace plab::sim
