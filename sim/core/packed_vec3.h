#pragma once
// A 3-vector in 48 bits, for the frictional contact memory (sim/physics/dem_frictional_step.h): a
// contact slot keeps a tangential stretch and a rolling spring's torque, and two of these
// plus the partner's id make the slot 16 B instead of 28 B.
//
// The three components share one exponent, the largest component's (a float's 8 bit biased
// exponent), and each keeps a 13 bit signed mantissa scaled so that the largest lies in
// [2048, 4095]. The error is at most 2^-12 of the largest component, whatever the units (SI
// stretches of 1e-7 m and torques of 1e-10 N·m need no scale from the parameters, as half
// floats would). Layout: three 16 bit halves, one a component (PackedHalves).
//
// What a step sees of it:
// - Rounding is to nearest, ties to even, and symmetric: pack(−v) unpacks to exactly
//   −unpack(pack(v)), so both copies of a contact (sim/physics/dem_friction.h, exact antisymmetry)
//   stay exact negatives of each other.
// - Unpacked values pack again to the same bits, so a state captured, written to a
//   checkpoint as floats and restored continues exactly as the run would have.
// - An increment below half a step of the mantissa (1/8192 to 1/4096 of the largest
//   component) is lost when the memory is rewritten, so the spring answers a creeping contact
//   only once the creep adds that much: a dead band of at most 0.025% of what the spring
//   holds, not a drift (the spring's force then grows with the next steps' motion).
// - A vector whose largest component is below 2^-100 (about 8e-31) is stored as zero; one
//   with a non-finite component unpacks as NaN in every component, so a blown-up state stays
//   visible to the divergence guard.
#include <cstdint>
#if !defined(__CUDA_ARCH__)
#include <cstring>
#endif

#include "sim/core/hd.h"
#include "sim/core/vec.h"

namespace plab::sim {

inline constexpr int kPackedMantissaBits = 13;
inline constexpr uint32_t kPackedMantissaMask = (1u << kPackedMantissaBits) - 1u;
inline constexpr uint32_t kPackedSmallest = 27;    // 2^-100: smaller vectors are zero
inline constexpr uint32_t kPackedNotFinite = 255;  // a float's exponent of inf and NaN

PLAB_HD inline uint32_t float_bits(float x) {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(x);
#else
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
#endif
}

PLAB_HD inline float bits_float(uint32_t u) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
#endif
}

// 2^e exactly, for e in a float's normal range [-126, 127].
PLAB_HD inline float exact_power_of_two(int e) { return bits_float(uint32_t(e + 127) << 23); }

// x·scale rounded to the nearest integer, ties to even, as a 13 bit two's complement field
// (|x·scale| ≤ 4096; scale a power of two, so the product is exact). Adding 1.5·2^23, where a
// float's step is 1, does the rounding in the default mode of both backends and leaves the
// integer in the low bits of the sum: no conversion instructions, which the device runs at an
// eighth of an add's rate.
inline constexpr float kRoundingMagic = 12582912.f;  // 1.5 · 2^23
inline constexpr uint32_t kRoundingMagicBits = 0x4b400000u;

PLAB_HD inline uint32_t mantissa_field(float x, float scale) {
    return float_bits(x * scale + kRoundingMagic) & kPackedMantissaMask;
}

PLAB_HD inline uint32_t larger(uint32_t a, uint32_t b) { return a > b ? a : b; }

// A packed vector as three 16 bit halves (held in the low bits of 32 bit words): each half is
// one component's 13 bit mantissa (two's complement) and, in its top 3 bits, a part of the
// shared exponent (x: bits 0-2, y: 3-5, z: 6-7). Whole 16 bit halves, so that packing and
// unpacking stay 32 bit work on the device.
struct PackedHalves {
    uint32_t x = 0, y = 0, z = 0;
};

PLAB_HD inline PackedHalves packed_halves(uint32_t mx, uint32_t my, uint32_t mz, uint32_t e) {
    return {mx | (e & 7u) << 13, my | (e >> 3 & 7u) << 13, mz | (e >> 6) << 13};
}

PLAB_HD inline PackedHalves pack_halves(Vec3 v) {
    // The largest magnitude (magnitudes order as their bits do) and its biased exponent e: it
    // lies in [2^(e-127), 2^(e-126)), and scaled by 2^(138-e) in [2048, 4096). Adding 2^11 to
    // its bits carries into the exponent exactly when it would round up to 4096 (fraction
    // bits ≥ 0x7ff800, 4095.5 and up, ties to even), one bit too many: then every component
    // takes the next exponent. No branches: the pass packs in its inner loop.
    const uint32_t top =
        larger(larger(float_bits(v.x) & 0x7fffffffu, float_bits(v.y) & 0x7fffffffu),
               float_bits(v.z) & 0x7fffffffu);
    const uint32_t e = (top + 0x800u) >> 23;
    const bool kept = e >= kPackedSmallest && e < kPackedNotFinite;
    const uint32_t code = kept ? e : e < kPackedSmallest ? 0u : kPackedNotFinite;
    const Vec3 u = kept ? v : Vec3{};  // nothing non-finite reaches the conversion
    const float scale = exact_power_of_two(138 - int(kept ? e : kPackedSmallest));
    return packed_halves(mantissa_field(u.x, scale), mantissa_field(u.y, scale),
                         mantissa_field(u.z, scale), code);
}

// A half's mantissa times `scale`: sign-extended, added to the magic's bits, the magic taken
// off again (all exact), scaled.
PLAB_HD inline float mantissa_value(uint32_t h, float scale) {
    const int32_t m =
        static_cast<int32_t>(h << (32 - kPackedMantissaBits)) >> (32 - kPackedMantissaBits);
    return (bits_float(kRoundingMagicBits + uint32_t(m)) - kRoundingMagic) * scale;
}

PLAB_HD inline Vec3 unpack_halves(PackedHalves p) {
    const uint32_t e = (p.x >> 13 & 7u) | (p.y >> 13 & 7u) << 3 | (p.z >> 13 & 3u) << 6;
    // Selects, not branches: the pass unpacks in its inner loop, where branches cost registers.
    // 2^(e-138) for a kept vector, 0 for the zero one, NaN for a non-finite one.
    uint32_t scale = uint32_t(e - 11u) << 23;
    scale = e < kPackedSmallest ? 0u : scale;
    scale = e == kPackedNotFinite ? 0x7fc00000u : scale;
    const float s = bits_float(scale);
    return {mantissa_value(p.x, s), mantissa_value(p.y, s), mantissa_value(p.z, s)};
}

// The 48 bits as one number (x's half lowest), for tests.
PLAB_HD inline uint64_t pack_vec3(Vec3 v) {
    const PackedHalves p = pack_halves(v);
    return uint64_t(p.x) | uint64_t(p.y) << 16 | uint64_t(p.z) << 32;
}
PLAB_HD inline Vec3 unpack_vec3(uint64_t bits) {
    return unpack_halves(
        {uint32_t(bits) & 0xffffu, uint32_t(bits >> 16) & 0xffffu, uint32_t(bits >> 32) & 0xffffu});
}

// Two packed vectors in three 32 bit words (12 B, 4 B aligned): a's halves x, y | z and b's
// x | y, z.
PLAB_HD inline void pack_vec3_pair(Vec3 a, Vec3 b, uint32_t w[3]) {
    const PackedHalves pa = pack_halves(a), pb = pack_halves(b);
    w[0] = pa.x | pa.y << 16;
    w[1] = pa.z | pb.x << 16;
    w[2] = pb.y | pb.z << 16;
}

PLAB_HD inline void unpack_vec3_pair(const uint32_t w[3], Vec3& a, Vec3& b) {
    a = unpack_halves({w[0] & 0xffffu, w[0] >> 16, w[1] & 0xffffu});
    b = unpack_halves({w[1] >> 16, w[2] & 0xffffu, w[2] >> 16});
}

// What the memory gives back for `v`.
PLAB_HD inline Vec3 packed_round_trip(Vec3 v) { return unpack_vec3(pack_vec3(v)); }

}  // namespace plab::sim
