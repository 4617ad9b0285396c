#include "sim/cuda/memory_rates.h"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "sim/core/format_numbers.h"
#include "sim/cuda/cuda_handles.h"
#include "sim/cuda/device_buffer.h"
#include "sim/cuda/device_memory.h"

namespace plab::sim::cuda {
namespace {

constexpr int kRuns = 5;
constexpr int kL2Passes = 64;
constexpr std::size_t kL2Bytes = std::size_t{8} << 20;

// Each thread sums float4s of `data` a grid stride apart, `passes` times over; the sum goes to
// `sink` only when it is impossible, so the loads are not optimised away.
__global__ void read_kernel(const float4* __restrict__ data, std::size_t count, int passes,
                            float* sink) {
    float sum = 0.f;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (int p = 0; p < passes; ++p)
        for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
             i += stride) {
            const float4 v = data[i];
            sum += v.x + v.y + v.z + v.w;
        }
    if (sum == -1.f) *sink = sum;
}

// The median seconds of kRuns runs of `work` on `stream`.
template <typename Work>
double median_seconds(cudaStream_t stream, Work&& work) {
    Event start = make_event(), stop = make_event();
    work();  // a warm-up
    std::vector<double> s;
    for (int r = 0; r < kRuns; ++r) {
        PLAB_CUDA_CHECK(cudaEventRecord(start.get(), stream));
        work();
        PLAB_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
        PLAB_CUDA_CHECK(cudaEventSynchronize(stop.get()));
        float ms = 0.f;
        PLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
        s.push_back(1e-3 * ms);
    }
    std::nth_element(s.begin(), s.begin() + kRuns / 2, s.end());
    return s[kRuns / 2];
}

}  // namespace

MemoryRates measure_device_rates() {
    const std::optional<DeviceMemory> memory = query_device_memory();
    // Two buffers of the copy size in at most a quarter of what is free.
    std::size_t bytes = std::size_t{512} << 20;
    if (memory) bytes = std::min(bytes, memory->free_bytes / 8);
    bytes = std::max<std::size_t>(bytes & ~std::size_t{255}, kL2Bytes);
    Stream stream = make_stream();
    DeviceBuffer<unsigned char> a, b;
    a.resize(bytes);
    b.resize(bytes);
    PLAB_CUDA_CHECK(cudaMemsetAsync(a.data(), 1, bytes, stream.get()));
    const double copy_s = median_seconds(stream.get(), [&] {
        PLAB_CUDA_CHECK(
            cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    });
    DeviceBuffer<float> sink;
    sink.resize(1);
    const auto* l2 = reinterpret_cast<const float4*>(a.data());
    const std::size_t count = kL2Bytes / sizeof(float4);
    int sms = 0, device = 0;
    PLAB_CUDA_CHECK(cudaGetDevice(&device));
    PLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const double l2_s = median_seconds(stream.get(), [&] {
        read_kernel<<<4 * std::max(sms, 1), 256, 0, stream.get()>>>(l2, count, kL2Passes,
                                                                    sink.data());
        PLAB_CUDA_CHECK(cudaGetLastError());
    });
    MemoryRates r;
    r.copy_bytes_per_s = 2.0 * double(bytes) / copy_s;  // each byte read and written
    r.l2_bytes_per_s = double(kL2Passes) * double(kL2Bytes) / l2_s;
    r.how = format_numbers("a %.0f MiB device copy, reads of an 8 MiB buffer", bytes / 1048576.0);
    return r;
}

}  // namespace plab::sim::cuda
