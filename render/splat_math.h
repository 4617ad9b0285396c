#pragma once
// The math of the CUDA sphere splatter, shared by its kernels (render/splat_renderer.cu) and
// the CPU reference splat (render/splat_reference.h) that the tests check pixels with. It
// reproduces what the GL impostors draw (shaders/particles.vert, particles.frag): a particle is
// a disc of diameter r P[1][1] H / w pixels around its projected centre, a pixel is on the
// sphere when its centre lies in the disc, its normal is that of a unit
// hemisphere facing the eye, its colour Lambert-lit, and its depth that of the sphere's
// surface. A target pixel holds a 64-bit key: the depth as an order-preserving integer in the
// high 32 bits, the shaded RGBA8 colour in the low 32, so the nearest surface wins one
// atomicMin and equal depths resolve to the same colour whatever the order.
#include <cmath>
#include <cstdint>

#include "sim/core/hd.h"
#include "sim/core/vec.h"

namespace plab::render {

// Column-major 4×4 matrix (glm's memory layout: m[col * 4 + row]).
struct Mat4 {
    float m[16];
};

struct Vec4f {
    float x, y, z, w;
};

PLAB_HD inline Vec4f transform(const Mat4& a, float x, float y, float z, float w) {
    return {a.m[0] * x + a.m[4] * y + a.m[8] * z + a.m[12] * w,
            a.m[1] * x + a.m[5] * y + a.m[9] * z + a.m[13] * w,
            a.m[2] * x + a.m[6] * y + a.m[10] * z + a.m[14] * w,
            a.m[3] * x + a.m[7] * y + a.m[11] * z + a.m[15] * w};
}

// Larger spheres are drawn at this radius (pixels): one thread writes at most
// (2 × 1024)² pixels, about NVIDIA's largest GL point (2047 pixels across), and the square is
// also clipped to the target.
constexpr float kMaxSplatRadiusPx = 1024.f;

// The key of an empty pixel: larger than any depth key.
constexpr std::uint64_t kEmptyKey = ~std::uint64_t{0};

// What the splatter needs of the camera and the scene, passed to the kernels by value.
struct SplatView {
    Mat4 view;        // world → eye (glm::lookAt)
    Mat4 projection;  // eye → clip, perspective
    int width = 0;    // target size, pixels
    int height = 0;
    float radius = 0.f;            // particle radius, m
    sim::Vec3 light_dir{0, 0, 1};  // view space, unit length, towards the light
    float ambient = 0.25f;         // 0..1
};

// One particle as seen by the camera: where its square lies and what shading needs.
struct SplatSphere {
    bool visible = false;  // centre inside the near and far planes, square overlaps the target
    float cx = 0, cy = 0;  // projected centre, window pixels from the bottom-left corner
    float size = 0;        // disc diameter, pixels (at least 1)
    float ex = 0, ey = 0, ez = 0;  // centre in eye space, m
    // The square covers one pixel (GL's smallest point): a single write, no loop. As with the
    // GL sprite, the pixel shows the sphere only when its centre lies in the (one-pixel) disc.
    bool one_pixel = false;
    int x0 = 0, x1 = -1, y0 = 0, y1 = -1;  // covered pixel columns and rows, inclusive, clipped
};

// Bits of a float that compare as unsigned integers in the order the floats do.
PLAB_HD inline std::uint32_t order_key(float f) {
    std::uint32_t u;
    static_assert(sizeof u == sizeof f);
#if defined(__CUDA_ARCH__)
    u = __float_as_uint(f);
#else
    __builtin_memcpy(&u, &f, sizeof u);
#endif
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

PLAB_HD inline float key_depth(std::uint64_t key) {
    std::uint32_t u = static_cast<std::uint32_t>(key >> 32);
    u = (u & 0x80000000u) ? (u & 0x7fffffffu) : ~u;
    float f;
#if defined(__CUDA_ARCH__)
    f = __uint_as_float(u);
#else
    __builtin_memcpy(&f, &u, sizeof f);
#endif
    return f;
}

PLAB_HD inline std::uint64_t make_key(float depth, std::uint32_t payload) {
    return (static_cast<std::uint64_t>(order_key(depth)) << 32) | payload;
}

// RGBA in 0..1 to RGBA8 (R in the low byte), rounded to nearest as GL stores unorm colours.
PLAB_HD inline std::uint32_t pack_rgba8(float r, float g, float b, float a) {
    auto q = [](float v) {
        v = v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
        return static_cast<std::uint32_t>(v * 255.f + 0.5f);
    };
    return q(r) | (q(g) << 8) | (q(b) << 16) | (q(a) << 24);
}

// Projects one particle at world position (x, y, z). A centre behind the near plane (or the
// eye) or beyond the far plane is culled, as GL clips a point by its vertex; a sphere whose
// square misses the target is culled too. The square's pixels are those whose centres lie in
// [c - size/2, c + size/2), the pixels that can hold the disc; its radius is capped at
// kMaxSplatRadiusPx.
PLAB_HD inline SplatSphere project_sphere(const SplatView& v, float x, float y, float z) {
    SplatSphere s;
    const Vec4f e = transform(v.view, x, y, z, 1.f);
    const Vec4f c = transform(v.projection, e.x, e.y, e.z, 1.f);
    // Written so that NaN coordinates fail it.
    if (!(c.w > 0.f && c.z >= -c.w && c.z <= c.w)) return s;
    const float inv_w = 1.f / c.w;
    s.cx = (c.x * inv_w * 0.5f + 0.5f) * static_cast<float>(v.width);
    s.cy = (c.y * inv_w * 0.5f + 0.5f) * static_cast<float>(v.height);
    // The sphere's diameter in pixels, r P[1][1] H / w, at least 1, as particles.vert has it.
    float size = v.radius * v.projection.m[5] * static_cast<float>(v.height) * inv_w;
    size = size < 1.f ? 1.f : (size > 2.f * kMaxSplatRadiusPx ? 2.f * kMaxSplatRadiusPx : size);
    s.size = size;
    s.ex = e.x;
    s.ey = e.y;
    s.ez = e.z;
    // Pixel i's centre is i + 0.5: columns with c - size/2 <= i + 0.5 < c + size/2.
    const float h = 0.5f * size;
    const float fx0 = ceilf(s.cx - h - 0.5f), fx1 = ceilf(s.cx + h - 0.5f) - 1.f;
    const float fy0 = ceilf(s.cy - h - 0.5f), fy1 = ceilf(s.cy + h - 0.5f) - 1.f;
    const float wmax = static_cast<float>(v.width - 1), hmax = static_cast<float>(v.height - 1);
    if (fx1 < 0.f || fy1 < 0.f || fx0 > wmax || fy0 > hmax || fx0 > fx1 || fy0 > fy1) return s;
    s.one_pixel = fx0 == fx1 && fy0 == fy1;
    s.x0 = static_cast<int>(fx0 < 0.f ? 0.f : fx0);
    s.x1 = static_cast<int>(fx1 > wmax ? wmax : fx1);
    s.y0 = static_cast<int>(fy0 < 0.f ? 0.f : fy0);
    s.y1 = static_cast<int>(fy1 > hmax ? hmax : fy1);
    s.visible = true;
    return s;
}

// The key pixel (px, py) of sphere `s` writes, with `color` (RGBA 0..1) lit; kEmptyKey when
// the pixel centre is off the disc. Depth in 0..1 (GL's default depth range), clamped as GL
// clamps gl_FragDepth.
PLAB_HD inline std::uint64_t splat_fragment(const SplatView& v, const SplatSphere& s, int px,
                                            int py, float r, float g, float b, float a) {
    // The pixel centre's offset from the sphere's centre in sphere radii, y up (particles.frag).
    const float inv = 2.f / s.size;
    const float nx = (static_cast<float>(px) + 0.5f - s.cx) * inv;
    const float ny = (static_cast<float>(py) + 0.5f - s.cy) * inv;
    const float r2 = nx * nx + ny * ny;
    if (r2 > 1.f) return kEmptyKey;
    const float nz = sqrtf(1.f - r2);
    const float d = nx * v.light_dir.x + ny * v.light_dir.y + nz * v.light_dir.z;
    const float light = v.ambient + (1.f - v.ambient) * (d > 0.f ? d : 0.f);
    // The depth of the sphere's surface point, as particles.frag computes it.
    const Vec4f c = transform(v.projection, s.ex + v.radius * nx, s.ey + v.radius * ny,
                              s.ez + v.radius * nz, 1.f);
    float depth = 0.5f * (c.z / c.w) + 0.5f;
    depth = depth < 0.f ? 0.f : (depth > 1.f ? 1.f : depth);
    return make_key(depth, pack_rgba8(r * light, g * light, b * light, a));
}

// The resolved pixel: the shaded colour of the nearest sphere with alpha 255, or 0 (alpha 0
// marks an empty pixel, which the composite leaves to the background).
PLAB_HD inline std::uint32_t resolve_color(std::uint64_t key) {
    return key == kEmptyKey ? 0u : (static_cast<std::uint32_t>(key) | 0xff000000u);
}

// The resolved depth: the nearest surface's, or 1 (the far plane) where empty.
PLAB_HD inline float resolve_depth(std::uint64_t key) {
    return key == kEmptyKey ? 1.f : key_depth(key);
}

}  // namespace plab::render
