#pragma once
// The GLSL files of shaders/, embedded into the binary at build time by
// cmake/embed_shaders.cmake. Each is named by its file name, so errors can say which file.
#include <span>
#include <string_view>

namespace plab::render {

struct ShaderSource {
    std::string_view name;  // file name, e.g. "particles.vert"
    std::string_view text;  // GLSL source
};

// Every embedded shader, sorted by name.
std::span<const ShaderSource> embedded_shaders();

// The embedded shader with this file name; throws plab::Error naming the ones that exist.
ShaderSource embedded_shader(std::string_view name);

}  // namespace plab::render
