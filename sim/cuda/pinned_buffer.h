#pragma once
// Page-locked host memory, the one owner of cudaMallocHost in the project: copies between it
// and the device run at full bus speed and can be asynchronous, where pageable memory goes
// through a driver bounce buffer. Grows only; the contents are discarded when it grows.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "sim/cuda/cuda_check.h"

namespace plab::sim::cuda {

template <typename T>
class PinnedBuffer {
  public:
    PinnedBuffer() = default;
    ~PinnedBuffer() { release(); }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    void resize(std::size_t n) {
        if (n > capacity_) {
            release();
            void* p = nullptr;
            PLAB_CUDA_CHECK(cudaMallocHost(&p, n * sizeof(T)));
            ptr_ = static_cast<T*>(p);
            capacity_ = n;
        }
        size_ = n;
    }
    T* data() const { return ptr_; }
    std::size_t size() const { return size_; }

  private:
    void release() {
        if (ptr_) PLAB_CUDA_LOG(cudaFreeHost(ptr_));
        ptr_ = nullptr;
        size_ = capacity_ = 0;
    }

    T* ptr_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace plab::sim::cuda
