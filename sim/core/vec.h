#pragma once
// Small vector types usable on the host and the device. Float4 is the storage format of
// positions and velocities (16-byte aligned so the GPU loads it in one instruction); Vec3 is
// what the formulas compute with.
#include <cmath>

#include "sim/core/hd.h"

namespace plab::sim {

struct alignas(16) Float4 {
    float x = 0.f, y = 0.f, z = 0.f, w = 0.f;
};

struct Vec3 {
    float x = 0.f, y = 0.f, z = 0.f;
};

PLAB_HD inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
PLAB_HD inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
PLAB_HD inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
PLAB_HD inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
PLAB_HD inline Vec3 operator*(float s, Vec3 a) { return a * s; }
PLAB_HD inline Vec3& operator+=(Vec3& a, Vec3 b) {
    a = a + b;
    return a;
}
PLAB_HD inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
PLAB_HD inline float length_squared(Vec3 a) { return dot(a, a); }
PLAB_HD inline Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// √dist2, with its reciprocal in `inv_dist` (meaningless at 0: callers test the distance
// before they use it). On the device one reciprocal square root (about 2 ulp) instead of a
// correctly rounded square root and division, for the contact laws' inner loops; the host
// computes both exactly.
PLAB_HD inline float distance_and_inverse(float dist2, float& inv_dist) {
#if defined(__CUDA_ARCH__)
    inv_dist = rsqrtf(dist2);
    return dist2 > 0.f ? dist2 * inv_dist : 0.f;  // rsqrtf(0) is inf
#else
    const float dist = sqrtf(dist2);
    inv_dist = 1.f / dist;
    return dist;
#endif
}

PLAB_HD inline Vec3 xyz(const Float4& f) { return {f.x, f.y, f.z}; }

// Double precision, for the optional double-precision state (SimulatorOptions::double_state):
// positions and velocities kept and integrated in double, forces still computed in float.
struct alignas(16) Double4 {
    double x = 0, y = 0, z = 0, w = 0;
};

struct Vec3d {
    double x = 0, y = 0, z = 0;
};

PLAB_HD inline Vec3d operator+(Vec3d a, Vec3d b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
PLAB_HD inline Vec3d operator*(Vec3d a, double s) { return {a.x * s, a.y * s, a.z * s}; }
PLAB_HD inline Vec3d to_vec3d(Vec3 v) { return {v.x, v.y, v.z}; }
PLAB_HD inline Vec3d xyz(const Double4& f) { return {f.x, f.y, f.z}; }
PLAB_HD inline Double4 to_double4(Vec3d v) { return {v.x, v.y, v.z, 0.0}; }
PLAB_HD inline Float4 to_float4(Vec3d v) {
    return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z), 0.f};
}
PLAB_HD inline Float4 to_float4(const Double4& v) { return to_float4(xyz(v)); }
PLAB_HD inline Float4 to_float4(Vec3 v, float w = 0.f) { return {v.x, v.y, v.z, w}; }

}  // namespace plab::sim
