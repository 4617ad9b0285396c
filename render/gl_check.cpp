#include "render/gl_check.h"

#include <cstdio>
#include <filesystem>

namespace plab::render {

std::string gl_error_name(GLenum err) {
    switch (err) {
        case GL_NO_ERROR:
            return "GL_NO_ERROR";
        case GL_INVALID_ENUM:
            return "GL_INVALID_ENUM";
        case GL_INVALID_VALUE:
            return "GL_INVALID_VALUE";
        case GL_INVALID_OPERATION:
            return "GL_INVALID_OPERATION";
        case GL_INVALID_FRAMEBUFFER_OPERATION:
            return "GL_INVALID_FRAMEBUFFER_OPERATION";
        case GL_OUT_OF_MEMORY:
            return "GL_OUT_OF_MEMORY";
        case GL_STACK_UNDERFLOW:
            return "GL_STACK_UNDERFLOW";
        case GL_STACK_OVERFLOW:
            return "GL_STACK_OVERFLOW";
        case GL_CONTEXT_LOST:
            return "GL_CONTEXT_LOST";
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04X", err);
    return std::string("GL error ") + hex;
}

GLenum take_gl_error() {
    const GLenum first = glGetError();
    // A lost context keeps returning GL_CONTEXT_LOST; bound the drain so it cannot spin.
    if (first != GL_NO_ERROR) {
        for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
        }
    }
    return first;
}

void throw_gl_error(GLenum err, const char* call, const char* file, int line) {
    throw_error(std::string(call) + " failed: " + gl_error_name(err), file, line);
}

void log_gl_error(GLenum err, const char* call, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: %s failed: %s\n",
                 std::filesystem::path(file).filename().string().c_str(), line, call,
                 gl_error_name(err).c_str());
}

}  // namespace plab::render
