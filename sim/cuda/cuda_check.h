#pragma once
// Checks for CUDA runtime calls: PLAB_CUDA_CHECK throws plab::Error with the call, the error
// and the location; PLAB_CUDA_LOG only prints (for destructors, which must not throw).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "sim/core/error.h"

namespace plab::sim::cuda {

inline std::string describe(cudaError_t err, const char* call) {
    return std::string(call) + " failed: " + cudaGetErrorName(err) + " (" +
           cudaGetErrorString(err) + ")";
}

}  // namespace plab::sim::cuda

#define PLAB_CUDA_CHECK(call)                                                            \
    do {                                                                                 \
        const cudaError_t plab_err_ = (call);                                            \
        if (plab_err_ != cudaSuccess)                                                    \
            ::plab::throw_error(::plab::sim::cuda::describe(plab_err_, #call), __FILE__, \
                                __LINE__);                                               \
    } while (0)

#define PLAB_CUDA_LOG(call)                                                      \
    do {                                                                         \
        const cudaError_t plab_err_ = (call);                                    \
        if (plab_err_ != cudaSuccess)                                            \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,              \
                         ::plab::sim::cuda::describe(plab_err_, #call).c_str()); \
    } while (0)
