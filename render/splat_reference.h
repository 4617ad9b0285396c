#pragma once
// The CUDA splatter's passes on the CPU, with the same math (render/splat_math.h): clear every
// key to empty, splat each particle's square keeping the smaller key per pixel, resolve keys
// to RGBA8 and depth. Slow and simple: the tests' reference for what the kernels compute.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "render/splat_math.h"
#include "sim/core/vec.h"

namespace plab::render {

// Keys of a width × height target, row 0 at the bottom (GL's window coordinates).
inline std::vector<std::uint64_t> splat_reference(std::span<const sim::Float4> positions,
                                                  std::span<const sim::Float4> colors,
                                                  const SplatView& view) {
    std::vector<std::uint64_t> keys(static_cast<std::size_t>(view.width) * view.height, kEmptyKey);
    for (std::size_t i = 0; i < positions.size() && i < colors.size(); ++i) {
        const sim::Float4 p = positions[i];
        const sim::Float4 c = colors[i];
        const SplatSphere s = project_sphere(view, p.x, p.y, p.z);
        if (!s.visible) continue;
        for (int y = s.y0; y <= s.y1; ++y)
            for (int x = s.x0; x <= s.x1; ++x) {
                const std::uint64_t key = splat_fragment(view, s, x, y, c.x, c.y, c.z, c.w);
                std::uint64_t& k = keys[static_cast<std::size_t>(y) * view.width + x];
                if (key < k) k = key;
            }
    }
    return keys;
}

}  // namespace plab::render
