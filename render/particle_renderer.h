#pragma once
// Draws particles as sphere impostors: one point sprite per particle, shaded as a lit sphere
// in the fragment shader (shaders/particles.vert, shaders/particles.frag). Positions and
// colours come from GL buffers of vec4 each, filled by the caller (host upload or CUDA
// interop).
#include <glm/glm.hpp>

#include "render/gl_handles.h"
#include "render/shader_program.h"

namespace plab::render {

// What the camera contributes to a draw.
struct RenderView {
    glm::mat4 view{1.f};
    glm::mat4 projection{1.f};    // perspective (sprite size assumes it)
    float viewport_height = 1.f;  // pixels
};

// Directional light fixed to the camera.
struct Lighting {
    glm::vec3 direction_view{0.f, 0.f, 1.f};  // towards the light, view space, unit length
    float ambient = 0.25f;                    // 0..1
};

class ParticleRenderer {
  public:
    ParticleRenderer();  // compiles the embedded shaders; needs a current GL 4.5 context

    // Draws `count` particles into the bound framebuffer. `positions` and `colors` are buffers
    // of at least `count` vec4 (xyz position in m / RGBA in 0..1). Leaves depth testing and
    // program point size enabled, and this renderer's program and vertex array bound.
    void draw(GLuint positions, GLuint colors, int count, const RenderView& view,
              float radius) const;

    // direction_view is normalised here; ambient is clamped to 0..1.
    void set_lighting(const Lighting& lighting);
    const Lighting& lighting() const { return lighting_; }

  private:
    ShaderProgram program_;
    VertexArray vertex_array_;
    Lighting lighting_;
};

}  // namespace plab::render
