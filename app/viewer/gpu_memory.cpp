#include "app/viewer/gpu_memory.h"

#if PLAB_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace plab::app {

std::optional<GpuMemory> query_gpu_memory() {
#if PLAB_HAS_CUDA
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
        cudaGetLastError();  // a failed query is shown as "unknown", not as an error
        return std::nullopt;
    }
    return GpuMemory{free_bytes, total_bytes};
#else
    return std::nullopt;
#endif
}

}  // namespace plab::app
