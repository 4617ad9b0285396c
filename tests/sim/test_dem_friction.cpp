// The frictional contact law (sim/physics/dem_friction.h) against mechanics with closed forms: a
// sphere on an incline slides freely without friction, rolls without slipping at 5/7 g sin θ when
// friction holds it, slips at g (sin θ − μ cos θ) when it cannot, and stays put when rolling
// resistance exceeds tan θ; plus the law's own invariants (Coulomb cap, the stretch turned with
// the contact plane, the rolling spring's limit and memory, both copies of a contact agreeing
// to the bit).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "sim/physics/dem_friction.h"

namespace plab::sim {
namespace {

constexpr float kPi = 3.14159265f;

// A 1 cm sphere of 10 mg on a soft floor: stiff enough for a small overlap, soft enough that a
// short test resolves each contact in 50 steps.
struct Incline {
    float radius = 0.01f;  // m
    float mass = 1e-5f;    // kg
    float g = 9.81f;       // m/s²
    float theta = 20.f * kPi / 180.f;
    FrictionLaw law;

    // `braked`: rolling resistance as the collider's constant torque instead of the walls'
    // spring.
    bool braked = false;

    Incline(float mu_s, float mu_r, bool braked_rolling = false) : braked(braked_rolling) {
        law.k_n = 1000.f;
        law.gamma_n = 0.3f * 2.f * std::sqrt(mass * law.k_n);
        law.k_t = law.k_n * 2.f / 7.f;
        law.gamma_t = law.gamma_n * 0.5f;
        law.mu_s = mu_s;
        law.mu_r = mu_r;
        law.dt = kPi * std::sqrt(mass / law.k_n) / 50.f;     // a fiftieth of a contact
        law.rolling_inertia = sphere_inertia(mass, radius);  // the floor does not turn
    }

    // Rolls the sphere down a floor (y = 0) under gravity tilted by θ towards +x for `seconds`,
    // starting at rest at its equilibrium overlap. Returns the final body.
    ContactBody run(float seconds) const {
        ContactBody b;
        b.radius = radius;
        b.pos = {0.f, radius - mass * g * std::cos(theta) / law.k_n, 0.f};
        const Vec3 gravity{g * std::sin(theta), -g * std::cos(theta), 0.f};
        Vec3 xi, roll;
        const Vec3 down{0.f, -1.f, 0.f};
        const int steps = static_cast<int>(seconds / law.dt);
        for (int i = 0; i < steps; ++i) {
            const float delta = radius - b.pos.y;
            const ContactResult c = braked ? braked_body_contact(b, down, delta, xi, law)
                                           : wall_contact(b, down, delta, xi, roll, law);
            b.vel = b.vel + (c.force * (1.f / mass) + gravity) * law.dt;
            b.omega = spin_kick(b.omega, c.torque, mass, radius, law.dt);
            b.pos = b.pos + b.vel * law.dt;
        }
        return b;
    }
};

constexpr float kSeconds = 0.05f;

TEST(DemFriction, WithoutFrictionASphereSlidesAtGSinTheta) {
    const Incline s(0.f, 0.f);
    const ContactBody b = s.run(kSeconds);
    EXPECT_NEAR(b.vel.x, s.g * std::sin(s.theta) * kSeconds, 0.005f * b.vel.x);
    EXPECT_EQ(b.omega.z, 0.f);
}

TEST(DemFriction, WithEnoughFrictionASphereRollsAtFiveSevenths) {
    const Incline s(0.5f, 0.f);  // rolling needs μ ≥ (2/7) tan θ = 0.104
    const ContactBody b = s.run(kSeconds);
    const float expected = 5.f / 7.f * s.g * std::sin(s.theta) * kSeconds;
    EXPECT_NEAR(b.vel.x, expected, 0.02f * expected);
    // Rolling without slipping: the contact point is at rest, v = −ω_z R.
    EXPECT_NEAR(-b.omega.z * s.radius, b.vel.x, 0.02f * expected);
}

TEST(DemFriction, WithTooLittleFrictionASphereSlipsAtCoulombsRate) {
    const float mu = 0.05f;
    const Incline s(mu, 0.f);
    const ContactBody b = s.run(kSeconds);
    const float expected = s.g * (std::sin(s.theta) - mu * std::cos(s.theta)) * kSeconds;
    EXPECT_NEAR(b.vel.x, expected, 0.01f * expected);
    // The friction force μ m g cos θ spins it up: α = μ m g cos θ R / I.
    const float spin = mu * s.mass * s.g * std::cos(s.theta) * s.radius /
                       sphere_inertia(s.mass, s.radius) * kSeconds;
    EXPECT_NEAR(-b.omega.z, spin, 0.02f * spin);
    EXPECT_GT(b.vel.x, -b.omega.z * s.radius * 1.2f);  // still slipping
}

// Both forms of rolling resistance on a fixed body: the walls' spring and the collider's
// constant torque.
TEST(DemFriction, RollingResistanceAboveTanThetaHoldsTheSphere) {
    for (bool braked : {false, true}) {
        const Incline held(0.5f, 0.5f, braked);   // μ_r = 0.5 > tan 20° = 0.364
        const Incline rolls(0.5f, 0.2f, braked);  // μ_r = 0.2 < tan 20°: rolls, slower
        const float free_roll = 5.f / 7.f * held.g * std::sin(held.theta) * kSeconds;
        EXPECT_LT(std::abs(held.run(kSeconds).vel.x), 0.01f * free_roll) << braked;
        // a = g (sin θ − μ_r cos θ) / (1 + I/(m R²)) = 5/7 g (sin θ − μ_r cos θ)
        const float slowed =
            5.f / 7.f * rolls.g * (std::sin(rolls.theta) - 0.2f * std::cos(rolls.theta)) * kSeconds;
        EXPECT_NEAR(rolls.run(kSeconds).vel.x, slowed, 0.03f * slowed) << braked;
    }
}

// Held on the incline below its rolling limit, the sphere on a wall's spring stays where it
// settled however long it sits; on the constant torque it creeps down the slope (the torque
// brakes a rotation only once there is one, so every step lets a little through).
TEST(DemFriction, OnAWallTheRollingSpringHoldsWhereTheConstantTorqueCreeps) {
    const Incline sprung(0.5f, 0.5f), braked(0.5f, 0.5f, true);
    const float settled = sprung.run(0.05f).pos.x;
    const float later = sprung.run(0.5f).pos.x;
    EXPECT_LT(std::abs(later - settled), 1e-4f * sprung.radius) << settled << " " << later;
    const float creep = braked.run(0.5f).pos.x - braked.run(0.05f).pos.x;
    EXPECT_GT(creep, 10.f * std::abs(later - settled)) << creep;
}

FrictionLaw unit_law() {
    FrictionLaw law;
    law.k_n = 100.f;
    law.gamma_n = 0.1f;
    law.k_t = 30.f;
    law.gamma_t = 0.05f;
    law.mu_s = 0.4f;
    law.mu_r = 0.1f;
    law.dt = 1e-4f;
    return law;
}

TEST(DemFriction, TangentialForceStopsAtTheCoulombLimit) {
    const FrictionLaw law = unit_law();
    const Vec3 n{0.f, 1.f, 0.f};
    const float delta = 1e-3f;  // F_n = 0.1 N, limit 0.04 N
    Vec3 xi;
    ContactResult slow = contact_law(n, delta, Vec3{1e-3f, 0.f, 0.f}, 0.01f, xi, law);
    EXPECT_FALSE(slow.sliding);
    EXPECT_FLOAT_EQ(xi.x, 1e-3f * law.dt);
    EXPECT_FLOAT_EQ(slow.tangential.x, law.k_t * xi.x + law.gamma_t * 1e-3f);

    xi = {};
    ContactResult fast = contact_law(n, delta, Vec3{5.f, 0.f, 0.f}, 0.01f, xi, law);
    EXPECT_TRUE(fast.sliding);
    EXPECT_NEAR(std::sqrt(length_squared(fast.tangential)), law.mu_s * fast.normal, 1e-7f);
    EXPECT_FLOAT_EQ(fast.normal, law.k_n * delta);
    // The spring keeps what the limit allows: k_t ξ + γ_t v_t is the capped force.
    EXPECT_NEAR(law.k_t * xi.x + law.gamma_t * 5.f, fast.tangential.x, 1e-6f);
}

TEST(DemFriction, StretchTurnsWithTheContactPlaneKeepingItsLength) {
    FrictionLaw law = unit_law();
    law.mu_s = 1e6f;  // never slides
    law.gamma_t = 0.f;
    Vec3 xi{2e-4f, 0.f, 0.f};  // in the plane of n = +y
    // The pair rolled by 90°: the normal is now +x, the old stretch lies along it.
    const Vec3 n{std::sqrt(0.5f), std::sqrt(0.5f), 0.f};
    (void)contact_law(n, 1e-3f, Vec3{}, 0.01f, xi, law);
    EXPECT_NEAR(dot(xi, n), 0.f, 1e-10f);
    EXPECT_NEAR(std::sqrt(length_squared(xi)), 2e-4f, 1e-9f);
}

TEST(DemFriction, NoPullAndNoMemoryOnceApart) {
    const FrictionLaw law = unit_law();
    ContactBody a, b;
    a.radius = b.radius = 0.01f;
    a.id = 1;
    b.id = 2;
    b.pos = {0.0199f, 0.f, 0.f};
    b.vel = {50.f, 0.f, 0.f};  // separating fast: the dashpot would pull
    Vec3 xi{1e-5f, 0.f, 0.f}, roll{0.f, 0.f, 1e-6f};
    const ContactResult r = pair_contact(a, b, xi, roll, law);
    EXPECT_EQ(r.normal, 0.f);
    EXPECT_EQ(length_squared(r.rolling), 0.f);  // no normal force, no rolling resistance
    b.pos = {0.03f, 0.f, 0.f};
    xi = {1e-5f, 2e-5f, 0.f};
    roll = {0.f, 1e-6f, 1e-6f};
    const ContactResult apart = pair_contact(a, b, xi, roll, law);
    EXPECT_FALSE(apart.touching);
    EXPECT_EQ(length_squared(xi), 0.f);
    EXPECT_EQ(length_squared(roll), 0.f);
}

TEST(DemFriction, RollingSpringWindsUpThenHoldsAtItsLimit) {
    FrictionLaw law = unit_law();
    const Vec3 n{0.f, 1.f, 0.f};
    const float lever = 0.01f, f_n = 0.1f;
    const float k_r = rolling_stiffness(law, lever);
    EXPECT_FLOAT_EQ(k_r, 2.25f * law.k_n * law.mu_r * law.mu_r * lever * lever);
    const float limit = law.mu_r * lever * f_n;  // 1e-4 N·m
    // Relative rolling about x at 2 rad/s plus a twist about n, which the spring ignores.
    const Vec3 omega_rel{2.f, 5.f, 0.f};
    Vec3 m;
    const Vec3 first = rolling_spring(m, n, omega_rel, lever, f_n, law);
    EXPECT_FLOAT_EQ(first.x, -k_r * 2.f * law.dt);
    EXPECT_EQ(first.y, 0.f);
    EXPECT_TRUE(std::memcmp(&first, &m, sizeof m) == 0);  // the memory is the torque
    for (int i = 0; i < 100000; ++i) (void)rolling_spring(m, n, omega_rel, lever, f_n, law);
    EXPECT_NEAR(m.x, -limit, 1e-6f * limit);  // capped, still against the rolling
    // Rolling back unwinds it from the limit at once (elastic again).
    const Vec3 back = rolling_spring(m, n, -omega_rel, lever, f_n, law);
    EXPECT_NEAR(back.x, -limit + k_r * 2.f * law.dt, 1e-6f * limit);
}

TEST(DemFriction, RollingSpringTurnsWithTheContactPlaneKeepingItsLength) {
    const FrictionLaw law = unit_law();
    Vec3 m{0.f, 0.f, 5e-5f};  // in the plane of n = +y
    const Vec3 n{0.f, std::sqrt(0.5f), std::sqrt(0.5f)};
    (void)rolling_spring(m, n, Vec3{}, 0.01f, 0.1f, law);
    EXPECT_NEAR(dot(m, n), 0.f, 1e-10f);
    EXPECT_NEAR(std::sqrt(length_squared(m)), 5e-5f, 1e-10f);
}

// A sphere resting on a fixed one, turned by a steady external torque about z (no sliding
// friction: only rolling resistance acts). Returns its largest and final angle turned (rad).
struct Turned {
    float largest = 0, last = 0;
};
Turned turn_on_a_sphere(float torque, int steps, bool damped = false) {
    FrictionLaw law = unit_law();
    law.mu_s = 0.f;
    const float mass = 1e-5f, radius = 0.01f;
    // The ball turns alone (its partner is fixed): its own moment of inertia swings.
    if (damped) law.rolling_inertia = sphere_inertia(mass, radius);
    ContactBody fixed, ball;
    fixed.radius = ball.radius = radius;
    fixed.id = 0;
    ball.id = 1;
    ball.pos = {0.f, 2.f * radius - 1e-3f, 0.f};  // F_n = k_n · 1 mm = 0.1 N
    Vec3 xi, roll;
    Turned t;
    for (int i = 0; i < steps; ++i) {
        const ContactResult r = pair_contact(ball, fixed, xi, roll, law);
        ball.omega = spin_kick(ball.omega, r.torque + Vec3{0.f, 0.f, torque}, mass, radius, law.dt);
        t.last += ball.omega.z * law.dt;
        t.largest = std::fmax(t.largest, std::abs(t.last));
    }
    return t;
}

TEST(DemFriction, RollingSpringHoldsAMomentBelowItsLimitWithoutCreeping) {
    const FrictionLaw law = unit_law();
    const float limit = law.mu_r * 0.01f * 0.1f;  // μ_r R F_n = 1e-4 N·m
    const float k_r = rolling_stiffness(law, 0.01f);
    // Half the limit: the spring stretches to at most twice its static angle (a step load on
    // an undamped spring) and stays there however long the moment lasts.
    const float held = 0.5f * limit, angle = held / k_r;
    for (int steps : {20000, 200000}) {
        const Turned t = turn_on_a_sphere(held, steps);
        EXPECT_LE(t.largest, 2.05f * angle) << steps;
        EXPECT_LE(std::abs(t.last), 2.05f * angle) << steps;
    }
    // Twice the limit: the sphere turns on and on.
    EXPECT_GT(turn_on_a_sphere(2.f * limit, 20000).last, 100.f * angle);
}

TEST(DemFriction, RollingSpringsDashpotSettlesThePairAtItsStaticAngle) {
    const FrictionLaw law = unit_law();
    const float limit = law.mu_r * 0.01f * 0.1f;
    const float held = 0.5f * limit, angle = held / rolling_stiffness(law, 0.01f);
    const Turned t = turn_on_a_sphere(held, 20000, true);
    // Less overshoot than the undamped spring's 2x, and at rest on the static angle.
    EXPECT_LT(t.largest, 1.6f * angle);
    EXPECT_NEAR(t.last, angle, 0.01f * angle);
    // Beyond the limit the dashpot does not hold it either.
    EXPECT_GT(turn_on_a_sphere(2.f * limit, 20000, true).last, 100.f * angle);
}

bool same_bits(Vec3 a, Vec3 b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(DemFriction, BothCopiesOfAContactAgreeToTheBit) {
    const FrictionLaw law = unit_law();
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (int i = 0; i < 1000; ++i) {
        ContactBody a, b;
        a.radius = 0.01f;
        b.radius = 0.008f + 0.004f * (u(rng) + 1.f) * 0.5f;
        a.id = static_cast<uint32_t>(i) + 10;
        b.id = i % 2 ? a.id + 1 : a.id - 5;
        const Vec3 dir{u(rng), u(rng), u(rng)};
        b.pos = dir * ((a.radius + b.radius) * 0.99f / std::sqrt(length_squared(dir) + 1e-12f));
        a.vel = {u(rng), u(rng), u(rng)};
        b.vel = {u(rng), u(rng), u(rng)};
        a.omega = Vec3{u(rng), u(rng), u(rng)} * 100.f;
        b.omega = Vec3{u(rng), u(rng), u(rng)} * 100.f;
        Vec3 xi_a{u(rng) * 1e-4f, u(rng) * 1e-4f, u(rng) * 1e-4f};
        Vec3 xi_b = -xi_a;
        Vec3 roll_a{u(rng) * 1e-6f, u(rng) * 1e-6f, u(rng) * 1e-6f};
        Vec3 roll_b = -roll_a;
        for (int step = 0; step < 3; ++step) {
            const ContactResult ra = pair_contact(a, b, xi_a, roll_a, law);
            const ContactResult rb = pair_contact(b, a, xi_b, roll_b, law);
            ASSERT_TRUE(same_bits(ra.force, -rb.force)) << i;
            ASSERT_TRUE(same_bits(xi_a, -xi_b)) << i;
            ASSERT_TRUE(same_bits(roll_a, -roll_b)) << i;
            ASSERT_TRUE(same_bits(ra.rolling, -rb.rolling)) << i;
            // The tangential forces' moments: τ_a / R_a and τ_b / R_b are the same vector.
            const Vec3 ta = ra.torque - ra.rolling, tb = rb.torque - rb.rolling;
            EXPECT_NEAR(ta.x * b.radius, tb.x * a.radius, 1e-9f);
            EXPECT_NEAR(ta.y * b.radius, tb.y * a.radius, 1e-9f);
            EXPECT_NEAR(ta.z * b.radius, tb.z * a.radius, 1e-9f);
        }
    }
}

}  // namespace
}  // namespace plab::sim
