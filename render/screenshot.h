#pragma once
// Screenshots: read a framebuffer's colour back as RGBA bytes and write PNG files
// (stb_image_write).
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

typedef unsigned int GLuint;

namespace plab::render {

// The colour of `framebuffer` (0 = the window's back buffer) over width × height pixels from
// the bottom-left corner, as tightly packed RGBA bytes with row 0 the top of the image.
// With `opaque` alpha is set to 255 (a window's alpha channel is not what the user saw).
// Finishes pending drawing first.
std::vector<std::uint8_t> read_framebuffer(GLuint framebuffer, int width, int height,
                                           bool opaque = true);

// Writes top-row-first RGBA bytes as a PNG. Throws plab::Error naming the path when the
// size does not match or the file cannot be written.
void write_png(const std::filesystem::path& path, int width, int height,
               std::span<const std::uint8_t> rgba);

}  // namespace plab::render
