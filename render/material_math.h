#pragma once
// The math of the material look (render/material_passes.h runs it per particle and per pixel,
// on the CPU for the tests and in CUDA for frames): what a sphere's pixel keeps, the eye-space
// point of a pixel, the narrow-range depth filter's weights, normals from a depth image, the
// sky that water reflects, the grains' palette and the screen-space ambient occlusion's
// samples. The data look (render/splat_math.h) is untouched by any of it.
//
// A material pixel's key: the eye distance of the nearest sphere surface (m along the view
// axis, positive) as an order key in the high 32 bits, so the nearest surface wins the same
// atomicMin as the data look; in the low 32 bits that sphere's normal (x and y of the
// hemisphere facing the eye, 11 bits each) and an 8-bit tint drawn from the particle's id
// colour, so grains keep their shade from frame to frame whatever order memory holds them in.
#include <cmath>
#include <cstdint>

#include "render/splat_math.h"
#include "sim/core/hd.h"
#include "sim/core/vec.h"

namespace plab::render {

// Which material a run's particles are: SPH's liquid or DEM's grains.
enum class MaterialKind : std::uint8_t { Liquid, Grains };

// The grains' colours: sand (warm, matt) or glass beads (pale, with a highlight).
enum class GrainPalette : std::uint8_t { Sand, Glass };

// How particles are drawn: `Data` (colour maps, render/splat_math.h) or `Material`.
enum class Look : std::uint8_t { Data, Material };

// What the material passes need besides the splat's camera (SplatView).
struct MaterialView {
    SplatView splat;  // camera, target size, particle radius
    MaterialKind kind = MaterialKind::Grains;
    Mat4 view_to_world;            // inverse of splat.view (a rigid motion)
    sim::Vec3 sun_view{0, 0, 1};   // towards the sun, view space, unit length
    sim::Vec3 sun_world{0, 1, 0};  // the same in world space
    // Shadows (grains): world → light clip space, orthographic (x, y, z in −1..1), and the
    // light map's size in texels a side; 0: no shadow.
    Mat4 light_clip;
    int shadow_size = 0;
    float shadow_bias = 0.f;  // light-space depth units (the clip z's 0..1 range)
    // Liquid: the depth filter's reach (pixels, at most kMaxFilterRadius) per metre of eye
    // distance, i.e. pixels at distance d are reach_px_m / d; and its depth range (m).
    float reach_px_m = 0.f;
    float filter_range = 0.f;
    // Grains: their palette, the occlusion's sample radius (m) and the ambient light.
    GrainPalette palette = GrainPalette::Sand;
    float ao_radius = 0.f;
    float ambient = 0.3f;
};

// The depth filter's reach is capped here (pixels either side): a close-up camera would
// otherwise make every pixel read a hundred neighbours twice.
constexpr int kMaxFilterRadius = 20;

// Liquid thinner than this many particle diameters along a ray is drawn as spray.
constexpr float kSprayDiameters = 1.6f;

// Occlusion samples per pixel.
constexpr int kAoSamples = 12;

PLAB_HD inline float clamp01(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); }

PLAB_HD inline sim::Vec3 normalized(sim::Vec3 v) {
    const float l2 = sim::length_squared(v);
    return l2 > 0.f ? v * (1.f / sqrtf(l2)) : sim::Vec3{0.f, 0.f, 1.f};
}

PLAB_HD inline sim::Vec3 rotate(const Mat4& m, sim::Vec3 v) {  // the 3×3 part only
    const Vec4f r = transform(m, v.x, v.y, v.z, 0.f);
    return {r.x, r.y, r.z};
}

// ---- the key's payload --------------------------------------------------------------------

PLAB_HD inline std::uint32_t quantize11(float v) {  // −1..1 → 0..2047
    return static_cast<std::uint32_t>(clamp01(0.5f * v + 0.5f) * 2047.f + 0.5f);
}

PLAB_HD inline float unquantize11(std::uint32_t q) { return float(q & 2047u) / 2047.f * 2.f - 1.f; }

PLAB_HD inline std::uint32_t material_payload(float nx, float ny, std::uint32_t tint) {
    return quantize11(nx) | (quantize11(ny) << 11) | ((tint & 255u) << 22);
}

// The view-space normal a payload holds (the hemisphere facing the eye: z ≥ 0).
PLAB_HD inline sim::Vec3 payload_normal(std::uint32_t payload) {
    const float x = unquantize11(payload), y = unquantize11(payload >> 11);
    const float z2 = 1.f - x * x - y * y;
    return normalized({x, y, z2 > 0.f ? sqrtf(z2) : 0.f});
}

PLAB_HD inline std::uint32_t payload_tint(std::uint32_t payload) { return (payload >> 22) & 255u; }

// Bit 31 of a payload: the pixel shows a body of the scene's geometry, not a particle.
constexpr std::uint32_t kBodyBit = 1u << 31;

PLAB_HD inline bool payload_is_body(std::uint32_t payload) { return (payload & kBodyBit) != 0; }

// The bodies' grey, a little cooler than the sand.
PLAB_HD inline sim::Vec3 body_albedo() { return {0.60f, 0.63f, 0.68f}; }

// A particle's tint (0..255) from its id colour's channels: a stable hash of the colour.
PLAB_HD inline std::uint32_t tint_of(float r, float g, float b) {
    std::uint32_t h = pack_rgba8(r, g, b, 1.f) * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return h & 255u;
}

// The key sphere `s` gives pixel (px, py) in the material look, and the liquid's thickness
// there (the chord through the sphere along the view, m) in `chord`; kEmptyKey off the disc.
PLAB_HD inline std::uint64_t material_fragment(const SplatView& v, const SplatSphere& s, int px,
                                               int py, std::uint32_t tint, float& chord) {
    const float inv = 2.f / s.size;
    const float nx = (static_cast<float>(px) + 0.5f - s.cx) * inv;
    const float ny = (static_cast<float>(py) + 0.5f - s.cy) * inv;
    const float r2 = nx * nx + ny * ny;
    chord = 0.f;
    if (r2 > 1.f) return kEmptyKey;
    const float nz = sqrtf(1.f - r2);
    chord = 2.f * v.radius * nz;
    const float dist = -(s.ez + v.radius * nz);  // the eye looks down −z
    return make_key(dist, material_payload(nx, ny, tint));
}

// ---- pixels and the eye ---------------------------------------------------------------------

// The eye-space point of pixel (px, py) at eye distance `dist` (m along −z), for a symmetric
// perspective projection (glm::perspective).
PLAB_HD inline sim::Vec3 eye_point(const SplatView& v, float px, float py, float dist) {
    const float ndc_x = (px + 0.5f) / static_cast<float>(v.width) * 2.f - 1.f;
    const float ndc_y = (py + 0.5f) / static_cast<float>(v.height) * 2.f - 1.f;
    return {ndc_x * dist / v.projection.m[0], ndc_y * dist / v.projection.m[5], -dist};
}

// GL window depth (0..1) of eye distance `dist`, as the composite writes it.
PLAB_HD inline float window_depth(const SplatView& v, float dist) {
    const Vec4f c = transform(v.projection, 0.f, 0.f, -dist, 1.f);
    return clamp01(0.5f * (c.z / c.w) + 0.5f);
}

// ---- the liquid ------------------------------------------------------------------------------

// The depth filter's weight of a sample `k` pixels away whose depth differs by `dz` m: a
// Gaussian in pixels (σ half the reach), 0 for a sample more than `range` off, which belongs
// to another surface (the far side of a splash, the floor).
PLAB_HD inline float filter_weight(int k, float reach, float dz, float range) {
    if (!(fabsf(dz) <= range)) return 0.f;
    const float a = float(k) / (0.5f * reach);
    return expf(-0.5f * a * a);
}

// The sky and the ground around the scene, looked up by a world direction: what water
// reflects and, absorbed, what it lets through.
PLAB_HD inline sim::Vec3 environment(sim::Vec3 dir_world) {
    const float up = dir_world.y;
    if (up >= 0.f) {
        const float t = sqrtf(clamp01(up));
        return sim::Vec3{0.86f, 0.90f, 0.95f} * (1.f - t) + sim::Vec3{0.32f, 0.52f, 0.84f} * t;
    }
    const float t = clamp01(-up * 4.f);
    return sim::Vec3{0.62f, 0.60f, 0.56f} * (1.f - t) + sim::Vec3{0.42f, 0.39f, 0.35f} * t;
}

// Water's absorption per particle diameter of depth, red to blue (Beer–Lambert), and the
// colour light scattered inside it takes.
PLAB_HD inline sim::Vec3 water_absorption() { return {0.22f, 0.06f, 0.035f}; }
PLAB_HD inline sim::Vec3 water_scatter() { return {0.05f, 0.28f, 0.42f}; }

// Schlick's Fresnel reflectance of water (F0 = 0.02) at cos θ between normal and eye.
PLAB_HD inline float fresnel(float cos_theta) {
    const float m = 1.f - clamp01(cos_theta);
    const float m2 = m * m;
    return 0.02f + 0.98f * m2 * m2 * m;
}

// The liquid's colour at an eye-space point `p` with normal `n` (view space) under
// `thickness` m of liquid: Fresnel's mix of the reflected sky and the refracted environment
// absorbed along the thickness, a highlight of the sun, and spray (white) where the liquid is
// thinner than kSprayDiameters particles.
PLAB_HD inline sim::Vec3 shade_liquid(const MaterialView& m, sim::Vec3 p, sim::Vec3 n,
                                      float thickness) {
    using sim::Vec3;
    const Vec3 to_eye = normalized(-p);
    const float cos_v = sim::dot(n, to_eye);
    const float diameter = 2.f * m.splat.radius;
    const float sun = sim::dot(n, m.sun_view);
    if (thickness < kSprayDiameters * diameter)
        return Vec3{0.86f, 0.9f, 0.93f} * (0.72f + 0.28f * (sun > 0.f ? sun : 0.f));
    const Vec3 incident = -to_eye;
    const Vec3 reflected = incident - n * (2.f * sim::dot(n, incident));
    // Refraction into water (1 / 1.33), bent towards the normal.
    const float eta = 1.f / 1.33f;
    const float ci = -sim::dot(n, incident);
    const float k = 1.f - eta * eta * (1.f - ci * ci);
    const Vec3 refracted =
        k > 0.f ? normalized(incident * eta + n * (eta * ci - sqrtf(k))) : reflected;
    const Vec3 sky = environment(rotate(m.view_to_world, reflected));
    const Vec3 behind = environment(rotate(m.view_to_world, refracted));
    const Vec3 a = water_absorption();
    const float depth = thickness / diameter;
    const Vec3 t{expf(-a.x * depth), expf(-a.y * depth), expf(-a.z * depth)};
    const Vec3 s = water_scatter();
    const Vec3 through{behind.x * t.x + s.x * (1.f - t.x), behind.y * t.y + s.y * (1.f - t.y),
                       behind.z * t.z + s.z * (1.f - t.z)};
    const float f = fresnel(cos_v);
    const Vec3 h = normalized(m.sun_view + to_eye);
    const float nh = sim::dot(n, h);
    const float spec = nh > 0.f ? 0.8f * powf(nh, 120.f) : 0.f;
    return through * (1.f - f) + sky * f + Vec3{spec, spec, spec};
}

// The normal of a depth image at (x, y) from its eye-space points: each axis takes the
// one-sided difference of smaller depth step (the other may cross an edge), skipping empty
// neighbours; `fallback` where an axis has none. `dist(x, y)` returns 0 for empty pixels.
template <class Dist>
PLAB_HD inline sim::Vec3 depth_normal(const SplatView& v, int x, int y, Dist dist,
                                      sim::Vec3 fallback) {
    using sim::Vec3;
    const float d = dist(x, y);
    const Vec3 p = eye_point(v, float(x), float(y), d);
    auto axis = [&](int dx, int dy, Vec3& out) {
        const bool has_f = x + dx < v.width && y + dy < v.height && dist(x + dx, y + dy) > 0.f;
        const bool has_b = x - dx >= 0 && y - dy >= 0 && dist(x - dx, y - dy) > 0.f;
        if (!has_f && !has_b) return false;
        const float df = has_f ? dist(x + dx, y + dy) : 0.f;
        const float db = has_b ? dist(x - dx, y - dy) : 0.f;
        if (has_f && (!has_b || fabsf(df - d) <= fabsf(d - db)))
            out = eye_point(v, float(x + dx), float(y + dy), df) - p;
        else
            out = p - eye_point(v, float(x - dx), float(y - dy), db);
        return true;
    };
    Vec3 ddx, ddy;
    if (!axis(1, 0, ddx) || !axis(0, 1, ddy)) return fallback;
    Vec3 n = normalized(sim::cross(ddx, ddy));
    if (sim::dot(n, -p) < 0.f) n = -n;  // facing the eye
    return n;
}

// ---- the grains -------------------------------------------------------------------------------

// A grain's albedo, lighter or darker by its tint: sand warm and varied, glass pale and even.
PLAB_HD inline sim::Vec3 grain_albedo(std::uint32_t tint, GrainPalette palette) {
    const float t = float(tint) / 255.f;
    if (palette == GrainPalette::Glass) return sim::Vec3{0.62f, 0.71f, 0.74f} * (0.9f + 0.2f * t);
    return sim::Vec3{0.74f, 0.62f, 0.43f} * (0.78f + 0.44f * t);
}

// The occlusion's sample k of kAoSamples: a point in the unit hemisphere about +z, spread by
// the golden angle and pulled towards the centre so near occluders count most.
PLAB_HD inline sim::Vec3 ao_sample(int k, float turn) {
    const float t = (float(k) + 0.5f) / float(kAoSamples);
    const float phi = 2.39996323f * float(k) + turn;
    const float z = 0.15f + 0.85f * sqrtf(1.f - t);  // kept off the tangent plane
    const float r = sqrtf(1.f - z * z);
    const float len = 0.3f + 0.7f * t * t;
    return sim::Vec3{r * cosf(phi), r * sinf(phi), z} * len;
}

// A per-pixel turn of the sample set (a 4 × 4 pattern), so neighbours sample differently.
PLAB_HD inline float ao_turn(int x, int y) {
    const int i = (x & 3) + 4 * (y & 3);
    return float((i * 7) & 15) * (6.2831853f / 16.f);
}

// The light map's texel and light depth (0..1) of a world point, false outside the map.
PLAB_HD inline bool light_texel(const MaterialView& m, sim::Vec3 w, int& tx, int& ty,
                                float& depth) {
    const Vec4f c = transform(m.light_clip, w.x, w.y, w.z, 1.f);
    const float u = (c.x * 0.5f + 0.5f) * float(m.shadow_size);
    const float v = (c.y * 0.5f + 0.5f) * float(m.shadow_size);
    depth = 0.5f * c.z + 0.5f;
    if (!(u >= 0.f && v >= 0.f && u < float(m.shadow_size) && v < float(m.shadow_size)))
        return false;
    tx = int(u);
    ty = int(v);
    return true;
}

// The grains' colour: albedo lit by the sun where the light map sees the point (`lit` 0..1)
// and by the sky's ambient light less what the neighbours occlude (`ao` 0..1).
PLAB_HD inline sim::Vec3 shade_grain(const MaterialView& m, sim::Vec3 n, std::uint32_t tint,
                                     float lit, float ao) {
    const float d = sim::dot(n, m.sun_view);
    const float light = m.ambient * ao + (1.f - m.ambient) * (d > 0.f ? d : 0.f) * lit;
    sim::Vec3 c = grain_albedo(tint, m.palette) * light;
    if (m.palette == GrainPalette::Glass && lit > 0.f) {
        // Glass shines: a sharp highlight of the sun, seen from straight on (the splat's
        // hemisphere faces the eye along +z).
        const sim::Vec3 h = normalized(m.sun_view + sim::Vec3{0.f, 0.f, 1.f});
        const float nh = sim::dot(n, h);
        const float s = nh > 0.f ? 0.7f * lit * powf(nh, 60.f) : 0.f;
        c = c + sim::Vec3{s, s, s};
    }
    return c;
}

}  // namespace plab::render
