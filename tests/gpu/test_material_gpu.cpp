// The material look's CUDA kernels (render/material_kernels.h) against its CPU reference
// (render/material_reference.h): the same keys, thickness and light map from the splat, the
// same filtered depth from the same depth image, the same colours from the same images.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "render/material_kernels.h"
#include "render/material_reference.h"
#include "render/material_view.h"
#include "render/splat_renderer.h"
#include "sim/cuda/cuda_check.h"
#include "sim/cuda/device_buffer.h"
#include "support/cuda_skip.h"

namespace plab::render {
namespace {

using sim::Float4;
using sim::cuda::DeviceBuffer;

constexpr int kW = 320, kH = 240;

// A drop of water (shells of beads) above a floor of grains' worth of beads: both looks
// get surfaces, creases, a rim and empty pixels.
std::vector<Float4> scene(float r) {
    std::vector<Float4> p;
    for (float shell = 0.1f; shell > r; shell -= 2.f * r) {
        const int n = std::max(1, int(4.f * 3.14159f * shell * shell / (3.46f * r * r)));
        for (int i = 0; i < n; ++i) {
            const float z = 1.f - (2.f * i + 1.f) / float(n);
            const float s = std::sqrt(std::max(0.f, 1.f - z * z));
            const float phi = 2.39996323f * float(i);
            p.push_back(
                {shell * s * std::cos(phi), 0.15f + shell * s * std::sin(phi), shell * z, 0});
        }
    }
    for (int i = -40; i <= 40; ++i)
        for (int k = -40; k <= 40; ++k) p.push_back({2.f * r * i, 0.f, 2.f * r * k, 0.f});
    return p;
}

MaterialView view_of(MaterialKind kind, float r) {
    RenderView v;
    v.view = glm::lookAt(glm::vec3(0.3f, 0.5f, 0.7f), glm::vec3(0, 0.1f, 0), glm::vec3(0, 1, 0));
    v.projection = glm::perspective(glm::radians(40.f), float(kW) / float(kH), 0.05f, 20.f);
    v.viewport_height = float(kH);
    const SplatView s = make_splat_view(v, Lighting{}, r, kW, kH);
    return make_material_view(s, v, {{-0.9f, -0.05f, -0.9f}, {0.9f, 0.4f, 0.9f}}, kind);
}

struct DeviceFrame {
    DeviceBuffer<std::uint64_t> keys;
    DeviceBuffer<float> thickness, dist, scratch;
    DeviceBuffer<std::uint32_t> light;
    MaterialFrame frame() {
        return {keys.data(), thickness.data(), dist.data(), scratch.data(), light.data()};
    }
};

void run_kind(MaterialKind kind) {
    const float r = 0.004f;
    const std::vector<Float4> pos = scene(r);
    std::vector<Float4> col(pos.size());
    for (std::size_t i = 0; i < col.size(); ++i)
        col[i] = {float(i % 13) / 13.f, float(i % 17) / 17.f, float(i % 5) / 5.f, 1.f};
    const MaterialView m = view_of(kind, r);
    const MaterialImages cpu = material_reference(pos, col, m);

    const std::size_t pixels = std::size_t(kW) * kH;
    const std::size_t texels = std::size_t(m.shadow_size) * m.shadow_size;
    DeviceBuffer<Float4> dpos, dcol;
    dpos.resize(pos.size());
    dcol.resize(col.size());
    dpos.upload(pos, nullptr);
    dcol.upload(col, nullptr);
    DeviceFrame d;
    d.keys.resize(pixels);
    d.thickness.resize(pixels);
    d.dist.resize(pixels);
    d.scratch.resize(pixels);
    d.light.resize(std::max<std::size_t>(texels, 1));
    PLAB_CUDA_CHECK(cudaMemset(d.keys.data(), 0xff, pixels * 8));
    PLAB_CUDA_CHECK(cudaMemset(d.thickness.data(), 0, pixels * 4));
    PLAB_CUDA_CHECK(cudaMemset(d.light.data(), 0xff, std::max<std::size_t>(texels, 1) * 4));
    cuda::launch_material_splat(dpos.data(), dcol.data(), int(pos.size()), m, d.frame(), nullptr);
    std::vector<std::uint64_t> keys(pixels);
    std::vector<float> thickness(pixels);
    d.keys.download(keys, nullptr);
    d.thickness.download(thickness, nullptr);
    PLAB_CUDA_CHECK(cudaDeviceSynchronize());
    // The splat: the same pixels covered, the same nearest depth within float rounding. The
    // thickness sums chords of dozens of spheres in another order and with fused multiply-adds
    // (a chord near a sphere's rim takes the root of a small difference): within 1e-4 on almost
    // every pixel, and within a few micrometres on all of them.
    std::size_t differ = 0, covered = 0, thickness_off = 0;
    for (std::size_t i = 0; i < pixels; ++i) {
        covered += cpu.keys[i] != kEmptyKey;
        if ((keys[i] == kEmptyKey) != (cpu.keys[i] == kEmptyKey)) {
            ++differ;
            continue;
        }
        if (keys[i] == kEmptyKey) continue;
        EXPECT_NEAR(key_depth(keys[i]), key_depth(cpu.keys[i]),
                    1e-5f * key_depth(cpu.keys[i]) + 1e-6f);
        EXPECT_NEAR(thickness[i], cpu.thickness[i], 1e-3f * cpu.thickness[i] + 4e-6f);
        thickness_off +=
            std::fabs(thickness[i] - cpu.thickness[i]) > 1e-4f * cpu.thickness[i] + 1e-6f;
    }
    EXPECT_GT(covered, pixels / 10);
    EXPECT_LE(differ, covered / 1000) << "pixels covered on one side only";
    EXPECT_LE(thickness_off, covered / 500) << "pixels whose thickness differs by over 1e-4";
    if (texels > 0) {
        std::vector<std::uint32_t> light(texels);
        d.light.download(light, nullptr);
        PLAB_CUDA_CHECK(cudaDeviceSynchronize());
        std::size_t lit = 0, light_differ = 0;
        for (std::size_t i = 0; i < texels; ++i) {
            lit += cpu.light[i] != ~0u;
            light_differ += (light[i] == ~0u) != (cpu.light[i] == ~0u);
        }
        EXPECT_GT(lit, 1000u);
        EXPECT_LE(light_differ, lit / 1000) << "light-map texels covered on one side only";
    }

    // The depth and filter passes and the shading, from the CPU's own splat, so that only
    // the per-pixel passes are compared.
    d.keys.upload(cpu.keys, nullptr);
    d.thickness.upload(cpu.thickness, nullptr);
    if (texels > 0) d.light.upload(cpu.light, nullptr);
    cuda::launch_material_depth(m, d.frame(), nullptr);
    std::vector<float> dist(pixels);
    d.dist.download(dist, nullptr);
    DeviceBuffer<MaterialPixel> out;
    out.resize(pixels);
    cuda::launch_material_shade_to(m, d.frame(), out.data(), nullptr);
    std::vector<MaterialPixel> shaded(pixels);
    out.download(shaded, nullptr);
    PLAB_CUDA_CHECK(cudaDeviceSynchronize());
    for (std::size_t i = 0; i < pixels; ++i)
        ASSERT_NEAR(dist[i], cpu.dist[i], 2e-5f * cpu.dist[i] + 1e-7f) << "pixel " << i;
    std::size_t off = 0;
    for (std::size_t i = 0; i < pixels; ++i) {
        EXPECT_EQ(shaded[i].rgba >> 24, cpu.pixels[i].rgba >> 24);
        for (int c = 0; c < 3; ++c) {
            const int a = (shaded[i].rgba >> (8 * c)) & 255,
                      b = (cpu.pixels[i].rgba >> (8 * c)) & 255;
            if (std::abs(a - b) > 2) {
                ++off;
                break;
            }
        }
    }
    EXPECT_LE(off, covered / 500) << "pixels whose colour differs by more than 2 levels";
}

TEST(MaterialLookOnTheGpu, TheLiquidsKernelsFollowTheCpuReference) {
    PLAB_SKIP_WITHOUT_CUDA();
    run_kind(MaterialKind::Liquid);
}

TEST(MaterialLookOnTheGpu, TheGrainsKernelsFollowTheCpuReference) {
    PLAB_SKIP_WITHOUT_CUDA();
    run_kind(MaterialKind::Grains);
}

}  // namespace
}  // namespace plab::render
