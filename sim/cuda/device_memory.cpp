#include "sim/cuda/device_memory.h"

#include <cuda_runtime_api.h>

namespace plab::sim::cuda {

std::optional<DeviceMemory> query_device_memory() {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
        cudaGetLastError();  // a failed query reads "unknown" in the panel, not an error
        return std::nullopt;
    }
    return DeviceMemory{free_bytes, total_bytes};
}

}  // namespace plab::sim::cuda
