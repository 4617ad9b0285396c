#pragma once
// Move-only owners of OpenGL object names. The destructor deletes the object in the context
// that is current at that moment, so an owner must die before its context does. Creation uses
// the 4.5 glCreate* calls, which make the object real at once (no bind needed for DSA).
#include <utility>

// Forward-declared so this header does not pull in GL (same type as glad's GLuint).
typedef unsigned int GLuint;
typedef unsigned int GLenum;

namespace plab::render {

void delete_buffer(GLuint id);
void delete_vertex_array(GLuint id);
void delete_texture(GLuint id);
void delete_renderbuffer(GLuint id);
void delete_framebuffer(GLuint id);
void delete_shader(GLuint id);
void delete_program(GLuint id);
void delete_query(GLuint id);

template <void (*Delete)(GLuint)>
class GlHandle {
  public:
    GlHandle() = default;
    explicit GlHandle(GLuint id) : id_(id) {}
    ~GlHandle() { reset(); }
    GlHandle(const GlHandle&) = delete;
    GlHandle& operator=(const GlHandle&) = delete;
    GlHandle(GlHandle&& o) noexcept : id_(std::exchange(o.id_, 0u)) {}
    GlHandle& operator=(GlHandle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, 0u);
        }
        return *this;
    }
    void reset(GLuint id = 0) {
        if (id_ != 0) Delete(id_);
        id_ = id;
    }
    GLuint get() const { return id_; }
    explicit operator bool() const { return id_ != 0; }

  private:
    GLuint id_ = 0;  // 0 is never a valid object name
};

using Buffer = GlHandle<delete_buffer>;
using VertexArray = GlHandle<delete_vertex_array>;
using Texture = GlHandle<delete_texture>;
using Renderbuffer = GlHandle<delete_renderbuffer>;
using Framebuffer = GlHandle<delete_framebuffer>;
using Shader = GlHandle<delete_shader>;
using Program = GlHandle<delete_program>;
using Query = GlHandle<delete_query>;

// Each throws plab::Error when GL refuses.
Buffer make_buffer();
VertexArray make_vertex_array();
Texture make_texture(GLenum target);
Renderbuffer make_renderbuffer();
Framebuffer make_framebuffer();
Shader make_shader(GLenum stage);
Program make_program();
Query make_query(GLenum target);  // e.g. GL_TIME_ELAPSED

}  // namespace plab::render
