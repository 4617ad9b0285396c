#pragma once
// The per-particle bodies of one SPH step, written once for both backends (as dem_step.h is
// for DEM) and run on the same grid, counting sort and buffers:
//   hash, scan, scatter   as for DEM: S = the state in cell order
//   density   S.vel[i].w = Σⱼ m W(rᵢⱼ) + walls              (every sorted particle)
//   forces    pressure, viscosity, walls, gravity → kick, drift with walls → A
// The density rides in the velocity's w component: the force pass reads a neighbour's
// velocity and density in one 16-byte load, and the drift writes it back with the state so
// downloads and exports see the density of the last step at no extra memory.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/model/grid.h"
#include "sim/model/params.h"
#include "sim/physics/dem_contact.h"
#include "sim/physics/dem_step.h"
#include "sim/physics/neighbour_list.h"
#include "sim/physics/sph_body_walls.h"
#include "sim/physics/sph_kernel.h"

namespace plab::sim {

// Kernel sum of sorted particle i over the given neighbour rows (itself included), in
// kg/m³. Walls are added once per particle by sph_wall_density.
PLAB_HD inline float sph_density_sum(Vec3 pos, const StepBuffers& b, const GridSpec& g,
                                     const SphConstants& c) {
    float sum = 0.f;
    for_each_candidate_in_reach(pos, b, g, [&](uint32_t j) {
        sum += sph_w(length_squared(xyz(load(b.sorted_pos + j)) - pos), c);
    });
    return c.mass * sum;
}

// Density the walls and bodies lend a particle near them: mirrored liquid at rest density.
PLAB_HD inline float sph_wall_density(Vec3 pos, const Params& p, const Domain& d,
                                      const SphConstants& c, const FieldView& field) {
    float share = 0.f;
    for_each_wall(pos, p, d.min, d.max, 2.f * c.h,
                  [&](float dist, Vec3) { share += sph_wall_table(c.wall_density, dist, c); });
    float overlap = 0.f;
    for_each_wall_overlap(pos, d.min, d.max, 2.f * p.radius, 2.f * c.h, [&](Vec3 r, float sign) {
        overlap += sign * sph_w(length_squared(r), c);
    });
    return c.rest_density * share + c.mass * overlap +
           body_wall_density(body_walls(pos, field, 2.f * c.h), 2.f * p.radius, c);
}

PLAB_HD inline void sph_density_particle(uint32_t i, const StepBuffers& b, const GridSpec& g,
                                         const Params& p, const Domain& d, const SphConstants& c) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    b.sorted_vel[i].w =
        sph_density_sum(pos, b, g, c) + sph_wall_density(pos, p, d, c, b.geometry.field);
}

// What the neighbours do to one particle: the pressure and viscous acceleration (m/s²) and,
// when XSPH is on, Σⱼ (m / ρ̄ᵢⱼ) (vⱼ − vᵢ) Wᵢⱼ (m/s, scaled by ε at the drift).
struct SphPairSums {
    Vec3 accel;
    Vec3 xsph;
};

// One neighbour's share: the symmetric pressure term pᵢ/ρᵢ² + pⱼ/ρⱼ² (so pair forces are
// equal and opposite) plus Monaghan's artificial viscosity
// Πᵢⱼ = −α c h (vᵢⱼ·rᵢⱼ) / (ρ̄ᵢⱼ (rᵢⱼ² + 0.01 h²)) on approaching pairs. `r` = xᵢ − xⱼ with
// r2 = |r|² < reach2; `own` and `other_term` = pᵢ/ρᵢ² and pⱼ/ρⱼ² (sph_pressure_term);
// `other` = the neighbour's velocity and density.
PLAB_HD inline void sph_add_pair(SphPairSums& s, Vec3 r, float r2, Vec3 vel, float density,
                                 float own, Float4 other, float other_term, const SphConstants& c) {
    const float rho_j = other.w;
    const Vec3 v = vel - xyz(other);
    float term = own + other_term;
    const float vr = dot(v, r);
    const float inv_mean_rho = fast_divide(2.f, density + rho_j);
    if (vr < 0.f) term -= fast_divide(c.visc * vr * inv_mean_rho, r2 + c.visc_eps);
    s.accel += r * (c.mass * term * sph_grad_factor(r2, c));
    if (c.xsph > 0.f) s.xsph += (-v) * (c.mass * inv_mean_rho * sph_w(r2, c));
}

// p/ρ², the pressure's share of a pair's momentum term.
PLAB_HD inline float sph_pressure_term(float density, const SphConstants& c) {
    return fast_divide(sph_pressure(density, c), density * density);
}

// `pressure_terms`: p/ρ² of every sorted particle, computed once after the density pass
// (a power of the density: worth doing once a particle rather than once a pair).
// `candidates(visit)` calls visit(j) for every candidate j: the grid (sph_pair_sums) or a
// neighbour list (sph_force_particle_listed).
template <typename Candidates>
PLAB_HD inline SphPairSums sph_pair_sums_over(uint32_t i, Vec3 pos, Vec3 vel, float density,
                                              const StepBuffers& b, const SphConstants& c,
                                              const float* pressure_terms,
                                              Candidates&& candidates) {
    const float own = pressure_terms[i];
    SphPairSums s{};
    candidates([&](uint32_t j) {
        if (j == i) return;
        const Vec3 r = pos - xyz(load(b.sorted_pos + j));
        const float r2 = length_squared(r);
        if (r2 >= c.reach2) return;
        const Float4 other = load(b.sorted_vel + j);
        sph_add_pair(s, r, r2, vel, density, own, other, pressure_terms[j], c);
    });
    return s;
}

PLAB_HD inline SphPairSums sph_pair_sums(uint32_t i, Vec3 pos, Vec3 vel, float density,
                                         const StepBuffers& b, const GridSpec& g,
                                         const SphConstants& c, const float* pressure_terms) {
    return sph_pair_sums_over(i, pos, vel, density, b, c, pressure_terms,
                              [&](auto&& visit) { for_each_candidate_in_reach(pos, b, g, visit); });
}

// The walls' push: (p/ρ²) Σ m g r over the mirror layers, along each wall's normal. This is
// minus the gradient of the particle's internal energy through the density the wall lends
// it, so the walls conserve energy. (Counting the mirror's pressure too, 2 p/ρ² as for a
// real pair, is the usual ghost-particle form; here it made a tank at rest heat up to 2 m/s
// within 0.3 s without viscosity, because that force has no potential.) `bodies`: the bodies'
// faces near the particle (body_walls), pushing the same way.
PLAB_HD inline Vec3 sph_wall_accel(Vec3 pos, float density, const Params& p, const Domain& d,
                                   const SphConstants& c, const BodyWalls& bodies) {
    const float k = sph_pressure(density, c) / (density * density) * c.rest_density;
    Vec3 a{};
    if (!(k > 0.f)) return a;
    for_each_wall(pos, p, d.min, d.max, 2.f * c.h,
                  [&](float dist, Vec3 n) { a += n * (k * sph_wall_table(c.wall_push, dist, c)); });
    a += body_wall_accel(bodies, k, 2.f * p.radius, c);
    const float km = k * c.mass / c.rest_density;
    for_each_wall_overlap(pos, d.min, d.max, 2.f * p.radius, 2.f * c.h, [&](Vec3 r, float sign) {
        a += r * (sign * km * sph_grad_factor(length_squared(r), c));
    });
    return a;
}

// The collider's hard surface: a particle inside it is put on it and loses the inward part
// of its velocity (the wall term keeps this rare, as the domain's walls do).
PLAB_HD inline void sph_collider_clamp(Vec3& pos, Vec3& vel, const Params& p) {
    if (!(p.collider_radius > 0.f)) return;
    const Vec3 centre{p.collider_x, p.collider_y, p.collider_z};
    const Vec3 off = pos - centre;
    const float dist2 = length_squared(off);
    const float min_dist = p.collider_radius + p.radius;
    if (dist2 >= min_dist * min_dist || !(dist2 > 0.f)) return;
    const float dist = sqrtf(dist2);
    const Vec3 n = off * (1.f / dist);
    pos = centre + n * min_dist;
    const float vn = dot(vel, n);
    if (vn < 0.f) vel = vel - n * vn;
}

// Semi-implicit Euler: kick with the summed acceleration and gravity, drift with the new
// velocity (plus the XSPH blend), walls and bodies; written into the state arrays A with the
// density.
PLAB_HD inline void sph_finish_into_state(uint32_t i, Vec3 pos, Vec3 vel, uint32_t id,
                                          float density, const SphPairSums& sums,
                                          const StepBuffers& b, const Params& p, const Domain& d,
                                          const SphConstants& c) {
    const Vec3 gravity{p.gravity_x, p.gravity_y, p.gravity_z};
    const BodyWalls bodies = body_walls(pos, b.geometry.field, 2.f * c.h);
    const Vec3 accel = sums.accel + sph_wall_accel(pos, density, p, d, c, bodies) + gravity;
    Vec3 v = vel + accel * p.dt;
    pos += sums.xsph * (c.xsph * p.dt);
    drift_and_walls(pos, v, p, d);
    sph_collider_clamp(pos, v, p);
    body_wall_clamp(pos, v, bodies, p.radius);
    b.pos[i] = to_float4(pos);
    b.vel[i] = to_float4(v, density);
    b.id[i] = id;
}

PLAB_HD inline void sph_force_particle(uint32_t i, const StepBuffers& b, const GridSpec& g,
                                       const Params& p, const Domain& d, const SphConstants& c,
                                       const float* pressure_terms) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Float4 vel = load(b.sorted_vel + i);
    const SphPairSums sums = sph_pair_sums(i, pos, xyz(vel), vel.w, b, g, c, pressure_terms);
    sph_finish_into_state(i, pos, xyz(vel), load(b.sorted_id + i), vel.w, sums, b, p, d, c);
}

// The density over a neighbour list: the same kernel sum as sph_density_sum (the list leaves
// out the particle itself, which the grid scan of an overflowed particle visits), then the
// walls.
PLAB_HD inline float sph_density_listed(uint32_t i, Vec3 pos, const NeighbourList& l,
                                        const StepBuffers& b, const GridSpec& g, const Params& p,
                                        const Domain& d, const SphConstants& c) {
    float sum = load(l.count + i) == kListOverflow ? 0.f : sph_w(0.f, c);
    for_each_listed(i, l, b, g, [&](uint32_t j) {
        sum += sph_w(length_squared(xyz(load(b.sorted_pos + j)) - pos), c);
    });
    return c.mass * sum + sph_wall_density(pos, p, d, c, b.geometry.field);
}

PLAB_HD inline void sph_force_particle_listed(uint32_t i, const StepBuffers& b, const GridSpec& g,
                                              const Params& p, const Domain& d,
                                              const SphConstants& c, const float* pressure_terms,
                                              const NeighbourList& l) {
    const Vec3 pos = xyz(load(b.sorted_pos + i));
    const Float4 vel = load(b.sorted_vel + i);
    const SphPairSums sums =
        sph_pair_sums_over(i, pos, xyz(vel), vel.w, b, c, pressure_terms,
                           [&](auto&& visit) { for_each_listed(i, l, b, g, visit); });
    sph_finish_into_state(i, pos, xyz(vel), load(b.sorted_id + i), vel.w, sums, b, p, d, c);
}

}  // namespace plab::sim
