#pragma once
// The CUDA splatter's kernels (CUDA builds only): splat every particle into a 64-bit key target
// with atomicMin, then resolve each key into the colour and depth surfaces that GL composites.
// The math is render/splat_math.h's; render/splat_renderer.cpp owns the memory and interop.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "render/splat_math.h"
#include "sim/core/vec.h"

namespace plab::render::cuda {

// One thread per particle: `count` positions (xyz in m) and colours (RGBA 0..1) from the
// feed's buffers, into view.width × view.height keys (row 0 at the bottom), which must hold
// kEmptyKey where nothing was drawn yet.
void launch_splat(const sim::Float4* positions, const sim::Float4* colors, int count,
                  const SplatView& view, std::uint64_t* keys, cudaStream_t stream);

// One thread per pixel: RGBA8 into `color` and depth into `depth` (R32F), both surfaces of
// width × height.
void launch_resolve(const std::uint64_t* keys, int width, int height, cudaSurfaceObject_t color,
                    cudaSurfaceObject_t depth, cudaStream_t stream);

}  // namespace plab::render::cuda
