#include "render/particle_renderer.h"

#include <algorithm>
#include <string>

#include "render/gl_check.h"

namespace plab::render {
namespace {

constexpr GLuint kPositionAttrib = 0;  // matches layout(location) in particles.vert
constexpr GLuint kColorAttrib = 1;
constexpr GLsizei kStride = 4 * sizeof(float);  // one vec4 per particle

// A draw must not read past the end of a buffer: GL would not say so.
void require_size(GLuint buffer, int count, const char* what) {
    GLint64 size = 0;
    PLAB_GL_CHECK(glGetNamedBufferParameteri64v(buffer, GL_BUFFER_SIZE, &size));
    const GLint64 needed = static_cast<GLint64>(count) * kStride;
    PLAB_REQUIRE(size >= needed, std::string(what) + " buffer holds " + std::to_string(size) +
                                     " bytes, " + std::to_string(count) + " particles need " +
                                     std::to_string(needed));
}

}  // namespace

ParticleRenderer::ParticleRenderer()
    : program_(ShaderProgram::from_embedded("particles.vert", "particles.frag")),
      vertex_array_(make_vertex_array()) {
    const GLuint vao = vertex_array_.get();
    for (const GLuint attrib : {kPositionAttrib, kColorAttrib}) {
        PLAB_GL_CHECK(glEnableVertexArrayAttrib(vao, attrib));
        PLAB_GL_CHECK(glVertexArrayAttribFormat(vao, attrib, 4, GL_FLOAT, GL_FALSE, 0));
        // One binding point per attribute, so each can come from its own buffer.
        PLAB_GL_CHECK(glVertexArrayAttribBinding(vao, attrib, attrib));
    }
    set_lighting(Lighting{{0.35f, 0.5f, 0.8f}, 0.25f});
}

void ParticleRenderer::set_lighting(const Lighting& lighting) {
    const float length = glm::length(lighting.direction_view);
    PLAB_REQUIRE(length > 0.f, "light direction must not be zero");
    lighting_.direction_view = lighting.direction_view / length;
    lighting_.ambient = std::clamp(lighting.ambient, 0.f, 1.f);
}

void ParticleRenderer::draw(GLuint positions, GLuint colors, int count, const RenderView& view,
                            float radius) const {
    PLAB_REQUIRE(count >= 0, "particle count must not be negative");
    PLAB_REQUIRE(radius > 0.f && view.viewport_height > 0.f,
                 "particle radius and viewport height must be positive");
    if (count == 0) return;
    require_size(positions, count, "position");
    require_size(colors, count, "colour");

    const GLuint vao = vertex_array_.get();
    PLAB_GL_CHECK(glVertexArrayVertexBuffer(vao, kPositionAttrib, positions, 0, kStride));
    PLAB_GL_CHECK(glVertexArrayVertexBuffer(vao, kColorAttrib, colors, 0, kStride));

    program_.set("u_view", view.view);
    program_.set("u_projection", view.projection);
    program_.set("u_viewport_height", view.viewport_height);
    // The sprites cut their discs in window pixels, so they need where GL maps NDC to.
    GLint viewport[4] = {};
    PLAB_GL_CHECK(glGetIntegerv(GL_VIEWPORT, viewport));
    program_.set("u_viewport", glm::vec4(viewport[0], viewport[1], viewport[2], viewport[3]));
    program_.set("u_radius", radius);
    program_.set("u_light_dir", lighting_.direction_view);
    program_.set("u_ambient", lighting_.ambient);

    PLAB_GL_CHECK(glEnable(GL_DEPTH_TEST));
    PLAB_GL_CHECK(glEnable(GL_PROGRAM_POINT_SIZE));
    program_.use();
    PLAB_GL_CHECK(glBindVertexArray(vao));
    PLAB_GL_CHECK(glDrawArrays(GL_POINTS, 0, count));
}

}  // namespace plab::render
