#pragma once
// A headless OpenGL 4.5 core context through EGL: no window, no display server. The device is
// picked in this order: an NVIDIA GPU (EGL_NV_device_cuda, so CUDA-GL interop shares the GPU),
// Mesa's software device (llvmpipe), then Mesa's surfaceless platform. The context is current
// on the constructing thread from construction to destruction, with no default framebuffer:
// draw into an OffscreenTarget.
#include <string>

#include "sim/core/error.h"

namespace plab::render {

// No EGL display could be created or initialised at all (no libEGL, no usable device): the
// caller may treat this as "no GL here" (tests skip). Every other failure is a plain Error.
class EglUnavailable : public Error {
  public:
    using Error::Error;
};

class EglContext {
  public:
    EglContext();  // throws EglUnavailable or Error, naming the step that failed
    ~EglContext();
    // Pinned: the context is current on this thread and GL calls anywhere rely on it.
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

    const std::string& renderer() const { return renderer_; }  // GL_RENDERER
    const std::string& version() const { return version_; }    // GL_VERSION
    const std::string& source() const { return source_; }      // which EGL path was taken

    void make_current() const;

  private:
    void* display_ = nullptr;  // EGLDisplay
    void* context_ = nullptr;  // EGLContext
    std::string renderer_;
    std::string version_;
    std::string source_;
};

}  // namespace plab::render
