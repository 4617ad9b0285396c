#include "render/interop_buffer.h"

#include <string>

#include "render/gl_check.h"  // glad first: cuda_gl_interop.h includes <GL/gl.h>

#if PLAB_HAS_CUDA
#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

#include <vector>

#include "sim/cuda/cuda_check.h"
#endif

namespace plab::render {

#if PLAB_HAS_CUDA

std::string interop_unavailable_reason() {
    int runtime_devices = 0;
    if (const cudaError_t err = cudaGetDeviceCount(&runtime_devices); err != cudaSuccess) {
        cudaGetLastError();  // not sticky: clear it so later calls start clean
        return std::string("no usable CUDA device (") + cudaGetErrorName(err) + ")";
    }
    if (runtime_devices == 0) return "no CUDA device";

    // Which CUDA devices drive the current GL context; none when GL runs elsewhere.
    unsigned int gl_devices = 0;
    int device = -1;
    const cudaError_t err = cudaGLGetDevices(&gl_devices, &device, 1, cudaGLDeviceListAll);
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string gl_name = renderer ? renderer : "unknown renderer";
    if (err != cudaSuccess) {
        cudaGetLastError();
        return "the GL context (" + gl_name +
               ") is not on a CUDA device (cudaGLGetDevices: " + cudaGetErrorName(err) + ")";
    }
    if (gl_devices == 0) return "the GL context (" + gl_name + ") is not on a CUDA device";
    int current = 0;
    PLAB_CUDA_CHECK(cudaGetDevice(&current));
    if (device != current) {
        return "GL runs on CUDA device " + std::to_string(device) +
               " but the simulation uses device " + std::to_string(current);
    }
    return {};
}

InteropBuffer::~InteropBuffer() { release(); }

void InteropBuffer::release() {
    if (resource_ != nullptr) PLAB_CUDA_LOG(cudaGraphicsUnregisterResource(resource_));
    resource_ = nullptr;
    buffer_ = 0;
    bytes_ = 0;
    device_ = nullptr;
}

void InteropBuffer::attach(GLuint buffer, std::size_t bytes) {
    if (resource_ != nullptr && buffer == buffer_ && bytes == bytes_) return;
    release();
    cudaGraphicsResource* resource = nullptr;
    PLAB_CUDA_CHECK(
        cudaGraphicsGLRegisterBuffer(&resource, buffer, cudaGraphicsRegisterFlagsWriteDiscard));
    resource_ = resource;
    buffer_ = buffer;
    bytes_ = bytes;
}

InteropMapping::InteropMapping(std::span<InteropBuffer* const> buffers) : buffers_(buffers) {
    std::vector<cudaGraphicsResource*> resources;
    for (const InteropBuffer* b : buffers_) {
        PLAB_REQUIRE(b != nullptr && b->resource_ != nullptr,
                     "InteropMapping: a buffer is not registered with CUDA");
        resources.push_back(b->resource_);
    }
    // One map call for all buffers: each call costs CPU time in the driver.
    PLAB_CUDA_CHECK(
        cudaGraphicsMapResources(static_cast<int>(resources.size()), resources.data(), nullptr));
    mapped_ = true;
    try {
        // The map orders GL's last use of the buffers only before later work on the default
        // stream; the simulator writes from a stream of its own, so wait for that order here.
        PLAB_CUDA_CHECK(cudaStreamSynchronize(nullptr));
        for (InteropBuffer* b : buffers_) {
            void* pointer = nullptr;
            std::size_t size = 0;
            PLAB_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&pointer, &size, b->resource_));
            PLAB_REQUIRE(size >= b->bytes_, "mapped GL buffer holds " + std::to_string(size) +
                                                " bytes, " + std::to_string(b->bytes_) +
                                                " registered");
            b->device_ = pointer;
        }
    } catch (...) {
        PLAB_CUDA_LOG(cudaGraphicsUnmapResources(static_cast<int>(resources.size()),
                                                 resources.data(), nullptr));
        mapped_ = false;
        throw;
    }
}

void* InteropMapping::device_pointer(std::size_t i) const {
    PLAB_REQUIRE(mapped_ && i < buffers_.size(),
                 "InteropMapping: no mapped buffer " + std::to_string(i));
    return buffers_[i]->device_;
}

void InteropMapping::unmap() {
    if (!mapped_) return;
    std::vector<cudaGraphicsResource*> resources;
    for (InteropBuffer* b : buffers_) {
        resources.push_back(b->resource_);
        b->device_ = nullptr;
    }
    mapped_ = false;
    PLAB_CUDA_CHECK(
        cudaGraphicsUnmapResources(static_cast<int>(resources.size()), resources.data(), nullptr));
}

InteropMapping::~InteropMapping() {
    if (!mapped_) return;
    std::vector<cudaGraphicsResource*> resources;
    for (InteropBuffer* b : buffers_) {
        resources.push_back(b->resource_);
        b->device_ = nullptr;
    }
    PLAB_CUDA_LOG(
        cudaGraphicsUnmapResources(static_cast<int>(resources.size()), resources.data(), nullptr));
}

#else  // no CUDA in this build

std::string interop_unavailable_reason() {
    return "this build has no CUDA backend, so there is no CUDA-GL interop";
}

#endif  // PLAB_HAS_CUDA

}  // namespace plab::render
