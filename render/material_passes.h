#pragma once
// The material look's passes, one particle or one pixel per call, shared by the CUDA kernels
// (render/material_kernels.cu) and the CPU reference the tests check them with
// (render/material_reference.h). Order of a frame:
//   1. splat (per particle): the nearest sphere's key per pixel (material_fragment) and, for
//      the liquid, the sum of the chords through every sphere (its thickness); for grains with
//      shadows, the same spheres splatted into the light's depth map;
//   2. depth (per pixel): each key's eye distance, 0 where empty;
//   3. liquid only: the narrow-range filter along x, then along y, over that distance;
//   4. shade (per pixel): colour and window depth.
// The atomics differ between the CPU and CUDA: the per-particle passes take them as a policy.
#include <cstdint>

#include "render/material_math.h"
#include "render/splat_math.h"
#include "sim/core/hd.h"
#include "sim/core/vec.h"
#include "sim/geometry/geometry_view.h"

namespace plab::render {

// The frame's images, width × height of the camera (row 0 at the bottom) and shadow_size² of
// the light.
struct MaterialFrame {
    std::uint64_t* keys = nullptr;   // material keys (kEmptyKey where nothing is drawn)
    float* thickness = nullptr;      // liquid: the chords' sum, m
    float* dist = nullptr;           // eye distance, m; 0: empty; the liquid's filtered in place
    float* scratch = nullptr;        // the filter's first axis
    std::uint32_t* light = nullptr;  // light map: order_key of the nearest light depth
};

// Step 1 for one particle at world (x, y, z) with its id colour (r, g, b).
template <class Atomics>
PLAB_HD inline void material_splat(const MaterialView& m, const MaterialFrame& f, float x, float y,
                                   float z, float r, float g, float b) {
    const SplatView& v = m.splat;
    const SplatSphere s = project_sphere(v, x, y, z);
    if (!s.visible) return;
    const std::uint32_t tint = tint_of(r, g, b);
    for (int py = s.y0; py <= s.y1; ++py)
        for (int px = s.x0; px <= s.x1; ++px) {
            float chord = 0.f;
            const std::uint64_t key = material_fragment(v, s, px, py, tint, chord);
            if (key == kEmptyKey) continue;
            const long long i = static_cast<long long>(py) * v.width + px;
            Atomics::min64(f.keys + i, key);
            if (m.kind == MaterialKind::Liquid) Atomics::add(f.thickness + i, chord);
        }
}

// Step 1's light map for one particle: the sphere seen along the sun (orthographic), the
// depth of its cap kept per texel.
template <class Atomics>
PLAB_HD inline void light_splat(const MaterialView& m, const MaterialFrame& f, float x, float y,
                                float z) {
    const Vec4f c = transform(m.light_clip, x, y, z, 1.f);
    if (!(c.z >= -1.f && c.z <= 1.f)) return;  // NaN fails too
    const float n = float(m.shadow_size);
    const float cu = (c.x * 0.5f + 0.5f) * n, cv = (c.y * 0.5f + 0.5f) * n;
    // Texels per metre across, and light depth (0..1) per metre along the light.
    const float per_m =
        0.5f * n *
        sqrtf(m.light_clip.m[0] * m.light_clip.m[0] + m.light_clip.m[4] * m.light_clip.m[4] +
              m.light_clip.m[8] * m.light_clip.m[8]);
    const float depth_per_m =
        0.5f * sqrtf(m.light_clip.m[2] * m.light_clip.m[2] + m.light_clip.m[6] * m.light_clip.m[6] +
                     m.light_clip.m[10] * m.light_clip.m[10]);
    const float rt = m.splat.radius * per_m;  // radius in texels
    const float h = rt > 0.5f ? rt : 0.5f;
    const int x0 = int(ceilf(cu - h - 0.5f)), x1 = int(ceilf(cu + h - 0.5f)) - 1;
    const int y0 = int(ceilf(cv - h - 0.5f)), y1 = int(ceilf(cv + h - 0.5f)) - 1;
    const float centre = 0.5f * c.z + 0.5f;
    for (int ty = y0 < 0 ? 0 : y0; ty <= y1 && ty < m.shadow_size; ++ty)
        for (int tx = x0 < 0 ? 0 : x0; tx <= x1 && tx < m.shadow_size; ++tx) {
            const float du = (float(tx) + 0.5f - cu) / h, dv = (float(ty) + 0.5f - cv) / h;
            const float r2 = du * du + dv * dv;
            if (r2 > 1.f) continue;
            const float cap = centre - m.splat.radius * sqrtf(1.f - r2) * depth_per_m;
            Atomics::min32(f.light + static_cast<long long>(ty) * m.shadow_size + tx,
                           order_key(cap));
        }
}

// Calls `covered(x, y, b0, b1, b2)` for each pixel of a width × height image whose centre lies
// in the triangle with window corners (xs[k], ys[k]), with its barycentric weights; the
// pixels of its bounding box are shared by `threads` threads (`thread` of them is this one).
template <class Covered>
PLAB_HD inline void raster_triangle(const float xs[3], const float ys[3], int width, int height,
                                    int thread, int threads, Covered covered) {
    const float area = (xs[1] - xs[0]) * (ys[2] - ys[0]) - (xs[2] - xs[0]) * (ys[1] - ys[0]);
    if (!(fabsf(area) > 0.f)) return;  // edge-on, or NaN
    const float lo_x = fminf(xs[0], fminf(xs[1], xs[2])), hi_x = fmaxf(xs[0], fmaxf(xs[1], xs[2]));
    const float lo_y = fminf(ys[0], fminf(ys[1], ys[2])), hi_y = fmaxf(ys[0], fmaxf(ys[1], ys[2]));
    if (!(hi_x >= 0.f && hi_y >= 0.f && lo_x <= float(width) && lo_y <= float(height))) return;
    const int x0 = lo_x < 0.f ? 0 : int(lo_x), y0 = lo_y < 0.f ? 0 : int(lo_y);
    const int x1 = hi_x > float(width - 1) ? width - 1 : int(hi_x);
    const int y1 = hi_y > float(height - 1) ? height - 1 : int(hi_y);
    if (x1 < x0 || y1 < y0) return;
    const int w = x1 - x0 + 1;
    const long long count = static_cast<long long>(w) * (y1 - y0 + 1);
    for (long long q = thread; q < count; q += threads) {
        const int x = x0 + int(q % w), y = y0 + int(q / w);
        const float px = float(x) + 0.5f, py = float(y) + 0.5f;
        // Barycentric weights from the edge functions, each over the signed area.
        const float b0 = ((xs[1] - px) * (ys[2] - py) - (xs[2] - px) * (ys[1] - py)) / area;
        const float b1 = ((xs[2] - px) * (ys[0] - py) - (xs[0] - px) * (ys[2] - py)) / area;
        const float b2 = 1.f - b0 - b1;
        if (b0 >= 0.f && b1 >= 0.f && b2 >= 0.f) covered(x, y, b0, b1, b2);
    }
}

// Step 1 for one triangle of the scene's bodies, its pixels shared by `threads` threads
// (`thread` of them is this one): the triangle's key where it is nearer than what a pixel
// holds, and (shadow_size > 0) its depth in the light map. A triangle is drawn where its
// particle side (place_bodies winds every triangle to face the particles) faces the eye, and
// casts a shadow where that side faces the sun: the camera sees into a drum or a tank through
// its near wall, and the sun lights the inside. A triangle reaching behind the near plane is
// not drawn (a camera inside a body sees through it).
template <class Atomics>
PLAB_HD inline void body_splat(const MaterialView& m, const MaterialFrame& f,
                               const sim::GeoTriangle& t, int thread, int threads) {
    using sim::Vec3;
    const SplatView& v = m.splat;
    const Vec3 face = sim::cross(t.b - t.a, t.c - t.a);
    const Vec3 corners[3] = {t.a, t.b, t.c};
    // The camera's picture.
    float sx[3], sy[3], dist[3];
    bool drawn = true;
    for (int k = 0; k < 3; ++k) {
        const Vec4f e = transform(v.view, corners[k].x, corners[k].y, corners[k].z, 1.f);
        const Vec4f c = transform(v.projection, e.x, e.y, e.z, 1.f);
        if (!(c.w > 0.f && c.z >= -c.w)) drawn = false;
        dist[k] = -e.z;
        sx[k] = (c.x / c.w * 0.5f + 0.5f) * float(v.width);
        sy[k] = (c.y / c.w * 0.5f + 0.5f) * float(v.height);
    }
    const Vec3 n_view = normalized(rotate(v.view, face));
    const Vec4f ea = transform(v.view, t.a.x, t.a.y, t.a.z, 1.f);
    if (drawn && n_view.x * -ea.x + n_view.y * -ea.y + n_view.z * -ea.z > 0.f) {
        const std::uint32_t payload = material_payload(n_view.x, n_view.y, 0) | kBodyBit;
        raster_triangle(sx, sy, v.width, v.height, thread, threads,
                        [&](int x, int y, float b0, float b1, float b2) {
                            // 1 / distance is linear on the screen.
                            const float d = 1.f / (b0 / dist[0] + b1 / dist[1] + b2 / dist[2]);
                            Atomics::min64(f.keys + static_cast<long long>(y) * v.width + x,
                                           make_key(d, payload));
                        });
    }
    // The light's picture (orthographic: depth is linear on the map).
    if (m.shadow_size <= 0 || sim::dot(face, m.sun_world) <= 0.f) return;
    const float n = float(m.shadow_size);
    float lx[3], ly[3], ld[3];
    for (int k = 0; k < 3; ++k) {
        const Vec4f c = transform(m.light_clip, corners[k].x, corners[k].y, corners[k].z, 1.f);
        lx[k] = (c.x * 0.5f + 0.5f) * n;
        ly[k] = (c.y * 0.5f + 0.5f) * n;
        ld[k] = 0.5f * c.z + 0.5f;
    }
    raster_triangle(lx, ly, m.shadow_size, m.shadow_size, thread, threads,
                    [&](int x, int y, float b0, float b1, float b2) {
                        Atomics::min32(f.light + static_cast<long long>(y) * m.shadow_size + x,
                                       order_key(b0 * ld[0] + b1 * ld[1] + b2 * ld[2]));
                    });
}

// Step 2 for pixel i: the eye distance of what the pixel shows, 0 where empty; the liquid's
// image leaves the bodies' pixels empty too, so its filter never blends a wall into it.
PLAB_HD inline void material_depth(const MaterialView& m, const MaterialFrame& f, long long i) {
    const std::uint64_t key = f.keys[i];
    const bool skip = key == kEmptyKey || (m.kind == MaterialKind::Liquid &&
                                           payload_is_body(static_cast<std::uint32_t>(key)));
    f.dist[i] = skip ? 0.f : key_depth(key);
}

// Step 3 for pixel (x, y) along x (`along_x`) from `src` to `dst`: a local linear fit of the
// depth along the axis (Gaussian weights over the reach that distance gives), whose value at
// the pixel is the result. A fit, not a mean, so that a steep flank (a drop's rim, where the
// far side of the window is empty) keeps its depth and slope instead of being pulled towards
// the nearer side; samples off the pixel's tangent line by more than the range (with room
// for slopes up to 80°) are other surfaces and do not count (material_math.h's
// filter_weight).
PLAB_HD inline void material_filter(const MaterialView& m, const float* src, float* dst, int x,
                                    int y, bool along_x) {
    const int w = m.splat.width, h = m.splat.height;
    const long long i = static_cast<long long>(y) * w + x;
    const float d = src[i];
    if (d <= 0.f) {
        dst[i] = 0.f;
        return;
    }
    float reach = m.reach_px_m / d;
    reach = reach > float(kMaxFilterRadius) ? float(kMaxFilterRadius) : reach;
    const int r = int(reach);
    if (r < 1) {
        dst[i] = d;
        return;
    }
    const float pixel_m = 2.f * d / (m.splat.projection.m[5] * float(h));  // a pixel's width there
    float sw = 0.f, swk = 0.f, swkk = 0.f, sws = 0.f, swks = 0.f;
    for (int k = -r; k <= r; ++k) {
        const int sx = along_x ? x + k : x, sy = along_x ? y : y + k;
        if (sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
        const float s = src[static_cast<long long>(sy) * w + sx];
        if (s <= 0.f) continue;
        const float wt =
            filter_weight(k, reach, s - d, m.filter_range + 2.8f * pixel_m * fabsf(float(k)));
        if (wt <= 0.f) continue;
        const float kf = float(k), ds = s - d;  // about the centre, for float's sake
        sw += wt;
        swk += wt * kf;
        swkk += wt * kf * kf;
        sws += wt * ds;
        swks += wt * kf * ds;
    }
    const float det = sw * swkk - swk * swk;
    // A line needs samples on more than one pixel; else the weighted mean.
    const float fit = det > 1e-3f * sw * sw ? (swkk * sws - swk * swks) / det : sws / sw;
    dst[i] = d + fit;
}

// The liquid's normal at pixel (x, y): from the filtered depth (depth_normal), the sphere's
// own where an axis has no neighbour.
PLAB_HD inline sim::Vec3 liquid_normal(const MaterialView& m, const MaterialFrame& f, int x,
                                       int y) {
    const SplatView& v = m.splat;
    auto dist = [&](int px, int py) { return f.dist[static_cast<long long>(py) * v.width + px]; };
    const std::uint64_t key = f.keys[static_cast<long long>(y) * v.width + x];
    return depth_normal(v, x, y, dist, payload_normal(static_cast<std::uint32_t>(key)));
}

// The ambient light left at eye point `p` with normal `n` (pixel (x, y)): 1 less 0.9 times the
// share of hemisphere samples that the depth image hides behind a nearer surface within reach.
PLAB_HD inline float grain_occlusion(const MaterialView& m, const MaterialFrame& f, int x, int y,
                                     sim::Vec3 p, sim::Vec3 n) {
    using sim::Vec3;
    const SplatView& v = m.splat;
    const Vec3 t =
        normalized(fabsf(n.x) < 0.9f ? sim::cross(n, Vec3{1, 0, 0}) : sim::cross(n, Vec3{0, 1, 0}));
    const Vec3 bt = sim::cross(n, t);
    const float turn = ao_turn(x, y);
    int hidden = 0;
    for (int k = 0; k < kAoSamples; ++k) {
        const Vec3 a = ao_sample(k, turn);
        const Vec3 s = p + (t * a.x + bt * a.y + n * a.z) * m.ao_radius;
        const Vec4f c = transform(v.projection, s.x, s.y, s.z, 1.f);
        if (!(c.w > 0.f)) continue;
        const int sx = int((c.x / c.w * 0.5f + 0.5f) * float(v.width));
        const int sy = int((c.y / c.w * 0.5f + 0.5f) * float(v.height));
        if (sx < 0 || sy < 0 || sx >= v.width || sy >= v.height) continue;
        const float ds = f.dist[static_cast<long long>(sy) * v.width + sx];
        const float sd = -s.z;
        if (ds > 0.f && ds < sd - 0.05f * m.ao_radius && sd - ds < 2.f * m.ao_radius) ++hidden;
    }
    return 1.f - 0.9f * float(hidden) / float(kAoSamples);
}

// How much of the sun reaches world point `w` (0..1): the share of the 3 × 3 light-map texels
// around it whose stored cap is not nearer the sun than it by more than the bias. 1 without
// a light map or outside it.
PLAB_HD inline float grain_lit(const MaterialView& m, const MaterialFrame& f, sim::Vec3 w) {
    if (m.shadow_size <= 0) return 1.f;
    int tx = 0, ty = 0;
    float ld = 0.f;
    if (!light_texel(m, w, tx, ty, ld)) return 1.f;
    int seen = 0, taps = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int qx = tx + dx, qy = ty + dy;
            if (qx < 0 || qy < 0 || qx >= m.shadow_size || qy >= m.shadow_size) continue;
            ++taps;
            const std::uint32_t stored = f.light[static_cast<long long>(qy) * m.shadow_size + qx];
            // An empty texel (all bits set) lies beyond every depth.
            const float sd = stored == ~0u ? 2.f : key_depth(std::uint64_t{stored} << 32);
            if (sd >= ld - m.shadow_bias) ++seen;
        }
    return taps > 0 ? float(seen) / float(taps) : 1.f;
}

// What step 4 gives a pixel.
struct MaterialPixel {
    std::uint32_t rgba = 0;  // RGBA8; alpha 0 where empty
    float depth = 1.f;       // GL window depth
};

// Step 4 for pixel (x, y).
PLAB_HD inline MaterialPixel material_shade(const MaterialView& m, const MaterialFrame& f, int x,
                                            int y) {
    using sim::Vec3;
    const SplatView& v = m.splat;
    const long long i = static_cast<long long>(y) * v.width + x;
    const std::uint64_t key = f.keys[i];
    MaterialPixel out;
    if (key == kEmptyKey) return out;
    const std::uint32_t payload = static_cast<std::uint32_t>(key);
    Vec3 colour;
    float d = f.dist[i];
    if (payload_is_body(payload)) {
        d = key_depth(key);
        const Vec3 n = payload_normal(payload);
        const Vec3 p = eye_point(v, float(x), float(y), d);
        float ao = 1.f, lit = 1.f;
        if (m.kind == MaterialKind::Grains) {
            ao = grain_occlusion(m, f, x, y, p, n);
            const Vec3 e = p + n * (0.5f * v.radius);
            const Vec4f w4 = transform(m.view_to_world, e.x, e.y, e.z, 1.f);
            lit = grain_lit(m, f, Vec3{w4.x, w4.y, w4.z});
        }
        const float sun = sim::dot(n, m.sun_view);
        colour =
            body_albedo() * (m.ambient * ao + (1.f - m.ambient) * (sun > 0.f ? sun : 0.f) * lit);
    } else if (m.kind == MaterialKind::Liquid) {
        if (d <= 0.f) d = key_depth(key);
        colour = shade_liquid(m, eye_point(v, float(x), float(y), d), liquid_normal(m, f, x, y),
                              f.thickness[i]);
    } else {
        const Vec3 n = payload_normal(payload);
        const Vec3 p = eye_point(v, float(x), float(y), d);
        const float ao = grain_occlusion(m, f, x, y, p, n);
        // The shadow's lookup nudged half a radius off the surface, against acne.
        const Vec3 e = p + n * (0.5f * v.radius);
        const Vec4f w4 = transform(m.view_to_world, e.x, e.y, e.z, 1.f);
        const float lit = grain_lit(m, f, Vec3{w4.x, w4.y, w4.z});
        colour = shade_grain(m, n, payload_tint(payload), lit, ao);
    }
    out.rgba = pack_rgba8(colour.x, colour.y, colour.z, 1.f);
    out.depth = window_depth(v, d);
    return out;
}

}  // namespace plab::render
