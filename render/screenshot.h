#pragma once
// Screenshots: read a framebuffer's colour back as RGBA bytes and encode them as PNG
// (stb_image_write) in memory; the app writes the bytes through its one file writer
// (app/lab/output_file.h), so a screenshot is never half-written under its name.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

typedef unsigned int GLuint;

namespace plab::render {

// The colour of `framebuffer` (0 = the window's back buffer) over width × height pixels from
// the bottom-left corner, as tightly packed RGBA bytes with row 0 the top of the image.
// With `opaque` alpha is set to 255 (a window's alpha channel is not what the user saw).
// Finishes pending drawing first.
std::vector<std::uint8_t> read_framebuffer(GLuint framebuffer, int width, int height,
                                           bool opaque = true);

// The PNG file of top-row-first RGBA bytes. Throws plab::Error when the size does not match
// or the encoder fails.
std::string encode_png(int width, int height, std::span<const std::uint8_t> rgba);

}  // namespace plab::render
