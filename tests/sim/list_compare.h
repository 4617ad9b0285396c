#pragma once
// Neighbour lists against the per-step grid from the same state: a run with lists goes on
// undisturbed while, every few steps, a reference simulator (lists off) is reset to its state
// and both take one step. Pair sums over the list and over the grid then differ only in the
// order of their float additions; a missed contact would differ by a whole contact force.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/engine/initial_state.h"
#include "sim/engine/simulator.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/model/presets.h"
#include "sim/model/scene.h"
#include "support/state_distance.h"

namespace plab::sim::testing {

// Summation order alone. DEM: measured below 2e-5 of the step's largest kick and move (a
// missed contact is a whole contact force, of the order of the largest kick itself). SPH: the
// stiff equation of state turns float summation order into up to 1e-3 of the kick and 1e-2 of
// the move (measured), with densities equal to 1e-6; one missed neighbour is up to 2% of a
// density.
inline constexpr double kOrderOnly = 1e-3;
inline constexpr double kSphOrderOnly = 3e-2;
inline constexpr double kSphDensity = 1e-5;

// A preset's parameters with one step per call, so that every step can be compared.
inline Params one_step_params(Preset preset) {
    Params p = preset_params(preset);
    p.substeps = 1;
    return p;
}

// A preset's scene of `count` particles.
inline InitialState preset_state(Preset preset, std::size_t count, const Params& p) {
    return build_initial_state(preset_scene(preset, count, p), p, count);
}

struct ListComparison {
    // Largest difference after one step, as a share of the largest change that step made
    // (velocity: the largest kick; position: the largest move).
    double velocity = 0, position = 0;
    double density = 0;       // SPH: largest density difference over the rest density
    double largest_kick = 0;  // m/s, the largest velocity change of a compared step
    int compared = 0;
    long on_surfaces = 0;      // particle-steps left out: on a wall or the collider (on_a_surface)
    long on_threshold = 0;     // particle-steps left out: in a pair at the contact distance
    NeighbourListStats stats;  // of the listed run at the end
};

// Within a few float roundings of a wall or (SPH) of the collider's clamped surface.
inline bool on_a_surface(Float4 x, const Domain& d, const Params& p) {
    const float eps = 1e-5f * std::max({d.max.x - d.min.x, d.max.y - d.min.y, d.max.z - d.min.z});
    const float w = p.radius;  // drift_and_walls keeps centres a radius inside
    auto near = [&](float v, float lo, float hi) {
        return std::fabs(v - (lo + w)) <= eps || std::fabs(v - (hi - w)) <= eps;
    };
    if (near(x.x, d.min.x, d.max.x) || near(x.y, d.min.y, d.max.y) || near(x.z, d.min.z, d.max.z))
        return true;
    if (p.model != Model::Sph || !(p.collider_radius > 0.f)) return false;
    const float dx = x.x - p.collider_x, dy = x.y - p.collider_y, dz = x.z - p.collider_z;
    return std::fabs(std::sqrt(dx * dx + dy * dy + dz * dz) - (p.collider_radius + p.radius)) <=
           eps;
}

// DEM: the particles (by index) of every pair, and every particle and the collider, whose
// squared distance lies within float rounding of the contact distance's square. The classic law's
// dashpot switches on with the contact, so such a pair can be in contact on one backend and not on
// the other (the device fuses the multiply-adds of a squared distance, the host does not) and the
// two steps differ by a whole dashpot force without any contact being missed.
inline std::vector<char> at_contact_threshold(const std::vector<Float4>& pos, const Params& p) {
    std::vector<char> out(pos.size(), 0);
    auto near = [](double d2, double r) { return std::fabs(d2 - r * r) <= 1e-6 * r * r; };
    if (p.collider_radius > 0.f) {
        for (std::size_t i = 0; i < pos.size(); ++i) {
            const double x = double(pos[i].x) - p.collider_x, y = double(pos[i].y) - p.collider_y,
                         z = double(pos[i].z) - p.collider_z;
            if (near(x * x + y * y + z * z, double(p.radius) + p.collider_radius)) out[i] = 1;
        }
    }
    // The particles by cell of a grid over their bounding box (the simulators' own kind of
    // grid), cells one contact distance wide.
    if (pos.empty()) return out;
    const float reach = 2.f * p.radius;
    Domain box{xyz(pos[0]), xyz(pos[0])};
    for (const Float4& x : pos) {
        box.min = {std::min(box.min.x, x.x), std::min(box.min.y, x.y), std::min(box.min.z, x.z)};
        box.max = {std::max(box.max.x, x.x), std::max(box.max.y, x.y), std::max(box.max.z, x.z)};
    }
    box.max = {box.max.x + reach, box.max.y + reach, box.max.z + reach};
    const GridSpec g = make_grid(box, reach);
    std::vector<uint32_t> start(g.num_cells() + 1, 0), order(pos.size());
    for (const Float4& x : pos) ++start[cell_index(xyz(x), g) + 1];
    for (uint32_t c = 0; c < g.num_cells(); ++c) start[c + 1] += start[c];
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < pos.size(); ++i)
        order[fill[cell_index(xyz(pos[i]), g)]++] = static_cast<uint32_t>(i);
    for (std::size_t i = 0; i < pos.size(); ++i) {
        const CellCoord c = cell_of(xyz(pos[i]), g);
        for (int z = std::max(c.z - 1, 0); z <= std::min(c.z + 1, g.dim_z - 1); ++z)
            for (int y = std::max(c.y - 1, 0); y <= std::min(c.y + 1, g.dim_y - 1); ++y)
                for (int x = std::max(c.x - 1, 0); x <= std::min(c.x + 1, g.dim_x - 1); ++x) {
                    const uint32_t cell = g.linear(x, y, z);
                    for (uint32_t k = start[cell]; k < start[cell + 1]; ++k) {
                        const uint32_t j = order[k];
                        if (j <= i) continue;
                        const double dx = double(pos[i].x) - pos[j].x,
                                     dy = double(pos[i].y) - pos[j].y,
                                     dz = double(pos[i].z) - pos[j].z;
                        if (near(dx * dx + dy * dy + dz * dz, reach)) out[i] = out[j] = 1;
                    }
                }
    }
    return out;
}

// A lattice at rest (a small gap between neighbours), a cube `half` m across each way from the
// centre, with `fast` particles shot through it along x: they pass half the skin within a
// step, and the particles they reach did not list them (the lists' strays, list_strays.h).
inline InitialState lattice_with_fast_particles(const Params& p, float half, int fast,
                                                uint32_t seed) {
    Scene scene;
    scene.domain = {{-1, -1, -1}, {1, 1, 1}};
    scene.blocks.push_back({BlockShape::Box,
                            {-half, -half, -half},
                            {half, half, half},
                            2.2f * p.radius,
                            0.05f * p.radius,
                            {}});
    InitialState init = build_initial_state(scene, p, scene_capacity(scene));
    for (auto& v : init.vel) v = {0.f, 0.f, 0.f, 0.f};
    // 0.3 radii a step at dt = 0.5: past skin / 2 (0.05 diameters at skin 0.1) at once.
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, init.vel.size() - 1);
    for (int k = 0; k < fast; ++k) init.vel[pick(rng)] = {0.6f * p.radius, 0.f, 0.f, 0.f};
    return init;
}

// `listed` and `reference` are reset here; `every` steps apart a comparison.
inline ListComparison compare_list_with_grid(Simulator& listed, Simulator& reference,
                                             const InitialState& init, const Params& p, int steps,
                                             int every) {
    ListComparison out;
    listed.reset(init, p);
    for (int s = 0; s < steps; ++s) {
        if (s % every != 0) {
            listed.step(p);
            continue;
        }
        const Snapshot before = listed.download();
        InitialState same{init.domain, init.grid, before.pos, before.vel};
        reference.reset(same, p);
        listed.step(p);
        reference.step(p);
        const Snapshot a = listed.download(), b = reference.download();
        const std::vector<char> threshold = p.model == Model::Dem
                                                ? at_contact_threshold(before.pos, p)
                                                : std::vector<char>(before.pos.size(), 0);
        double dv = 0, kick = 0, dx = 0, move = 0;
        for (std::size_t i = 0; i < a.pos.size(); ++i) {
            kick = std::max(kick, test::distance3(b.vel[i], before.vel[i]));
            move = std::max(move, test::distance3(b.pos[i], before.pos[i]));
            // A wall or the collider's surface sets a particle's normal velocity by a branch, so
            // a rounding-level difference in where it is can flip it: such particles are not
            // compared.
            if (on_a_surface(a.pos[i], init.domain, p) || on_a_surface(b.pos[i], init.domain, p)) {
                ++out.on_surfaces;
                continue;
            }
            if (threshold[i]) {
                ++out.on_threshold;
                continue;
            }
            dv = std::max(dv, test::distance3(a.vel[i], b.vel[i]));
            if (p.model == Model::Sph)
                out.density = std::max(out.density,
                                       std::fabs(double(a.vel[i].w) - b.vel[i].w) / p.rest_density);
            dx = std::max(dx, test::distance3(a.pos[i], b.pos[i]));
        }
        out.largest_kick = std::max(out.largest_kick, kick);
        out.velocity = std::max(out.velocity, kick > 0 ? dv / kick : dv);
        out.position = std::max(out.position, move > 0 ? dx / move : dx);
        ++out.compared;
    }
    out.stats = listed.list_stats();
    return out;
}

}  // namespace plab::sim::testing
