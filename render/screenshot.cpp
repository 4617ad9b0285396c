#include "render/screenshot.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <string>

#include "render/gl_check.h"

namespace plab::render {

std::vector<std::uint8_t> read_framebuffer(GLuint framebuffer, int width, int height, bool opaque) {
    PLAB_REQUIRE(width > 0 && height > 0, "cannot read an empty framebuffer (" +
                                              std::to_string(width) + "x" + std::to_string(height) +
                                              ")");
    const std::size_t row_bytes = static_cast<std::size_t>(width) * 4;
    std::vector<std::uint8_t> pixels(row_bytes * static_cast<std::size_t>(height));

    PLAB_GL_CHECK(glBindBuffer(GL_PIXEL_PACK_BUFFER, 0));
    PLAB_GL_CHECK(glPixelStorei(GL_PACK_ALIGNMENT, 1));
    PLAB_GL_CHECK(glPixelStorei(GL_PACK_ROW_LENGTH, 0));
    PLAB_GL_CHECK(glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer));
    // The window's framebuffer is read from its back buffer, before the swap shows it.
    PLAB_GL_CHECK(glReadBuffer(framebuffer == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0));
    PLAB_GL_CHECK(glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data()));

    // GL returns the bottom row first; images are stored top row first.
    for (int top = 0, bottom = height - 1; top < bottom; ++top, --bottom) {
        std::swap_ranges(pixels.begin() + static_cast<std::ptrdiff_t>(top * row_bytes),
                         pixels.begin() + static_cast<std::ptrdiff_t>((top + 1) * row_bytes),
                         pixels.begin() + static_cast<std::ptrdiff_t>(bottom * row_bytes));
    }
    if (opaque) {
        for (std::size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;
    }
    return pixels;
}

std::string encode_png(int width, int height, std::span<const std::uint8_t> rgba) {
    PLAB_REQUIRE(
        width > 0 && height > 0 && rgba.size() == static_cast<std::size_t>(width) * height * 4,
        "PNG: " + std::to_string(rgba.size()) + " bytes do not make a " + std::to_string(width) +
            "x" + std::to_string(height) + " RGBA image");
    std::string png;
    // stb hands the encoded bytes over in pieces; 0 means it failed (out of memory).
    const auto append = [](void* out, void* bytes, int size) {
        static_cast<std::string*>(out)->append(static_cast<const char*>(bytes),
                                               static_cast<std::size_t>(size));
    };
    const int ok = stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4);
    PLAB_REQUIRE(ok != 0 && !png.empty(), "PNG: stbi_write_png_to_func failed to encode a " +
                                              std::to_string(width) + "x" + std::to_string(height) +
                                              " image");
    return png;
}

}  // namespace plab::render
