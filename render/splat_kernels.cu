#include "render/splat_kernels.h"

#include "sim/cuda/cuda_check.h"

namespace plab::render::cuda {
namespace {

constexpr int kSplatBlock = 256;

__global__ void splat_kernel(const sim::Float4* __restrict__ positions,
                             const sim::Float4* __restrict__ colors, int count, SplatView view,
                             unsigned long long* __restrict__ keys) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const sim::Float4 p = positions[i];
    const SplatSphere s = project_sphere(view, p.x, p.y, p.z);
    if (!s.visible) return;
    const sim::Float4 c = colors[i];
    for (int y = s.y0; y <= s.y1; ++y) {
        unsigned long long* row = keys + static_cast<long long>(y) * view.width;
        for (int x = s.x0; x <= s.x1; ++x) {
            const unsigned long long key = splat_fragment(view, s, x, y, c.x, c.y, c.z, c.w);
            // Most candidates lose to a nearer surface already there: a plain read skips
            // their atomic. A stale read only costs an atomic that then does nothing.
            if (key < row[x]) atomicMin(row + x, key);
        }
    }
}

__global__ void resolve_kernel(const std::uint64_t* __restrict__ keys, int width, int height,
                               cudaSurfaceObject_t color, cudaSurfaceObject_t depth) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const std::uint64_t key = keys[static_cast<long long>(y) * width + x];
    surf2Dwrite(resolve_color(key), color, x * 4, y);
    surf2Dwrite(resolve_depth(key), depth, x * 4, y);
}

}  // namespace

void launch_splat(const sim::Float4* positions, const sim::Float4* colors, int count,
                  const SplatView& view, std::uint64_t* keys, cudaStream_t stream) {
    if (count <= 0) return;
    static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
    const int blocks = (count + kSplatBlock - 1) / kSplatBlock;
    splat_kernel<<<blocks, kSplatBlock, 0, stream>>>(positions, colors, count, view,
                                                     reinterpret_cast<unsigned long long*>(keys));
    PLAB_CUDA_CHECK(cudaGetLastError());
}

void launch_resolve(const std::uint64_t* keys, int width, int height, cudaSurfaceObject_t color,
                    cudaSurfaceObject_t depth, cudaStream_t stream) {
    if (width <= 0 || height <= 0) return;
    const dim3 block(16, 16);
    const dim3 grid((width + 15) / 16, (height + 15) / 16);
    resolve_kernel<<<grid, block, 0, stream>>>(keys, width, height, color, depth);
    PLAB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace plab::render::cuda
