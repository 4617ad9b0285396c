#pragma once
// The material look's passes on the CPU (render/material_passes.h, in its order): the tests'
// reference for the CUDA kernels, and what they measure the look's promises with (normals of
// a liquid ball, occlusion in a crease, a shadow where the light map says).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "render/material_passes.h"
#include "sim/core/vec.h"

namespace plab::render {

struct CpuAtomics {
    static void min64(std::uint64_t* p, std::uint64_t v) { *p = v < *p ? v : *p; }
    static void min32(std::uint32_t* p, std::uint32_t v) { *p = v < *p ? v : *p; }
    static void add(float* p, float v) { *p += v; }
};

// Every image of a frame, kept for the tests to look into.
struct MaterialImages {
    std::vector<std::uint64_t> keys;
    std::vector<float> thickness, raw_dist, dist, scratch;
    std::vector<std::uint32_t> light;
    std::vector<MaterialPixel> pixels;
    MaterialFrame frame() {
        return {keys.data(), thickness.data(), dist.data(), scratch.data(), light.data()};
    }
};

// The whole frame of `positions` with their id `colors` (RGBA 0..1) and the scene's body
// `triangles` as `m` draws it.
inline MaterialImages material_reference(std::span<const sim::Float4> positions,
                                         std::span<const sim::Float4> colors, const MaterialView& m,
                                         std::span<const sim::GeoTriangle> triangles = {}) {
    const std::size_t w = static_cast<std::size_t>(m.splat.width), h = m.splat.height;
    MaterialImages im;
    im.keys.assign(w * h, kEmptyKey);
    im.thickness.assign(w * h, 0.f);
    im.dist.assign(w * h, 0.f);
    im.scratch.assign(w * h, 0.f);
    im.light.assign(static_cast<std::size_t>(m.shadow_size) * m.shadow_size, ~0u);
    const MaterialFrame f = im.frame();
    for (std::size_t i = 0; i < positions.size() && i < colors.size(); ++i) {
        const sim::Float4 p = positions[i], c = colors[i];
        material_splat<CpuAtomics>(m, f, p.x, p.y, p.z, c.x, c.y, c.z);
        if (m.shadow_size > 0) light_splat<CpuAtomics>(m, f, p.x, p.y, p.z);
    }
    for (const sim::GeoTriangle& t : triangles) body_splat<CpuAtomics>(m, f, t, 0, 1);
    for (std::size_t i = 0; i < w * h; ++i) material_depth(m, f, static_cast<long long>(i));
    im.raw_dist = im.dist;
    if (m.kind == MaterialKind::Liquid) {
        for (int y = 0; y < int(h); ++y)
            for (int x = 0; x < int(w); ++x) material_filter(m, f.dist, f.scratch, x, y, true);
        for (int y = 0; y < int(h); ++y)
            for (int x = 0; x < int(w); ++x) material_filter(m, f.scratch, f.dist, x, y, false);
    }
    im.pixels.resize(w * h);
    for (int y = 0; y < int(h); ++y)
        for (int x = 0; x < int(w); ++x)
            im.pixels[std::size_t(y) * w + x] = material_shade(m, f, x, y);
    return im;
}

}  // namespace plab::render
