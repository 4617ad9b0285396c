#include "render/embedded_shaders.h"

#include <string>

#include "sim/core/error.h"

namespace plab::render {

ShaderSource embedded_shader(std::string_view name) {
    std::string known;
    for (const ShaderSource& s : embedded_shaders()) {
        if (s.name == name) return s;
        known += (known.empty() ? "" : ", ") + std::string(s.name);
    }
    throw_error("no embedded shader named '" + std::string(name) + "' (embedded: " + known + ")",
                __FILE__, __LINE__);
}

}  // namespace plab::render
