#pragma once
// CUDA-GL interop for vertex buffers (CUDA builds only): a GL buffer registered with CUDA once
// per buffer and size (write-discard: CUDA overwrites it whole every frame), and a scoped
// mapping that maps several such buffers in one call, hands out their device pointers, and
// unmaps them in one call. Registration is released when the owner dies; the GL buffer must
// outlive it, and so must the GL context.
#include <cstddef>
#include <span>
#include <string>

typedef unsigned int GLuint;

#if PLAB_HAS_CUDA
struct cudaGraphicsResource;
#endif

namespace plab::render {

// Empty when CUDA-GL interop can work with the GL context current on this thread, otherwise
// why not: a build without CUDA, no CUDA device, or a GL context that is not on a CUDA device
// (Mesa, a remote desktop, GL on another GPU).
std::string interop_unavailable_reason();

#if PLAB_HAS_CUDA

class InteropBuffer {
  public:
    InteropBuffer() = default;
    ~InteropBuffer();
    InteropBuffer(const InteropBuffer&) = delete;
    InteropBuffer& operator=(const InteropBuffer&) = delete;

    // Registers `buffer` of `bytes` bytes, unless that exact buffer and size already are.
    // Throws plab::Error (from the CUDA call) when CUDA refuses; the old registration is gone
    // then.
    void attach(GLuint buffer, std::size_t bytes);
    void release();  // unregisters (logs failures)

    bool attached() const { return resource_ != nullptr; }
    GLuint buffer() const { return buffer_; }
    std::size_t bytes() const { return bytes_; }
    // For a reader that maps it together with other resources (render/splat_renderer.cpp).
    cudaGraphicsResource* resource() const { return resource_; }

  private:
    friend class InteropMapping;
    cudaGraphicsResource* resource_ = nullptr;
    GLuint buffer_ = 0;
    std::size_t bytes_ = 0;
    void* device_ = nullptr;  // valid while mapped
};

// Maps every buffer in one cudaGraphicsMapResources call on the default stream, and unmaps
// them in one call. Between the two, GL must not touch the buffers.
class InteropMapping {
  public:
    explicit InteropMapping(std::span<InteropBuffer* const> buffers);
    ~InteropMapping();  // unmaps if unmap() was not called (logs failures)
    InteropMapping(const InteropMapping&) = delete;
    InteropMapping& operator=(const InteropMapping&) = delete;

    // Device pointer of the i-th buffer (as passed in).
    void* device_pointer(std::size_t i) const;
    // Unmaps; CUDA work that writes the buffers must be complete (or ordered on the default
    // stream) before this call. Throws plab::Error on failure.
    void unmap();

  private:
    std::span<InteropBuffer* const> buffers_;
    bool mapped_ = false;
};

#endif  // PLAB_HAS_CUDA

}  // namespace plab::render
