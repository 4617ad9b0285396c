#pragma once
// The constants of the SPH liquid derived from Params once per step on the host (smoothing,
// particle mass from the lattice, the Tait constant, the wall tables), and the time-step limits
// that follow from them. The formulas that use them are physics/sph_kernel.h.
#include "sim/model/derived.h"
#include "sim/model/params.h"

namespace plab::sim {

// Values every SPH formula needs, derived once per step on the host from Params.
struct SphConstants {
    float h = 1.f;  // m, smoothing length
    float inv_h = 1.f;
    float reach2 = 4.f;     // m², (2h)²: pairs closer than this interact
    float w_norm = 1.f;     // σ = 21 / (16π h³), 1/m³
    float grad_norm = 1.f;  // 5σ / h², 1/m⁵
    float mass = 1.f;       // kg per particle: ρ₀ over the kernel sum of a cubic lattice
    float rest_density = 1000.f;
    float inv_rest_density = 1e-3f;
    float tait_b = 1.f;       // Pa, ρ₀ c² / γ
    float sound_speed = 1.f;  // m/s
    float visc = 0.f;         // α c h, m²/s (artificial viscosity numerator)
    float visc_eps = 0.f;     // 0.01 h², m²: keeps the viscous term finite as r → 0
    float xsph = 0.f;
    // Wall tables over d ≥ 0, samples a sixteenth of a spacing apart (so a particle of a
    // lattice block, half a spacing from the wall, sits exactly on a sample: the stiff
    // equation of state turns a 0.1% density error into a pressure of 0.7% of ρ₀c²/7): the
    // mirror layers' kernel sum over ρ₀ (a share of the rest density) and Σ (m/ρ₀) g r (1/m).
    // 64 samples reach 4 spacings, the kernel's reach at the largest smoothing (2).
    static constexpr int kWallSamples = 64;
    static constexpr int kWallSamplesPerSpacing = 16;
    float wall_inv_step = 1.f;
    float wall_density[kWallSamples] = {};
    float wall_push[kWallSamples] = {};
};

// The constants for `p` (sph_constants.cpp). p.radius is half the particle spacing.
SphConstants sph_constants(const Params& p);

// Mass of one particle (kg): p.mass for DEM, derived from the rest density for SPH.
float particle_mass(const Params& p);

// The Courant number the step can run at: dt (c + v_max) / h ≤ kSphCourant.
inline constexpr float kSphCourant = 0.25f;

// Courant number of the current dt with the fastest particle at `max_speed`.
float sph_courant_number(const Params& p, float max_speed);

// Largest stable dt (s): the acoustic CFL limit kSphCourant · h / (c + v_max) and the body
// force limit 0.25 √(h / |g|), whichever is smaller.
float sph_max_dt(const Params& p, float max_speed);

}  // namespace plab::sim
