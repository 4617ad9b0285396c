#pragma once
// The SPH formulas shared by both backends: the Wendland C2 kernel, the Tait equation of
// state, and the wall terms.
//
// Kernel: Wendland C2 in 3-D, W(r) = σ (1 − q/2)⁴ (2q + 1) with q = r/h, σ = 21 / (16π h³),
// zero from q = 2 on. Chosen over the cubic spline because its Fourier transform is positive,
// so particles do not pair up under compression (the pairing instability), and because its
// gradient needs no division by r: ∇ᵢW = −(5σ/h²) (1 − q/2)³ (xᵢ − xⱼ).
//
// Walls: mirrored liquid. Each wall plane (the six sides of the domain, and the collider's
// surface taken as a plane) stands for the liquid mirrored across it, on the particle
// lattice: a particle at distance d sees mirror layers at d + dx/2 + k·dx (k = 0, 1, ...),
// each a square lattice of spacing dx. They add their kernel sum to its density and push
// with its pressure, a = (p/ρ²) Σ m g r (sph_wall_accel says why not 2 p/ρ²). Both sums depend only
// on d, so they are tabulated once per step (wall_density, wall_push) and read by interpolation.
// Chosen over layers of boundary particles because it costs six distance tests per
// particle instead of extra particles in every wall cell (a 1M-particle tank would need
// ~200k more), and because summed over the same lattice as the liquid it completes a wall
// particle's density exactly (a continuum integral misses the lattice sum by a few per
// cent, which the stiff equation of state turns into a jet along the wall). A particle that
// still reaches a wall is put back on it by the hard clamp of the drift.
//
// Bodies of the scene's geometry are walls too, with the same tables (sph_body_walls.h).
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/model/derived.h"
#include "sim/model/params.h"
#include "sim/model/sph_constants.h"

namespace plab::sim {

// Kernel value W(r) for r² < reach2 (0 beyond).
PLAB_HD inline float sph_w(float r2, const SphConstants& c) {
    if (r2 >= c.reach2) return 0.f;
    const float q = sqrtf(r2) * c.inv_h;
    const float t = 1.f - 0.5f * q;
    const float t2 = t * t;
    return c.w_norm * t2 * t2 * (2.f * q + 1.f);
}

// The scalar g with ∇ᵢW(xᵢ − xⱼ) = −g · (xᵢ − xⱼ), for r² < reach2.
PLAB_HD inline float sph_grad_factor(float r2, const SphConstants& c) {
    const float t = 1.f - 0.5f * sqrtf(r2) * c.inv_h;
    return c.grad_norm * t * t * t;
}

// Tait equation of state, p = B ((ρ/ρ₀)^γ − 1), with negative pressures cut to zero: the
// summation density of a free-surface particle is low because it lacks neighbours, not
// because the liquid is stretched, and a tension there would clump the surface.
PLAB_HD inline float sph_pressure(float density, const SphConstants& c) {
    return tait_pressure(density * c.inv_rest_density, c.tait_b);
}

// Cubic (Catmull–Rom) interpolation in a wall table at distance d ≥ 0, exact on the samples;
// 0 beyond the table. Linear interpolation would be off by ~0.03% of the density between
// samples, ~100 Pa of spurious pressure in a 20 cm tank.
PLAB_HD inline float sph_wall_table(const float* table, float d, const SphConstants& c) {
    constexpr int n = SphConstants::kWallSamples;
    const float x = d * c.wall_inv_step;
    if (!(x >= 0.f) || x >= static_cast<float>(n - 1)) return 0.f;
    const int k = static_cast<int>(x);
    const float f = x - static_cast<float>(k);
    const float p0 = table[k > 0 ? k - 1 : 0], p1 = table[k], p2 = table[k + 1];
    const float p3 = table[k + 2 < n ? k + 2 : n - 1];
    return p1 + 0.5f * f *
                    (p2 - p0 +
                     f * (2.f * p0 - 5.f * p1 + 4.f * p2 - p3 + f * (3.f * (p1 - p2) + p3 - p0)));
}

// Calls wall(d, n) for every wall within the kernel's reach of `pos`: d ≥ 0 the distance
// (m), n the unit normal pointing into the liquid. The collider counts as a plane tangent to
// its surface (the kernel is small against it).
template <typename Wall>
PLAB_HD inline void for_each_wall(Vec3 pos, const Params& p, Vec3 lo, Vec3 hi, float reach,
                                  Wall&& wall) {
    auto axis = [&](float x, float a, float b, Vec3 n) {
        const float d_lo = x - a, d_hi = b - x;
        if (d_lo < reach) wall(d_lo > 0.f ? d_lo : 0.f, n);
        if (d_hi < reach) wall(d_hi > 0.f ? d_hi : 0.f, -n);
    };
    axis(pos.x, lo.x, hi.x, {1.f, 0.f, 0.f});
    axis(pos.y, lo.y, hi.y, {0.f, 1.f, 0.f});
    axis(pos.z, lo.z, hi.z, {0.f, 0.f, 1.f});
    if (p.collider_radius > 0.f) {
        const Vec3 off = pos - Vec3{p.collider_x, p.collider_y, p.collider_z};
        const float dist = sqrtf(length_squared(off));
        const float d = dist - p.collider_radius;
        if (d < reach && dist > 0.f) wall(d > 0.f ? d : 0.f, off * (1.f / dist));
    }
}

// The walls' tables treat each wall as an infinite mirrored plane, so where two walls of the
// box meet, the quarter-space beyond both is counted twice, and where three meet the octant
// beyond all three comes back in three times and out three times. This visits the image
// points to correct that by inclusion–exclusion: visit(r, sign) with r = particle − image
// point and sign −1 for the image points beyond two walls, +1 for those beyond three, on the
// same particle-centred lattice as the tables (mirror layers d + dx/2 + k·dx along a wall's
// normal, whole spacings along the other axes). Costs nothing away from edges and corners.
template <typename Visit>
PLAB_HD inline void for_each_wall_overlap(Vec3 pos, Vec3 lo, Vec3 hi, float dx, float reach,
                                          Visit&& visit) {
    // Most particles are near one wall or none: decide that on scalars first, so that the
    // arrays below (indexed at run time, hence kept in local memory on the GPU) are only
    // written for particles at an edge or a corner.
    const float half = 0.5f * dx;
    auto near = [&](float p, float l, float h) {  // the test `near_axis` makes below
        return fmaxf(p - l, 0.f) + half < reach || fmaxf(h - p, 0.f) + half < reach ? 1 : 0;
    };
    if (near(pos.x, lo.x, hi.x) + near(pos.y, lo.y, hi.y) + near(pos.z, lo.z, hi.z) < 2) return;
    // Per axis, the first mirror layer's offset (particle − image) if within reach, else 0;
    // a near high wall gives a negative offset. A thin axis may have both.
    float first[3][2];
    int near_count = 0;
    const float p3[3] = {pos.x, pos.y, pos.z}, lo3[3] = {lo.x, lo.y, lo.z},
                hi3[3] = {hi.x, hi.y, hi.z};
    bool near_axis[3];
    for (int a = 0; a < 3; ++a) {
        const float d_lo = fmaxf(p3[a] - lo3[a], 0.f) + 0.5f * dx;
        const float d_hi = fmaxf(hi3[a] - p3[a], 0.f) + 0.5f * dx;
        first[a][0] = d_lo < reach ? d_lo : 0.f;
        first[a][1] = d_hi < reach ? -d_hi : 0.f;
        near_axis[a] = first[a][0] != 0.f || first[a][1] != 0.f;
        near_count += near_axis[a] ? 1 : 0;
    }
    if (near_count < 2) return;
    const float reach2 = reach * reach;
    // Offsets along one axis: mirror layers beyond its near walls, or (free) whole spacings.
    auto layers = [&](int a, bool mirrored, auto&& body) {
        if (mirrored) {
            for (int side = 0; side < 2; ++side) {
                const float f = first[a][side];
                if (f == 0.f) continue;
                const float step = f > 0.f ? dx : -dx;
                for (float r = f; r * r < reach2; r += step) body(r);
            }
        } else {
            const int n = static_cast<int>(reach / dx);
            for (int k = -n; k <= n; ++k) body(static_cast<float>(k) * dx);
        }
    };
    // Pairs of near axes (the third free), then the triple.
    for (int free_axis = 0; free_axis < 3; ++free_axis) {
        const int a = (free_axis + 1) % 3, b = (free_axis + 2) % 3;
        if (!near_axis[a] || !near_axis[b]) continue;
        layers(a, true, [&](float ra) {
            layers(b, true, [&](float rb) {
                layers(free_axis, false, [&](float rc) {
                    float r[3];
                    r[a] = ra;
                    r[b] = rb;
                    r[free_axis] = rc;
                    const Vec3 v{r[0], r[1], r[2]};
                    if (length_squared(v) < reach2) visit(v, -1.f);
                });
            });
        });
    }
    if (near_count < 3) return;
    layers(0, true, [&](float rx) {
        layers(1, true, [&](float ry) {
            layers(2, true, [&](float rz) {
                const Vec3 v{rx, ry, rz};
                if (length_squared(v) < reach2) visit(v, 1.f);
            });
        });
    });
}

}  // namespace plab::sim
