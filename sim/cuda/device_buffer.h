#pragma once
// The one owner of device memory: a move-only typed buffer. Nothing else in the project calls
// cudaMalloc or cudaFree. Growing discards the contents; shrinking keeps the allocation, so a
// simulation that changes size back and forth does not allocate every time.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <string>
#include <utility>

#include "sim/cuda/cuda_check.h"

namespace plab::sim::cuda {

template <typename T>
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept { *this = std::move(o); }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = std::exchange(o.ptr_, nullptr);
            size_ = std::exchange(o.size_, 0);
            capacity_ = std::exchange(o.capacity_, 0);
        }
        return *this;
    }

    // Bytes an allocation for n elements would add to what this buffer holds now.
    std::size_t growth_bytes(std::size_t n) const { return n > capacity_ ? n * sizeof(T) : 0; }

    void resize(std::size_t n) {
        if (n > capacity_) {
            release();
            void* p = nullptr;
            PLAB_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
            ptr_ = static_cast<T*>(p);
            capacity_ = n;
        }
        size_ = n;
    }

    void upload(std::span<const T> src, cudaStream_t stream) {
        PLAB_REQUIRE(src.size() <= size_, "upload larger than the device buffer");
        if (!src.empty())
            PLAB_CUDA_CHECK(cudaMemcpyAsync(ptr_, src.data(), src.size_bytes(),
                                            cudaMemcpyHostToDevice, stream));
    }
    void download(std::span<T> dst, cudaStream_t stream) const {
        PLAB_REQUIRE(dst.size() <= size_, "download larger than the device buffer");
        if (!dst.empty())
            PLAB_CUDA_CHECK(cudaMemcpyAsync(dst.data(), ptr_, dst.size_bytes(),
                                            cudaMemcpyDeviceToHost, stream));
    }

    T* data() const { return ptr_; }
    std::size_t size() const { return size_; }
    std::size_t bytes() const { return size_ * sizeof(T); }

  private:
    void release() {
        if (ptr_) PLAB_CUDA_LOG(cudaFree(ptr_));
        ptr_ = nullptr;
        size_ = capacity_ = 0;
    }

    T* ptr_ = nullptr;
    std::size_t size_ = 0, capacity_ = 0;
};

// Throws plab::Error when `bytes` more device memory would not fit in what is free now,
// saying how much `what` needs, how much is free and, given the bytes one item takes, how
// many items would fit.
void require_free_device_memory(std::size_t bytes, const std::string& what,
                                std::size_t bytes_per_item = 0);

}  // namespace plab::sim::cuda
