#pragma once
// RAII owners of CUDA streams, events and executable graphs.
#include <cuda_runtime_api.h>

#include <utility>

#include "sim/cuda/cuda_check.h"

namespace plab::sim::cuda {

template <typename Handle, cudaError_t (*Destroy)(Handle)>
class UniqueHandle {
  public:
    UniqueHandle() = default;
    explicit UniqueHandle(Handle h) : h_(h) {}
    ~UniqueHandle() { reset(); }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    UniqueHandle(UniqueHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    UniqueHandle& operator=(UniqueHandle&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, nullptr);
        }
        return *this;
    }
    void reset(Handle h = nullptr) {
        if (h_) PLAB_CUDA_LOG(Destroy(h_));
        h_ = h;
    }
    Handle get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }

  private:
    Handle h_ = nullptr;
};

using Stream = UniqueHandle<cudaStream_t, cudaStreamDestroy>;
using Event = UniqueHandle<cudaEvent_t, cudaEventDestroy>;
using Graph = UniqueHandle<cudaGraph_t, cudaGraphDestroy>;
using GraphExec = UniqueHandle<cudaGraphExec_t, cudaGraphExecDestroy>;

inline Stream make_stream() {
    cudaStream_t s = nullptr;
    PLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return Stream(s);
}

inline Event make_event() {
    cudaEvent_t e = nullptr;
    PLAB_CUDA_CHECK(cudaEventCreate(&e));
    return Event(e);
}

}  // namespace plab::sim::cuda
