#pragma once
// A framebuffer object to draw into without a window: an RGBA8 colour texture and a 24-bit
// depth renderbuffer of a fixed size. Serves screenshots, headless benchmarks and tests.
#include <cstdint>
#include <vector>

#include "render/gl_handles.h"

namespace plab::render {

class OffscreenTarget {
  public:
    OffscreenTarget(int width, int height);  // pixels; throws if GL cannot make it complete

    // Binds the framebuffer for drawing and sets the viewport to cover it.
    void bind() const;

    // The colour attachment as tightly packed RGBA bytes, width * height * 4, with row 0 the
    // top of the image (GL's row 0 is the bottom). Finishes pending drawing first.
    std::vector<std::uint8_t> read_pixels() const;

    int width() const { return width_; }
    int height() const { return height_; }
    GLuint framebuffer() const { return framebuffer_.get(); }
    GLuint color_texture() const { return color_.get(); }

  private:
    int width_;
    int height_;
    Texture color_;
    Renderbuffer depth_;
    Framebuffer framebuffer_;
};

}  // namespace plab::render
