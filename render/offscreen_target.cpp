#include "render/offscreen_target.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "render/gl_check.h"

namespace plab::render {

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
    GLint max_size = 0;
    PLAB_GL_CHECK(glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size));
    PLAB_REQUIRE(width > 0 && height > 0 && width <= max_size && height <= max_size,
                 "offscreen target " + std::to_string(width) + "x" + std::to_string(height) +
                     " is outside 1.." + std::to_string(max_size));

    color_ = make_texture(GL_TEXTURE_2D);
    PLAB_GL_CHECK(glTextureStorage2D(color_.get(), 1, GL_RGBA8, width, height));
    // Nearest: the texture is read back or blitted 1:1, never minified.
    PLAB_GL_CHECK(glTextureParameteri(color_.get(), GL_TEXTURE_MIN_FILTER, GL_NEAREST));
    PLAB_GL_CHECK(glTextureParameteri(color_.get(), GL_TEXTURE_MAG_FILTER, GL_NEAREST));

    depth_ = make_renderbuffer();
    PLAB_GL_CHECK(glNamedRenderbufferStorage(depth_.get(), GL_DEPTH_COMPONENT24, width, height));

    framebuffer_ = make_framebuffer();
    PLAB_GL_CHECK(
        glNamedFramebufferTexture(framebuffer_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0));
    PLAB_GL_CHECK(glNamedFramebufferRenderbuffer(framebuffer_.get(), GL_DEPTH_ATTACHMENT,
                                                 GL_RENDERBUFFER, depth_.get()));
    const GLenum status =
        PLAB_GL_CHECK(glCheckNamedFramebufferStatus(framebuffer_.get(), GL_FRAMEBUFFER));
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%04X", status);
        throw_error(std::string("offscreen framebuffer incomplete: status ") + hex, __FILE__,
                    __LINE__);
    }
}

void OffscreenTarget::bind() const {
    PLAB_GL_CHECK(glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get()));
    PLAB_GL_CHECK(glViewport(0, 0, width_, height_));
}

std::vector<std::uint8_t> OffscreenTarget::read_pixels() const {
    const std::size_t row_bytes = static_cast<std::size_t>(width_) * 4;
    std::vector<std::uint8_t> pixels(row_bytes * static_cast<std::size_t>(height_));

    // Read straight into client memory: no pack buffer, rows tightly packed.
    PLAB_GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    PLAB_GL_CHECK(glPixelStorei(GL_PACK_ALIGNMENT, 1));
    PLAB_GL_CHECK(glPixelStorei(GL_PACK_ROW_LENGTH, 0));
    PLAB_GL_CHECK(glNamedFramebufferReadBuffer(framebuffer_.get(), GL_COLOR_ATTACHMENT0));
    PLAB_GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_.get()));
    PLAB_GL_CHECK(glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data()));

    // GL returns the bottom row first; images are stored top row first.
    for (int top = 0, bottom = height_ - 1; top < bottom; ++top, --bottom) {
        std::swap_ranges(pixels.begin() + static_cast<std::ptrdiff_t>(top * row_bytes),
                         pixels.begin() + static_cast<std::ptrdiff_t>((top + 1) * row_bytes),
                         pixels.begin() + static_cast<std::ptrdiff_t>(bottom * row_bytes));
    }
    return pixels;
}

}  // namespace plab::render
