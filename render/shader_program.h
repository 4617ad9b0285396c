#pragma once
// A linked GLSL program built from source strings. A compile or link failure throws
// plab::Error with the shader's name and the driver's info log (which carries line numbers).
#include <glm/fwd.hpp>

#include <string>

#include "render/embedded_shaders.h"
#include "render/gl_handles.h"

namespace plab::render {

class ShaderProgram {
  public:
    ShaderProgram(const ShaderSource& vertex, const ShaderSource& fragment);
    // The embedded shaders with these file names.
    static ShaderProgram from_embedded(std::string_view vertex, std::string_view fragment);

    GLuint id() const { return program_.get(); }
    const std::string& name() const { return name_; }  // "a.vert + b.frag"
    void use() const;

    // -1 when the uniform does not exist or was optimised away; setting -1 is a no-op in GL.
    int uniform_location(const char* uniform) const;
    // Direct-state setters: the program need not be in use.
    void set(const char* uniform, float value) const;
    void set(const char* uniform, const glm::vec3& value) const;
    void set(const char* uniform, const glm::vec4& value) const;
    void set(const char* uniform, const glm::mat4& value) const;

  private:
    Program program_;
    std::string name_;
};

}  // namespace plab::render
