#include "sim/run/make_simulator.h"

#include <mutex>
#include <string>

#include "sim/core/error.h"
#include "sim/cpu/cpu_simulator.h"
#include "sim/cpu/memory_rate.h"
#if PLAB_HAS_CUDA
#include "sim/cuda/cuda_simulator.h"
#include "sim/cuda/device_memory.h"
#include "sim/cuda/memory_rates.h"
#endif

namespace plab::sim {

std::string cuda_unavailable_reason() {
#if PLAB_HAS_CUDA
    return cuda::device_unusable_reason();
#else
    return "this build has no CUDA backend (no CUDA compiler was found when it was configured)";
#endif
}

std::unique_ptr<Simulator> make_simulator(Backend wanted, std::string* fallback_reason,
                                          const SimulatorOptions& options) {
    if (fallback_reason) fallback_reason->clear();
    auto cpu = [&] {
        auto s = std::make_unique<CpuSimulator>();
        s->set_options(options);
        return s;
    };
    if (wanted == Backend::Cpu) return cpu();
    const std::string why = cuda_unavailable_reason();
    if (!why.empty()) {
        if (wanted == Backend::Cuda) throw Error("CUDA backend unavailable: " + why);
        if (fallback_reason) *fallback_reason = why;
        return cpu();
    }
#if PLAB_HAS_CUDA
    return std::make_unique<cuda::CudaSimulator>(options);
#else
    return cpu();
#endif
}

std::size_t cuda_bytes_needed(std::size_t particles, std::size_t cells) {
#if PLAB_HAS_CUDA
    return cuda::device_bytes_needed(particles, cells);
#else
    (void)particles;
    (void)cells;
    return 0;
#endif
}

MemoryRates measure_memory_rates(Backend backend) {
    static std::mutex mutex;
    static std::optional<MemoryRates> host, device;
    const std::lock_guard<std::mutex> lock(mutex);
#if PLAB_HAS_CUDA
    if (backend == Backend::Cuda) {
        if (!device) device = cuda::measure_device_rates();
        return *device;
    }
#else
    PLAB_REQUIRE(backend != Backend::Cuda, "this build has no CUDA backend to measure");
#endif
    if (!host) host = measure_host_rates();
    return *host;
}

std::optional<DeviceMemory> device_memory() {
#if PLAB_HAS_CUDA
    return cuda::query_device_memory();
#else
    return std::nullopt;
#endif
}

}  // namespace plab::sim
