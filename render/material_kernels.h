#pragma once
// The material look's CUDA kernels (CUDA builds only): render/material_passes.h's passes, one
// thread per particle or per pixel. render/splat_renderer.cpp owns the images and runs them
// between its clear and its composite.
#include <cuda_runtime_api.h>

#include "render/material_passes.h"
#include "sim/core/vec.h"

namespace plab::render::cuda {

// Step 1: the material keys, the liquid's thickness and (shadow_size > 0) the light map, from
// `count` positions and id colours. The images must hold kEmptyKey, 0 and all bits set.
void launch_material_splat(const sim::Float4* positions, const sim::Float4* colors, int count,
                           const MaterialView& view, const MaterialFrame& frame,
                           cudaStream_t stream);

// Step 1 for the scene's bodies: `count` triangles (world coordinates), one block each.
void launch_material_bodies(const sim::GeoTriangle* triangles, int count, const MaterialView& view,
                            const MaterialFrame& frame, cudaStream_t stream);

// Steps 2 and 3: the eye distance of every pixel, then (liquid) filtered along x and y.
void launch_material_depth(const MaterialView& view, const MaterialFrame& frame,
                           cudaStream_t stream);

// Step 4 into the RGBA8 `color` and R32F `depth` surfaces.
void launch_material_shade(const MaterialView& view, const MaterialFrame& frame,
                           cudaSurfaceObject_t color, cudaSurfaceObject_t depth,
                           cudaStream_t stream);

// Step 4 into device arrays instead of surfaces (the tests' comparison with the CPU).
void launch_material_shade_to(const MaterialView& view, const MaterialFrame& frame,
                              MaterialPixel* out, cudaStream_t stream);

}  // namespace plab::render::cuda
