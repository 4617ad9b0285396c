#include "render/shader_program.h"

#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.h"

namespace plab::render {
namespace {

const char* stage_name(GLenum stage) {
    switch (stage) {
        case GL_VERTEX_SHADER:
            return "vertex";
        case GL_FRAGMENT_SHADER:
            return "fragment";
        case GL_GEOMETRY_SHADER:
            return "geometry";
        case GL_COMPUTE_SHADER:
            return "compute";
    }
    return "unknown-stage";
}

// Shader and program logs are read the same way through different entry points.
template <typename GetIv, typename GetLog>
std::string info_log(GLuint id, GetIv get_iv, GetLog get_log) {
    GLint length = 0;
    PLAB_GL_CHECK(get_iv(id, GL_INFO_LOG_LENGTH, &length));
    std::string log(static_cast<std::size_t>(length > 0 ? length : 0), '\0');
    if (length > 0) PLAB_GL_CHECK(get_log(id, length, nullptr, log.data()));
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log.empty() ? "(the driver gave no log)" : log;
}

Shader compile(GLenum stage, const ShaderSource& source) {
    Shader shader = make_shader(stage);
    const char* text = source.text.data();
    const auto length = static_cast<GLint>(source.text.size());
    PLAB_GL_CHECK(glShaderSource(shader.get(), 1, &text, &length));
    PLAB_GL_CHECK(glCompileShader(shader.get()));
    GLint ok = GL_FALSE;
    PLAB_GL_CHECK(glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok));
    if (ok != GL_TRUE) {
        throw_error("shader '" + std::string(source.name) + "' (" + stage_name(stage) +
                        ") failed to compile:\n" +
                        info_log(shader.get(), glGetShaderiv, glGetShaderInfoLog),
                    __FILE__, __LINE__);
    }
    return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(const ShaderSource& vertex, const ShaderSource& fragment)
    : name_(std::string(vertex.name) + " + " + std::string(fragment.name)) {
    const Shader vs = compile(GL_VERTEX_SHADER, vertex);
    const Shader fs = compile(GL_FRAGMENT_SHADER, fragment);
    program_ = make_program();
    PLAB_GL_CHECK(glAttachShader(program_.get(), vs.get()));
    PLAB_GL_CHECK(glAttachShader(program_.get(), fs.get()));
    PLAB_GL_CHECK(glLinkProgram(program_.get()));
    GLint ok = GL_FALSE;
    PLAB_GL_CHECK(glGetProgramiv(program_.get(), GL_LINK_STATUS, &ok));
    if (ok != GL_TRUE) {
        throw_error("program '" + name_ + "' failed to link:\n" +
                        info_log(program_.get(), glGetProgramiv, glGetProgramInfoLog),
                    __FILE__, __LINE__);
    }
    // The linked program keeps the code; the shader objects can go.
    PLAB_GL_CHECK(glDetachShader(program_.get(), vs.get()));
    PLAB_GL_CHECK(glDetachShader(program_.get(), fs.get()));
}

ShaderProgram ShaderProgram::from_embedded(std::string_view vertex, std::string_view fragment) {
    return ShaderProgram(embedded_shader(vertex), embedded_shader(fragment));
}

void ShaderProgram::use() const { PLAB_GL_CHECK(glUseProgram(program_.get())); }

int ShaderProgram::uniform_location(const char* uniform) const {
    return PLAB_GL_CHECK(glGetUniformLocation(program_.get(), uniform));
}

void ShaderProgram::set(const char* uniform, float value) const {
    PLAB_GL_CHECK(glProgramUniform1f(program_.get(), uniform_location(uniform), value));
}

void ShaderProgram::set(const char* uniform, const glm::vec3& value) const {
    PLAB_GL_CHECK(
        glProgramUniform3fv(program_.get(), uniform_location(uniform), 1, glm::value_ptr(value)));
}

void ShaderProgram::set(const char* uniform, const glm::vec4& value) const {
    PLAB_GL_CHECK(
        glProgramUniform4fv(program_.get(), uniform_location(uniform), 1, glm::value_ptr(value)));
}

void ShaderProgram::set(const char* uniform, const glm::mat4& value) const {
    PLAB_GL_CHECK(glProgramUniformMatrix4fv(program_.get(), uniform_location(uniform), 1, GL_FALSE,
                                            glm::value_ptr(value)));
}

}  // namespace plab::render
