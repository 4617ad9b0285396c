#include "render/line_renderer.h"

#include <cmath>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "render/gl_check.h"

namespace plab::render {
namespace {

constexpr GLuint kPositionAttrib = 0;  // matches layout(location) in lines.vert
constexpr int kSphereSegments = 48;    // per circle
constexpr int kMeridians = 6;
constexpr int kParallels = 5;  // excluding the poles

// The 12 edges of [0,1]³ as line-list vertex pairs.
void append_unit_cube(std::vector<glm::vec3>& out) {
    for (int axis = 0; axis < 3; ++axis) {
        const int u = (axis + 1) % 3;
        const int v = (axis + 2) % 3;
        for (int corner = 0; corner < 4; ++corner) {
            glm::vec3 a(0.f);
            a[u] = static_cast<float>(corner & 1);
            a[v] = static_cast<float>(corner >> 1);
            glm::vec3 b = a;
            b[axis] = 1.f;
            out.push_back(a);
            out.push_back(b);
        }
    }
}

void append_circle(std::vector<glm::vec3>& out, auto point_at) {
    for (int i = 0; i < kSphereSegments; ++i) {
        const float t0 = glm::two_pi<float>() * static_cast<float>(i) / kSphereSegments;
        const float t1 = glm::two_pi<float>() * static_cast<float>(i + 1) / kSphereSegments;
        out.push_back(point_at(t0));
        out.push_back(point_at(t1));
    }
}

// Meridians through the poles (±y) and parallels of latitude on the unit sphere.
void append_unit_sphere(std::vector<glm::vec3>& out) {
    for (int m = 0; m < kMeridians; ++m) {
        const float phi = glm::pi<float>() * static_cast<float>(m) / kMeridians;
        append_circle(out, [phi](float t) {
            return glm::vec3(std::cos(t) * std::cos(phi), std::sin(t), std::cos(t) * std::sin(phi));
        });
    }
    for (int p = 1; p <= kParallels; ++p) {
        const float lat = glm::pi<float>() * (static_cast<float>(p) / (kParallels + 1) - 0.5f);
        append_circle(out, [lat](float t) {
            return glm::vec3(std::cos(lat) * std::cos(t), std::sin(lat),
                             std::cos(lat) * std::sin(t));
        });
    }
}

// The four edges of [0,1] × {0} × [0,1] and the unit circle around the y axis, for plates.
void append_unit_square_xz(std::vector<glm::vec3>& out) {
    const glm::vec3 c[4] = {{0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {1.f, 0.f, 1.f}, {0.f, 0.f, 1.f}};
    for (int i = 0; i < 4; ++i) {
        out.push_back(c[i]);
        out.push_back(c[(i + 1) % 4]);
    }
}

void append_unit_circle_xz(std::vector<glm::vec3>& out) {
    append_circle(out, [](float t) { return glm::vec3(std::cos(t), 0.f, std::sin(t)); });
}

}  // namespace

LineRenderer::LineRenderer()
    : program_(ShaderProgram::from_embedded("lines.vert", "lines.frag")),
      vertices_(make_buffer()),
      vertex_array_(make_vertex_array()) {
    std::vector<glm::vec3> mesh;
    append_unit_cube(mesh);
    box_count_ = static_cast<int>(mesh.size());
    sphere_first_ = box_count_;
    append_unit_sphere(mesh);
    sphere_count_ = static_cast<int>(mesh.size()) - sphere_first_;
    square_first_ = static_cast<int>(mesh.size());
    append_unit_square_xz(mesh);
    square_count_ = static_cast<int>(mesh.size()) - square_first_;
    circle_first_ = static_cast<int>(mesh.size());
    append_unit_circle_xz(mesh);
    circle_count_ = static_cast<int>(mesh.size()) - circle_first_;

    PLAB_GL_CHECK(glNamedBufferStorage(
        vertices_.get(), static_cast<GLsizeiptr>(mesh.size() * sizeof(glm::vec3)), mesh.data(), 0));
    const GLuint vao = vertex_array_.get();
    PLAB_GL_CHECK(glEnableVertexArrayAttrib(vao, kPositionAttrib));
    PLAB_GL_CHECK(glVertexArrayAttribFormat(vao, kPositionAttrib, 3, GL_FLOAT, GL_FALSE, 0));
    PLAB_GL_CHECK(glVertexArrayAttribBinding(vao, kPositionAttrib, 0));
    PLAB_GL_CHECK(glVertexArrayVertexBuffer(vao, 0, vertices_.get(), 0, sizeof(glm::vec3)));
}

void LineRenderer::set_segments(std::span<const glm::vec3> ends) {
    segment_count_ = 0;
    segments_ = make_buffer();
    segment_array_ = make_vertex_array();
    if (ends.empty()) return;
    // Immutable storage of exactly these lines; a new set gets a new buffer.
    PLAB_GL_CHECK(glNamedBufferStorage(
        segments_.get(), static_cast<GLsizeiptr>(ends.size() * sizeof(glm::vec3)), ends.data(), 0));
    const GLuint vao = segment_array_.get();
    PLAB_GL_CHECK(glEnableVertexArrayAttrib(vao, kPositionAttrib));
    PLAB_GL_CHECK(glVertexArrayAttribFormat(vao, kPositionAttrib, 3, GL_FLOAT, GL_FALSE, 0));
    PLAB_GL_CHECK(glVertexArrayAttribBinding(vao, kPositionAttrib, 0));
    PLAB_GL_CHECK(glVertexArrayVertexBuffer(vao, 0, segments_.get(), 0, sizeof(glm::vec3)));
    segment_count_ = static_cast<int>(ends.size());
}

void LineRenderer::draw_segments(const glm::mat4& view_projection, glm::vec4 color) const {
    if (segment_count_ == 0) return;
    draw_lines(segment_array_, view_projection, color, 0, segment_count_);
}

void LineRenderer::draw_range(const glm::mat4& model_view_projection, glm::vec4 color, int first,
                              int count) const {
    draw_lines(vertex_array_, model_view_projection, color, first, count);
}

void LineRenderer::draw_lines(const VertexArray& lines, const glm::mat4& model_view_projection,
                              glm::vec4 color, int first, int count) const {
    program_.set("u_model_view_projection", model_view_projection);
    program_.set("u_color", color);
    PLAB_GL_CHECK(glEnable(GL_DEPTH_TEST));
    program_.use();
    PLAB_GL_CHECK(glBindVertexArray(lines.get()));
    PLAB_GL_CHECK(glDrawArrays(GL_LINES, first, count));
}

void LineRenderer::draw_box(glm::vec3 min, glm::vec3 max, const glm::mat4& view_projection,
                            glm::vec4 color) const {
    const glm::mat4 model = glm::scale(glm::translate(glm::mat4(1.f), min), max - min);
    draw_range(view_projection * model, color, box_first_, box_count_);
}

void LineRenderer::draw_sphere(glm::vec3 center, float radius, const glm::mat4& view_projection,
                               glm::vec4 color) const {
    if (!(radius > 0.f)) return;  // a collider of radius 0 is switched off
    const glm::mat4 model = glm::scale(glm::translate(glm::mat4(1.f), center), glm::vec3(radius));
    draw_range(view_projection * model, color, sphere_first_, sphere_count_);
}

void LineRenderer::draw_plate(glm::vec3 min, glm::vec3 max, float y, glm::vec2 hole_center,
                              float hole_radius, const glm::mat4& view_projection,
                              glm::vec4 color) const {
    const glm::mat4 outline = glm::scale(glm::translate(glm::mat4(1.f), {min.x, y, min.z}),
                                         {max.x - min.x, 1.f, max.z - min.z});
    draw_range(view_projection * outline, color, square_first_, square_count_);
    if (!(hole_radius > 0.f)) return;
    const glm::mat4 hole = glm::scale(
        glm::translate(glm::mat4(1.f), {hole_center.x, y, hole_center.y}), glm::vec3(hole_radius));
    draw_range(view_projection * hole, color, circle_first_, circle_count_);
}

}  // namespace plab::render
