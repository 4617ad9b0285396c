// The contact memory's 48 bit vectors (sim/core/packed_vec3.h): precision, symmetry, exact round
// trips, and the edges (zero, tiny, huge, non-finite).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "sim/core/packed_vec3.h"

namespace plab::sim {
namespace {

float largest_component(Vec3 v) { return fmaxf(fabsf(v.x), fmaxf(fabsf(v.y), fabsf(v.z))); }

bool same_bits(Vec3 a, Vec3 b) {
    return float_bits(a.x) == float_bits(b.x) && float_bits(a.y) == float_bits(b.y) &&
           float_bits(a.z) == float_bits(b.z);
}

// Vectors over many magnitudes (SI stretches and torques, the classic preset's units), with
// components that differ by up to 2^20 from each other; x is the largest, within [s/2, s).
Vec3 random_vector(std::mt19937& rng) {
    std::uniform_real_distribution<float> unit(-1.f, 1.f), half(0.5f, 1.f);
    std::uniform_int_distribution<int> scale(-90, 60), spread(0, 20), sign(0, 1);
    const float s = std::ldexp(1.f, scale(rng));
    return {(sign(rng) ? s : -s) * half(rng), unit(rng) * s * std::ldexp(1.f, -spread(rng)),
            unit(rng) * s * std::ldexp(1.f, -spread(rng))};
}

TEST(PackedVec3, EveryComponentComesBackWithin2ToTheMinus12OfTheLargest) {
    std::mt19937 rng(7);
    for (int n = 0; n < 200000; ++n) {
        const Vec3 v = random_vector(rng);
        const Vec3 back = packed_round_trip(v);
        const float bound = std::ldexp(largest_component(v), -12);
        ASSERT_LE(fabsf(back.x - v.x), bound) << n;
        ASSERT_LE(fabsf(back.y - v.y), bound) << n;
        ASSERT_LE(fabsf(back.z - v.z), bound) << n;
    }
}

TEST(PackedVec3, WhatComesBackPacksAgainToTheSameBits) {
    std::mt19937 rng(11);
    for (int n = 0; n < 200000; ++n) {
        const Vec3 v = random_vector(rng);
        const uint64_t bits = pack_vec3(v);
        ASSERT_EQ(pack_vec3(unpack_vec3(bits)), bits) << n;
        ASSERT_LT(bits, uint64_t{1} << 47) << n;  // the top bit of the 48 stays spare
    }
    // A largest component that rounds up to the next power of two (4095.6 of 4096 steps).
    const Vec3 edge{4095.6f / 4096.f, -0.25f, 1e-3f};
    const Vec3 back = packed_round_trip(edge);
    EXPECT_EQ(back.x, 1.f);
    EXPECT_TRUE(same_bits(packed_round_trip(back), back));
}

TEST(PackedVec3, ANegatedVectorComesBackExactlyNegated) {
    std::mt19937 rng(13);
    for (int n = 0; n < 200000; ++n) {
        const Vec3 v = random_vector(rng);
        const Vec3 a = packed_round_trip(v), b = packed_round_trip(-v);
        ASSERT_EQ(a.x, -b.x) << n;
        ASSERT_EQ(a.y, -b.y) << n;
        ASSERT_EQ(a.z, -b.z) << n;
    }
}

TEST(PackedVec3, RoundsToNearestWithTiesToEven) {
    // Largest component 1: steps of 2^-11.
    const float step = std::ldexp(1.f, -11);
    EXPECT_EQ(packed_round_trip({1.f, 2.5f * step, 0.f}).y, 2.f * step);
    EXPECT_EQ(packed_round_trip({1.f, 3.5f * step, 0.f}).y, 4.f * step);
    EXPECT_EQ(packed_round_trip({1.f, 0.f, 0.49f * step}).z, 0.f);
    EXPECT_EQ(packed_round_trip({1.f, 0.f, -0.51f * step}).z, -step);
    // The largest component at a tie: 4095.5 steps rounds up to 4096 (even), the next
    // exponent; 4094.5 down to 4094.
    EXPECT_EQ(packed_round_trip({8191.f / 8192.f, 0.f, 0.f}).x, 1.f);
    EXPECT_EQ(packed_round_trip({-8189.f / 8192.f, 0.f, 0.f}).x, -4094.f / 4096.f);
    // Exactly representable vectors come back unchanged.
    const Vec3 exact{0.75f, -0.5f, 1.f / 1024.f};
    EXPECT_TRUE(same_bits(packed_round_trip(exact), exact));
}

TEST(PackedVec3, ZeroTinyHugeAndNonFiniteVectors) {
    EXPECT_EQ(pack_vec3({}), 0u);
    EXPECT_TRUE(same_bits(packed_round_trip({}), Vec3{}));
    // Below 2^-100 is zero; at it, kept.
    EXPECT_TRUE(same_bits(packed_round_trip({1e-31f, -1e-32f, 0.f}), Vec3{}));
    EXPECT_EQ(packed_round_trip({std::ldexp(1.f, -100), 0.f, 0.f}).x, std::ldexp(1.f, -100));
    // The largest finite floats keep their place.
    const float big = std::ldexp(1.f, 120);
    EXPECT_EQ(packed_round_trip({big, -big, 0.f}).y, -big);
    // A non-finite component makes every component NaN.
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const Vec3 v : {Vec3{inf, 0.f, 0.f}, Vec3{0.f, nan, 1.f}, Vec3{1.f, 1.f, -inf}}) {
        const Vec3 back = packed_round_trip(v);
        EXPECT_TRUE(std::isnan(back.x) && std::isnan(back.y) && std::isnan(back.z));
    }
    EXPECT_TRUE(std::isnan(packed_round_trip({std::numeric_limits<float>::max(), 0.f, 0.f}).x))
        << "rounding past the largest float is not finite";
}

TEST(PackedVec3, TwoVectorsShareTwelveBytes) {
    std::mt19937 rng(17);
    for (int n = 0; n < 20000; ++n) {
        const Vec3 a = random_vector(rng), b = random_vector(rng);
        uint32_t w[3];
        pack_vec3_pair(a, b, w);
        Vec3 a2, b2;
        unpack_vec3_pair(w, a2, b2);
        ASSERT_TRUE(same_bits(a2, packed_round_trip(a))) << n;
        ASSERT_TRUE(same_bits(b2, packed_round_trip(b))) << n;
    }
}

}  // namespace
}  // namespace plab::sim
