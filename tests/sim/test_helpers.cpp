#include "test_helpers.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "sim/engine/initial_state.h"
#include "sim/model/grid.h"
#include "sim/model/presets.h"

namespace plab::sim::testing {

InitialState state_from_positions(const std::vector<Vec3>& pos, const Domain& domain,
                                  float radius) {
    InitialState s;
    s.domain = domain;
    s.grid = make_grid(domain, 2.f * radius);
    for (const Vec3& p : pos) {
        s.pos.push_back(to_float4(p));
        s.vel.push_back({});
    }
    return s;
}

Params container_bead_params() {
    Params p = preset_params(Preset::Classic);
    p.radius = 0.01f;
    p.mass = 0.001f;
    p.spring = 10000.f;
    p.damping = 0.5f;
    p.shear = 0.1f;
    p.attraction = 0.f;
    p.dt = 1e-4f;
    p.substeps = 10;
    p.global_damping = 1.f;
    p.collider_radius = 0.f;
    return p;
}

std::vector<Vec3> random_positions(std::size_t n, const Domain& d, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> ux(d.min.x, d.max.x), uy(d.min.y, d.max.y),
        uz(d.min.z, d.max.z);
    std::vector<Vec3> out(n);
    for (auto& p : out) p = {ux(rng), uy(rng), uz(rng)};
    return out;
}

std::vector<Vec3> clustered_positions(std::size_t n, const Domain& d, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const auto centres = random_positions(4, d, seed + 1);
    const Vec3 size = d.max - d.min;
    std::normal_distribution<float> spread(0.f, 0.01f * size.x);
    std::vector<Vec3> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 c = centres[i % centres.size()];
        Vec3 p{c.x + spread(rng), c.y + spread(rng), c.z + spread(rng)};
        p.x = std::clamp(p.x, d.min.x, d.max.x);
        p.y = std::clamp(p.y, d.min.y, d.max.y);
        p.z = std::clamp(p.z, d.min.z, d.max.z);
        out[i] = p;
    }
    return out;
}

SortReference stable_sort_reference(const std::vector<Vec3>& pos, const GridSpec& grid) {
    std::vector<uint32_t> ids(pos.size());
    std::iota(ids.begin(), ids.end(), 0u);
    std::vector<uint32_t> cells(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i) cells[i] = cell_index(pos[i], grid);
    std::stable_sort(ids.begin(), ids.end(),
                     [&](uint32_t a, uint32_t b) { return cells[a] < cells[b]; });
    SortReference r;
    r.sorted_id = ids;
    for (uint32_t id : ids) r.sorted_cell.push_back(cells[id]);
    return r;
}

}  // namespace plab::sim::testing
