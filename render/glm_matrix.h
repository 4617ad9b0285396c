#pragma once
// A glm matrix as the CUDA renderer's math takes it (render/splat_math.h's Mat4: the same
// column-major layout).
#include <cstring>

#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/splat_math.h"

namespace plab::render {

inline Mat4 to_mat4(const glm::mat4& m) {
    Mat4 out;
    std::memcpy(out.m, glm::value_ptr(m), sizeof out.m);
    return out;
}

}  // namespace plab::render
