#include "render/gl_handles.h"

#include "render/gl_check.h"

namespace plab::render {

void delete_buffer(GLuint id) { PLAB_GL_LOG(glDeleteBuffers(1, &id)); }
void delete_vertex_array(GLuint id) { PLAB_GL_LOG(glDeleteVertexArrays(1, &id)); }
void delete_texture(GLuint id) { PLAB_GL_LOG(glDeleteTextures(1, &id)); }
void delete_renderbuffer(GLuint id) { PLAB_GL_LOG(glDeleteRenderbuffers(1, &id)); }
void delete_framebuffer(GLuint id) { PLAB_GL_LOG(glDeleteFramebuffers(1, &id)); }
void delete_shader(GLuint id) { PLAB_GL_LOG(glDeleteShader(id)); }
void delete_program(GLuint id) { PLAB_GL_LOG(glDeleteProgram(id)); }
void delete_query(GLuint id) { PLAB_GL_LOG(glDeleteQueries(1, &id)); }

Buffer make_buffer() {
    GLuint id = 0;
    PLAB_GL_CHECK(glCreateBuffers(1, &id));
    return Buffer(id);
}

VertexArray make_vertex_array() {
    GLuint id = 0;
    PLAB_GL_CHECK(glCreateVertexArrays(1, &id));
    return VertexArray(id);
}

Texture make_texture(GLenum target) {
    GLuint id = 0;
    PLAB_GL_CHECK(glCreateTextures(target, 1, &id));
    return Texture(id);
}

Renderbuffer make_renderbuffer() {
    GLuint id = 0;
    PLAB_GL_CHECK(glCreateRenderbuffers(1, &id));
    return Renderbuffer(id);
}

Framebuffer make_framebuffer() {
    GLuint id = 0;
    PLAB_GL_CHECK(glCreateFramebuffers(1, &id));
    return Framebuffer(id);
}

Shader make_shader(GLenum stage) {
    const GLuint id = PLAB_GL_CHECK(glCreateShader(stage));
    PLAB_REQUIRE(id != 0, "glCreateShader returned 0");
    return Shader(id);
}

Program make_program() {
    const GLuint id = PLAB_GL_CHECK(glCreateProgram());
    PLAB_REQUIRE(id != 0, "glCreateProgram returned 0");
    return Program(id);
}

Query make_query(GLenum target) {
    GLuint id = 0;
    PLAB_GL_CHECK(glCreateQueries(target, 1, &id));
    return Query(id);
}

}  // namespace plab::render
