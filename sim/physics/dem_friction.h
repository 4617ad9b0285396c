#pragma once
// The frictional DEM contact law (Cundall–Strack), shared by both backends: a linear
// spring–dashpot along the normal, a tangential spring whose stretch is remembered per contact
// (carried from step to step, turned with the contact plane, capped by Coulomb's limit μ_s·F_n),
// and rolling resistance: between particles an elastic–plastic rolling spring remembered per
// contact (its torque grows with the relative rolling and is capped at μ_r·R·F_n), the same
// spring against the box's walls (remembered per wall), and against the collider and the silo's
// plate, which have no room for it, a constant torque μ_r·R·F_n. Particles then carry an
// angular velocity and receive torques; walls and the collider are contact partners of
// infinite mass that neither move nor turn.
//
// Exact antisymmetry: a pair is always computed from the side of its lower id, and the other
// side negates the result, so the force, the torques and the stored stretch and rolling torque
// of the two copies of a contact (one in each particle's list) are exact negatives of each
// other.
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"

namespace plab::sim {

// The law's constants for one contact, in SI units.
struct FrictionLaw {
    float k_n = 0;      // N/m, normal stiffness
    float gamma_n = 0;  // N·s/m, normal dashpot
    float k_t = 0;      // N/m, tangential stiffness
    float gamma_t = 0;  // N·s/m, tangential dashpot
    float mu_s = 0;     // Coulomb sliding coefficient
    float mu_r = 0;     // rolling resistance coefficient (torque limit μ_r·R·F_n)
    float dt = 0;       // s, the step the stretch advances by
    // kg·m², the moment of inertia rolling resistance turns: between two particles half one
    // particle's (every particle of a run is alike), against a body of infinite mass a whole
    // one's (the body does not turn); 0 leaves a rolling spring undamped.
    float rolling_inertia = 0;
};

// One body at a contact: a particle, or a wall/collider (omega 0, radius the lever arm used for
// rolling, 0 for a flat wall).
struct ContactBody {
    Vec3 pos, vel, omega;  // m, m/s, rad/s
    float radius = 0;      // m
    uint32_t id = 0;
};

// What one contact does to body a.
struct ContactResult {
    Vec3 force;        // N, on a
    Vec3 torque;       // N·m, on a (tangential force's moment plus rolling resistance)
    Vec3 tangential;   // N, the tangential part of `force`
    Vec3 rolling;      // N·m, the rolling resistance part of `torque`
    float normal = 0;  // N, the normal force's magnitude (≥ 0: the law does not pull)
    bool touching = false;
    bool sliding = false;  // the tangential force sits on the Coulomb limit
};

// a/√x and √(a/b) for x, b > 0 where a few ulps do not matter: on the device from reciprocal
// square roots (about 2 ulp each) instead of correctly rounded square roots and divisions,
// each a dozen instructions, several per contact (as distance_and_inverse, vec.h); the
// host computes them exactly, as before.
PLAB_HD inline float law_over_sqrt(float a, float x) {
#if defined(__CUDA_ARCH__)
    return a * rsqrtf(x);
#else
    return a / sqrtf(x);
#endif
}
PLAB_HD inline float law_sqrt_ratio(float a, float b) {
#if defined(__CUDA_ARCH__)
    return a * rsqrtf(a) * rsqrtf(b);
#else
    return sqrtf(a / b);
#endif
}

// `v` turned into the plane normal to `n`, keeping its length (a remembered stretch or torque
// whose contact has rolled on).
PLAB_HD inline Vec3 turned_into_plane(Vec3 v, Vec3 n) {
    const float len2 = length_squared(v);
    Vec3 s = v - dot(v, n) * n;
    const float s2 = length_squared(s);
    if (s2 > 0.f && len2 > 0.f) s = s * law_sqrt_ratio(len2, s2);
    return s;
}

// The normal and tangential law along a given contact normal `n` (unit, from a towards b),
// overlap `delta` (m > 0), relative velocity of b's surface against a's at the contact `v_c`
// (m/s), with a's lever `lever_a` (m) for the tangential force's moment. Advances `xi`, the
// tangential stretch as seen from a (m). No rolling resistance (rolling_spring, rolling_brake).
PLAB_HD inline ContactResult contact_law(Vec3 n, float delta, Vec3 v_c, float lever_a, Vec3& xi,
                                         const FrictionLaw& law) {
    ContactResult r;
    r.touching = true;
    const float v_n = dot(v_c, n);  // > 0 while separating
    // Normal force on a points along −n; the dashpot may not turn it into a pull.
    const float f_n = fmaxf(law.k_n * delta - law.gamma_n * v_n, 0.f);
    r.normal = f_n;
    const Vec3 v_t = v_c - v_n * n;

    // The remembered stretch, turned into the current tangent plane (the contact may have
    // rolled), then stretched by this step's sliding.
    Vec3 s = turned_into_plane(xi, n) + v_t * law.dt;

    // Friction drags a along with b's surface.
    Vec3 f_t = law.k_t * s + law.gamma_t * v_t;
    const float limit = law.mu_s * f_n;
    const float f_t2 = length_squared(f_t);
    if (f_t2 > limit * limit) {
        // Sliding: the force sits on the limit and the spring keeps only what that allows.
        f_t = f_t * (f_t2 > 0.f ? law_over_sqrt(limit, f_t2) : 0.f);
        s = law.k_t > 0.f ? (f_t - law.gamma_t * v_t) * (1.f / law.k_t) : Vec3{};
        r.sliding = true;
    }
    xi = s;

    r.force = -f_n * n + f_t;
    r.tangential = f_t;
    r.torque = cross(lever_a * n, f_t);
    return r;
}

// The rolling spring's stiffness, N·m/rad: k_r = 2.25 k_n μ_r² R² (Wensrich & Katterfeld,
// Powder Technol. 217, 409 (2012), the elastic–plastic spring–dashpot model's choice; Ai et al.,
// Powder Technol. 206, 269 (2011), type C). A pair that rolls by θ against each other builds
// the full torque μ_r·R·F_n once θ ≈ F_n / (2.25 k_n μ_r R): 0.14° for a glass bead of the
// presets under its own weight at μ_r 0.09, a few degrees thirty layers down a heap.
PLAB_HD inline float rolling_stiffness(const FrictionLaw& law, float lever) {
    return 2.25f * law.k_n * law.mu_r * law.mu_r * lever * lever;
}

// The rolling spring's dashpot as a fraction of critical damping (Ai et al.'s η_r; it acts
// while the spring holds, not once it slips at its limit). Without it a pair held by its
// spring rings: the rotations of a slumping block then followed the rounding of the sums.
inline constexpr float kRollingDamping = 0.3f;

// Rolling resistance between two particles, as an elastic–plastic spring with memory: `m` is
// the torque on a remembered from the last step (N·m, from a's side), turned with the contact
// plane, wound back by this step's relative rolling (the part of ω_a − ω_b across `n`; twisting
// about n is free) and capped at μ_r·R·F_n; while it holds, a dashpot (kRollingDamping) adds to
// it, the sum still within the cap. Returns the torque on a and stores the spring's in `m`.
// Unlike a constant torque against the rotation it holds a pair at rest under any moment up to
// its limit (a constant torque can only brake a rotation that is already there, so a pile
// under a steady moment keeps creeping: the full-size heap of docs/validation.md never came to
// rest with it, and does with this).
PLAB_HD inline Vec3 rolling_spring(Vec3& m, Vec3 n, Vec3 omega_rel, float lever, float f_n,
                                   const FrictionLaw& law) {
    const Vec3 rolling = omega_rel - dot(omega_rel, n) * n;
    const float k_r = rolling_stiffness(law, lever);
    Vec3 t = turned_into_plane(m, n) - rolling * (k_r * law.dt);
    const float limit = law.mu_r * lever * f_n;
    const float t2 = length_squared(t);
    const bool slips = t2 > limit * limit;
    if (slips) t = t * law_over_sqrt(limit, t2);
    m = t;
    if (slips) return t;
    Vec3 total = t - rolling * (kRollingDamping * 2.f * sqrtf(law.rolling_inertia * k_r));
    const float total2 = length_squared(total);
    if (total2 > limit * limit) total = total * law_over_sqrt(limit, total2);
    return total;
}

// Rolling resistance against a body of infinite mass with no memory for a spring (the
// collider, the silo's plate): a constant torque μ_r·R·F_n against the rotation `omega`, capped by
// what stops the rotation within one step (moment of inertia `inertia`), so that a resting
// particle does not rock back and forth.
PLAB_HD inline Vec3 rolling_brake(Vec3 omega, float lever, float inertia, float f_n,
                                  const FrictionLaw& law) {
    const float w2 = length_squared(omega);
    if (!(law.mu_r > 0.f && w2 > 0.f && lever > 0.f)) return {};
    const float w = sqrtf(w2);
    const float t = fminf(law.mu_r * lever * f_n, inertia * w / law.dt);
    return omega * (-t / w);
}

// Solid-sphere moment of inertia, kg·m².
PLAB_HD inline float sphere_inertia(float mass, float radius) {
    return 0.4f * mass * radius * radius;
}

// A particle pair; `xi` and `roll` are a's copies of the contact's stretch and rolling torque
// (from a's side). Computed from the lower id's side and negated for the other, so both copies
// of a contact agree to the bit. The rolling lever R is the particles' radius (for unequal
// spheres their harmonic mean 2 R_a R_b / (R_a + R_b)).
PLAB_HD inline ContactResult pair_contact(const ContactBody& a, const ContactBody& b, Vec3& xi,
                                          Vec3& roll, const FrictionLaw& law) {
    const bool a_low = a.id < b.id;
    // Copies, not references: a reference chosen at run time between two bodies would put
    // both in (slow, local) memory on the device; copies become register selects.
    const ContactBody lo = a_low ? a : b;
    const ContactBody hi = a_low ? b : a;
    const Vec3 rel = hi.pos - lo.pos;
    const float reach = lo.radius + hi.radius;
    const float dist2 = length_squared(rel);
    if (dist2 >= reach * reach) {
        xi = {};
        roll = {};
        return {};
    }
    float inv_dist;
    const float dist = distance_and_inverse(dist2, inv_dist);
    // Coincident centres have no direction: push along x, from the lower id's side.
    const Vec3 n = dist > 1e-6f * reach ? rel * inv_dist : Vec3{1.f, 0.f, 0.f};
    // Velocity of hi's surface against lo's at the contact point.
    const Vec3 v_c = (hi.vel - lo.vel) - cross(lo.radius * lo.omega + hi.radius * hi.omega, n);
    Vec3 s = a_low ? xi : -xi;
    Vec3 m = a_low ? roll : -roll;
    ContactResult r = contact_law(n, reach - dist, v_c, lo.radius, s, law);
    r.rolling = rolling_spring(m, n, lo.omega - hi.omega, 2.f * lo.radius * hi.radius / reach,
                               r.normal, law);
    r.torque += r.rolling;
    if (a_low) {
        xi = s;
        roll = m;
        return r;
    }
    // Seen from hi: opposite force, stretch and rolling torque; the tangential force's moment
    // about hi's centre has the same sign (lever and force both flip), scaled by hi's radius.
    xi = -s;
    roll = -m;
    r.force = -r.force;
    r.torque = cross(hi.radius * n, r.tangential) - r.rolling;
    r.tangential = -r.tangential;
    r.rolling = -r.rolling;
    return r;
}

// The normal and tangential law against a body of infinite mass at rest touching particle a:
// `n` is the unit normal from a's centre towards the body, `delta` the overlap (m > 0), `xi`
// the remembered stretch. Rolling resistance is the caller's (wall_contact,
// braked_body_contact).
PLAB_HD inline ContactResult fixed_body_law(const ContactBody& a, Vec3 n, float delta, Vec3& xi,
                                            const FrictionLaw& law) {
    const Vec3 v_c = -a.vel - cross(a.radius * a.omega, n);
    return contact_law(n, delta, v_c, a.radius, xi, law);
}

// A flat wall of the box touching particle a, with `n`, `delta` and `xi` as for
// fixed_body_law and `roll` the contact's remembered rolling torque. The rolling spring's
// lever is the particle's radius (the distance from its centre to the contact, as between
// particles) and it swings the particle's whole inertia (`law.rolling_inertia`): a bead held
// against a plate by a moment below μ_r·R·F_n stays put instead of creeping as it did under
// the constant torque.
PLAB_HD inline ContactResult wall_contact(const ContactBody& a, Vec3 n, float delta, Vec3& xi,
                                          Vec3& roll, const FrictionLaw& law) {
    if (delta <= 0.f) {
        xi = {};
        roll = {};
        return {};
    }
    ContactResult r = fixed_body_law(a, n, delta, xi, law);
    r.rolling = rolling_spring(roll, n, a.omega, a.radius, r.normal, law);
    r.torque += r.rolling;
    return r;
}

// Any other body of infinite mass at rest (the collider, the silo's plate) touching particle
// a, as for fixed_body_law: no memory for a rolling spring there, so rolling resistance is the
// constant torque (rolling_brake) with the particle's radius and the whole inertia
// `law.rolling_inertia`.
PLAB_HD inline ContactResult braked_body_contact(const ContactBody& a, Vec3 n, float delta,
                                                 Vec3& xi, const FrictionLaw& law) {
    if (delta <= 0.f) {
        xi = {};
        return {};
    }
    ContactResult r = fixed_body_law(a, n, delta, xi, law);
    r.rolling = rolling_brake(a.omega, a.radius, law.rolling_inertia, r.normal, law);
    r.torque += r.rolling;
    return r;
}

// A body of infinite mass whose surface may move (a scene's geometry body: a drum turning, a
// belt running) touching particle a, as for fixed_body_law but with the body's surface velocity
// at the contact `surface_vel` (m/s) and its angular velocity `body_omega` (rad/s): friction
// drags the particle along with the surface, and the constant rolling torque (rolling_brake)
// brakes the particle's rotation relative to the body's, so a bead carried round a drum's wall
// without rolling on it feels none. Its lever and inertia as for braked_body_contact.
PLAB_HD inline ContactResult moving_body_contact(const ContactBody& a, Vec3 n, float delta,
                                                 Vec3 surface_vel, Vec3 body_omega, Vec3& xi,
                                                 const FrictionLaw& law) {
    const Vec3 v_c = surface_vel - a.vel - cross(a.radius * a.omega, n);
    ContactResult r = contact_law(n, delta, v_c, a.radius, xi, law);
    r.rolling = rolling_brake(a.omega - body_omega, a.radius, law.rolling_inertia, r.normal, law);
    r.torque += r.rolling;
    return r;
}

// Angular velocity after one step of torque (semi-implicit Euler, like the linear kick).
PLAB_HD inline Vec3 spin_kick(Vec3 omega, Vec3 torque, float mass, float radius, float dt) {
    return omega + torque * (dt / sphere_inertia(mass, radius));
}

}  // namespace plab::sim
