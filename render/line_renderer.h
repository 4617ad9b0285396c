#pragma once
// Wire geometry drawn as GL lines: the domain box (12 edges), a wire sphere (meridians and
// parallels) for the collider, a silo's floor plate (its outline and orifice) and the scene's
// bodies (their outline edges, sim/geometry/outline_edges.h). The unit meshes live in one
// buffer made at construction, each draw placing one with a model matrix; the bodies' lines,
// already in world space, in a second buffer made when they change.
#include <span>

#include <glm/glm.hpp>

#include "render/gl_handles.h"
#include "render/shader_program.h"

namespace plab::render {

class LineRenderer {
  public:
    LineRenderer();  // needs a current GL 4.5 context

    // `view_projection` = projection * view. Depth testing is on, so particles in front hide
    // the lines behind them.
    void draw_box(glm::vec3 min, glm::vec3 max, const glm::mat4& view_projection,
                  glm::vec4 color) const;
    void draw_sphere(glm::vec3 center, float radius, const glm::mat4& view_projection,
                     glm::vec4 color) const;
    // A horizontal plate at height y spanning [min.x, max.x] × [min.z, max.z] (its outline)
    // with a circular hole of `hole_radius` around the vertical axis through `hole_center`
    // (x, z); no hole when the radius is 0.
    void draw_plate(glm::vec3 min, glm::vec3 max, float y, glm::vec2 hole_center, float hole_radius,
                    const glm::mat4& view_projection, glm::vec4 color) const;

    // Replaces the bodies' lines: line-list end points in world space (m).
    void set_segments(std::span<const glm::vec3> ends);
    void draw_segments(const glm::mat4& view_projection, glm::vec4 color) const;

  private:
    void draw_range(const glm::mat4& model_view_projection, glm::vec4 color, int first,
                    int count) const;
    void draw_lines(const VertexArray& lines, const glm::mat4& model_view_projection,
                    glm::vec4 color, int first, int count) const;

    ShaderProgram program_;
    Buffer vertices_;
    VertexArray vertex_array_;
    int box_first_ = 0, box_count_ = 0;        // vertices of the unit cube's edges
    int sphere_first_ = 0, sphere_count_ = 0;  // vertices of the unit wire sphere
    int square_first_ = 0, square_count_ = 0;  // the unit square's edges in the x-z plane
    int circle_first_ = 0, circle_count_ = 0;  // the unit circle in the x-z plane
    Buffer segments_;                          // the bodies' lines, world space
    VertexArray segment_array_;
    int segment_count_ = 0;
};

}  // namespace plab::render
