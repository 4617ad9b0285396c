#include "render/material_kernels.h"

#include "sim/cuda/cuda_check.h"

namespace plab::render::cuda {
namespace {

constexpr int kParticleBlock = 256;

struct DeviceAtomics {
    __device__ static void min64(std::uint64_t* p, std::uint64_t v) {
        // Most candidates lose to a nearer surface already there: a plain read skips them.
        if (v < *p) atomicMin(reinterpret_cast<unsigned long long*>(p), v);
    }
    __device__ static void min32(std::uint32_t* p, std::uint32_t v) {
        if (v < *p) atomicMin(p, v);
    }
    __device__ static void add(float* p, float v) { atomicAdd(p, v); }
};

__global__ void splat_kernel(const sim::Float4* __restrict__ positions,
                             const sim::Float4* __restrict__ colors, int count, MaterialView view,
                             MaterialFrame frame) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const sim::Float4 p = positions[i];
    const sim::Float4 c = colors[i];
    material_splat<DeviceAtomics>(view, frame, p.x, p.y, p.z, c.x, c.y, c.z);
    if (view.shadow_size > 0) light_splat<DeviceAtomics>(view, frame, p.x, p.y, p.z);
}

// One block per triangle: a wall can cover most of the picture.
__global__ void body_kernel(const sim::GeoTriangle* __restrict__ triangles, MaterialView view,
                            MaterialFrame frame) {
    body_splat<DeviceAtomics>(view, frame, triangles[blockIdx.x], threadIdx.x, blockDim.x);
}

__global__ void depth_kernel(MaterialView view, MaterialFrame frame, long long pixels) {
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < pixels) material_depth(view, frame, i);
}

__global__ void filter_kernel(MaterialView view, const float* __restrict__ src,
                              float* __restrict__ dst, bool along_x) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < view.splat.width && y < view.splat.height)
        material_filter(view, src, dst, x, y, along_x);
}

__global__ void shade_kernel(MaterialView view, MaterialFrame frame, cudaSurfaceObject_t color,
                             cudaSurfaceObject_t depth) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= view.splat.width || y >= view.splat.height) return;
    const MaterialPixel p = material_shade(view, frame, x, y);
    surf2Dwrite(p.rgba, color, x * 4, y);
    surf2Dwrite(p.depth, depth, x * 4, y);
}

__global__ void shade_to_kernel(MaterialView view, MaterialFrame frame, MaterialPixel* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= view.splat.width || y >= view.splat.height) return;
    out[static_cast<long long>(y) * view.splat.width + x] = material_shade(view, frame, x, y);
}

dim3 pixel_grid(const MaterialView& v) {
    return {static_cast<unsigned>((v.splat.width + 15) / 16),
            static_cast<unsigned>((v.splat.height + 15) / 16)};
}

}  // namespace

void launch_material_splat(const sim::Float4* positions, const sim::Float4* colors, int count,
                           const MaterialView& view, const MaterialFrame& frame,
                           cudaStream_t stream) {
    if (count <= 0) return;
    const int blocks = (count + kParticleBlock - 1) / kParticleBlock;
    splat_kernel<<<blocks, kParticleBlock, 0, stream>>>(positions, colors, count, view, frame);
    PLAB_CUDA_CHECK(cudaGetLastError());
}

void launch_material_bodies(const sim::GeoTriangle* triangles, int count, const MaterialView& view,
                            const MaterialFrame& frame, cudaStream_t stream) {
    if (count <= 0) return;
    body_kernel<<<static_cast<unsigned>(count), 128, 0, stream>>>(triangles, view, frame);
    PLAB_CUDA_CHECK(cudaGetLastError());
}

void launch_material_depth(const MaterialView& view, const MaterialFrame& frame,
                           cudaStream_t stream) {
    const long long pixels = static_cast<long long>(view.splat.width) * view.splat.height;
    if (pixels <= 0) return;
    depth_kernel<<<static_cast<unsigned>((pixels + 255) / 256), 256, 0, stream>>>(view, frame,
                                                                                  pixels);
    PLAB_CUDA_CHECK(cudaGetLastError());
    if (view.kind != MaterialKind::Liquid) return;
    const dim3 block(16, 16);
    filter_kernel<<<pixel_grid(view), block, 0, stream>>>(view, frame.dist, frame.scratch, true);
    PLAB_CUDA_CHECK(cudaGetLastError());
    filter_kernel<<<pixel_grid(view), block, 0, stream>>>(view, frame.scratch, frame.dist, false);
    PLAB_CUDA_CHECK(cudaGetLastError());
}

void launch_material_shade(const MaterialView& view, const MaterialFrame& frame,
                           cudaSurfaceObject_t color, cudaSurfaceObject_t depth,
                           cudaStream_t stream) {
    if (view.splat.width <= 0 || view.splat.height <= 0) return;
    shade_kernel<<<pixel_grid(view), dim3(16, 16), 0, stream>>>(view, frame, color, depth);
    PLAB_CUDA_CHECK(cudaGetLastError());
}

void launch_material_shade_to(const MaterialView& view, const MaterialFrame& frame,
                              MaterialPixel* out, cudaStream_t stream) {
    if (view.splat.width <= 0 || view.splat.height <= 0) return;
    shade_to_kernel<<<pixel_grid(view), dim3(16, 16), 0, stream>>>(view, frame, out);
    PLAB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace plab::render::cuda
