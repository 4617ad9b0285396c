#include <algorithm>
#include <cmath>

#include "sim/model/sph_constants.h"

namespace plab::sim {
namespace {

// Wendland C2 without σ, and its gradient factor without 5σ/h²: (1 − q/2)⁴ (2q + 1) and
// (1 − q/2)³, zero from q = 2 on.
double shape(double q) {
    if (q >= 2.0) return 0.0;
    const double t = 1.0 - 0.5 * q;
    return t * t * t * t * (2.0 * q + 1.0);
}

double slope(double q) {
    if (q >= 2.0) return 0.0;
    const double t = 1.0 - 0.5 * q;
    return t * t * t;
}

// Sums over the cubic lattice of spacing 1 around one particle (h in spacings):
//   kernel    Σ shape(|n|/h)            — the mass ρ₀ / (σ · this) makes a particle inside
//                                         a lattice block have exactly the rest density,
//                                         so a block starts at rest instead of jumping;
//   moment    Σ slope(|n|/h) n_y²       — scales the gradient so that the lattice
//                                         reproduces a linear pressure field exactly (with
//                                         h ≈ 1.2 spacings the continuum constant is ~7% off,
//                                         which shows as a hydrostatic pressure 7% too steep).
struct LatticeSums {
    double kernel = 0, moment = 0;
};

LatticeSums lattice_sums(double h) {
    const int reach = static_cast<int>(std::ceil(2.0 * h));
    LatticeSums s;
    for (int z = -reach; z <= reach; ++z)
        for (int y = -reach; y <= reach; ++y)
            for (int x = -reach; x <= reach; ++x) {
                const double q = std::sqrt(double(x * x + y * y + z * z)) / h;
                s.kernel += shape(q);
                s.moment += slope(q) * double(y * y);
            }
    return s;
}

// The mirror-layer sums of one wall at distance d (in spacings) from a particle: layers at
// d + ½ + k, each a unit square lattice. Returns Σ shape and Σ slope · z.
LatticeSums mirror_sums(double d, double h) {
    const int reach = static_cast<int>(std::ceil(2.0 * h));
    LatticeSums s;
    for (double z = d + 0.5; z < 2.0 * h; z += 1.0)
        for (int y = -reach; y <= reach; ++y)
            for (int x = -reach; x <= reach; ++x) {
                const double q = std::sqrt(z * z + double(x * x + y * y)) / h;
                s.kernel += shape(q);
                s.moment += slope(q) * z;
            }
    return s;
}

// The lattice and mirror-layer sums depend only on the smoothing (in spacings), and each costs
// thousands of kernel evaluations (~11 µs), while sph_constants runs every step and every
// stats call. So the last smoothing's sums are kept, per thread.
struct UnitSums {
    float smoothing = -1.f;
    LatticeSums lattice;
    LatticeSums mirror[SphConstants::kWallSamples];
};

const UnitSums& unit_sums(float smoothing) {
    thread_local UnitSums cached;
    if (cached.smoothing != smoothing) {
        cached.lattice = lattice_sums(smoothing);
        for (int k = 0; k < SphConstants::kWallSamples; ++k)
            cached.mirror[k] =
                mirror_sums(double(k) / SphConstants::kWallSamplesPerSpacing, smoothing);
        cached.smoothing = smoothing;
    }
    return cached;
}

}  // namespace

SphConstants sph_constants(const Params& p) {
    SphConstants c;
    const double dx = 2.0 * p.radius;
    const double h = p.smoothing * dx;
    const double sigma = 21.0 / (16.0 * M_PI * h * h * h);
    c.h = static_cast<float>(h);
    c.inv_h = static_cast<float>(1.0 / h);
    c.reach2 = static_cast<float>(4.0 * h * h);
    const UnitSums& sums = unit_sums(p.smoothing);
    const LatticeSums& lattice = sums.lattice;
    const double mass = p.rest_density / (sigma * lattice.kernel);
    // g(r) = grad_norm · slope, with grad_norm such that (m/ρ₀) Σ g Δy² = 1 on the lattice.
    const double grad_norm = p.rest_density / (mass * lattice.moment * dx * dx);
    c.w_norm = static_cast<float>(sigma);
    c.grad_norm = static_cast<float>(grad_norm);
    c.mass = static_cast<float>(mass);
    const double step = dx / SphConstants::kWallSamplesPerSpacing;
    c.wall_inv_step = static_cast<float>(1.0 / step);
    for (int k = 0; k < SphConstants::kWallSamples; ++k) {
        const LatticeSums& m = sums.mirror[k];
        c.wall_density[k] = static_cast<float>(mass / p.rest_density * sigma * m.kernel);
        c.wall_push[k] = static_cast<float>(mass / p.rest_density * grad_norm * m.moment * dx);
    }
    c.rest_density = p.rest_density;
    c.inv_rest_density = 1.f / p.rest_density;
    c.sound_speed = p.sound_speed;
    c.tait_b = static_cast<float>(tait_b(p));
    c.visc = static_cast<float>(p.viscosity * p.sound_speed * h);
    c.visc_eps = static_cast<float>(0.01 * h * h);
    c.xsph = p.xsph;
    return c;
}

float particle_mass(const Params& p) {
    return p.model == Model::Sph ? sph_constants(p).mass : p.mass;
}

float sph_courant_number(const Params& p, float max_speed) {
    const float h = p.smoothing * 2.f * p.radius;
    return p.dt * (p.sound_speed + max_speed) / h;
}

float sph_max_dt(const Params& p, float max_speed) {
    const float h = p.smoothing * 2.f * p.radius;
    const float acoustic = kSphCourant * h / (p.sound_speed + max_speed);
    const float g = gravity_magnitude(p);
    return g > 0.f ? std::min(acoustic, 0.25f * std::sqrt(h / g)) : acoustic;
}

}  // namespace plab::sim
