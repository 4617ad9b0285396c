#pragma once
// Checks for OpenGL calls: PLAB_GL_CHECK(call) runs the call, then asks glGetError and throws
// plab::Error with the call text, the GL error name, file and line. It is an expression, so
// calls that return a value can be checked too: `GLuint s = PLAB_GL_CHECK(glCreateShader(t));`.
// PLAB_GL_LOG only prints (for destructors, which must not throw).
#include <glad/gl.h>

#include <string>
#include <type_traits>

#include "sim/core/error.h"

namespace plab::render {

// "GL_INVALID_ENUM" etc., or the number in hex for codes this build does not know.
std::string gl_error_name(GLenum err);

// Drains every pending error flag (GL may hold several) and returns the first, or GL_NO_ERROR.
GLenum take_gl_error();

[[noreturn]] void throw_gl_error(GLenum err, const char* call, const char* file, int line);
void log_gl_error(GLenum err, const char* call, const char* file, int line);

namespace detail {

template <typename Call>
decltype(auto) gl_checked(Call&& call, const char* text, const char* file, int line,
                          bool throw_on_error) {
    auto report = [&] {
        if (const GLenum err = take_gl_error(); err != GL_NO_ERROR) {
            if (throw_on_error) throw_gl_error(err, text, file, line);
            log_gl_error(err, text, file, line);
        }
    };
    if constexpr (std::is_void_v<decltype(call())>) {
        call();
        report();
    } else {
        auto result = call();
        report();
        return result;
    }
}

}  // namespace detail
}  // namespace plab::render

#define PLAB_GL_CHECK(call) \
    ::plab::render::detail::gl_checked([&] { return call; }, #call, __FILE__, __LINE__, true)

#define PLAB_GL_LOG(call) \
    ::plab::render::detail::gl_checked([&] { return call; }, #call, __FILE__, __LINE__, false)
