#pragma once
// Wire geometry drawn as GL lines: the domain box (12 edges) and a wire sphere (meridians and
// parallels) for the collider. Both meshes live in one buffer made at construction; each draw
// places a unit mesh with a model matrix.
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

  private:
    void draw_range(const glm::mat4& model_view_projection, glm::vec4 color, int first,
                    int count) const;

    ShaderProgram program_;
    Buffer vertices_;
    VertexArray vertex_array_;
    int box_first_ = 0, box_count_ = 0;        // vertices of the unit cube's edges
    int sphere_first_ = 0, sphere_count_ = 0;  // vertices of the unit wire sphere
};

}  // namespace plab::render
