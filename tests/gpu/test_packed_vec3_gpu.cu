// The contact memory's packing (sim/core/packed_vec3.h) on the device gives the host's bits: the
// two backends then keep the same memory for the same stretches, and a state captured on one
// restores to the same bits on the other.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/core/packed_vec3.h"
#include "sim/cuda/cuda_check.h"
#include "sim/cuda/device_buffer.h"
#include "sim/engine/simulator.h"
#include "sim/run/make_simulator.h"
#include "support/cuda_skip.h"

namespace plab::sim {
namespace {

__global__ void pack_kernel(const Vec3* in, uint64_t* packed, Vec3* back, std::size_t n) {
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i >= n) return;
    packed[i] = pack_vec3(in[i]);
    back[i] = unpack_vec3(packed[i]);
}

TEST(PackedVec3OnTheDevice, PacksAndUnpacksToTheHostsBits) {
    PLAB_SKIP_WITHOUT_CUDA();

    // Magnitudes from 2^-110 to 2^60, ties (odd multiples of half a step), zero, tiny, huge,
    // non-finite.
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> unit(-1.f, 1.f);
    std::uniform_int_distribution<int> scale(-110, 60), spread(0, 24);
    std::vector<Vec3> in;
    for (int n = 0; n < 100000; ++n) {
        const float s = std::ldexp(1.f, scale(rng));
        in.push_back({unit(rng) * s, unit(rng) * s * std::ldexp(1.f, -spread(rng)),
                      unit(rng) * s * std::ldexp(1.f, -spread(rng))});
    }
    for (int k = -4096; k <= 4096; k += 7)
        in.push_back({1.f, (float(k) + 0.5f) * std::ldexp(1.f, -11), -0.5f});
    in.push_back({});
    in.push_back({1e-31f, 0.f, 0.f});
    in.push_back({3e38f, -1.f, 0.f});
    in.push_back({INFINITY, 0.f, 0.f});
    in.push_back({0.f, NAN, 0.f});

    const std::size_t n = in.size();
    cuda::DeviceBuffer<Vec3> d_in, d_back;
    cuda::DeviceBuffer<uint64_t> d_packed;
    d_in.resize(n);
    d_back.resize(n);
    d_packed.resize(n);
    d_in.upload(in, nullptr);
    pack_kernel<<<unsigned((n + 255) / 256), 256>>>(d_in.data(), d_packed.data(), d_back.data(), n);
    PLAB_CUDA_CHECK(cudaGetLastError());
    PLAB_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<uint64_t> packed(n);
    std::vector<Vec3> back(n);
    d_packed.download(packed, nullptr);
    d_back.download(back, nullptr);
    PLAB_CUDA_CHECK(cudaDeviceSynchronize());

    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(packed[i], pack_vec3(in[i])) << i;
        const Vec3 host = unpack_vec3(packed[i]);
        // NaN on both, whatever its payload (the device's arithmetic gives its own).
        auto same = [](float device, float on_host) {
            return std::isnan(on_host) ? std::isnan(device)
                                       : float_bits(device) == float_bits(on_host);
        };
        ASSERT_TRUE(same(back[i].x, host.x)) << i;
        ASSERT_TRUE(same(back[i].y, host.y)) << i;
        ASSERT_TRUE(same(back[i].z, host.z)) << i;
    }
}

}  // namespace
}  // namespace plab::sim
