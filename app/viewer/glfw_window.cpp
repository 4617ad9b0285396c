#include "app/viewer/glfw_window.h"

// GLAD before GLFW, and GLFW told not to include a GL header of its own.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>

#include "render/gl_check.h"
#include "sim/core/error.h"

namespace plab::app {
namespace {

// GLFW's last error as text ("" when none), taken so it is not reported twice.
std::string take_glfw_error() {
    const char* description = nullptr;
    const int code = glfwGetError(&description);
    if (code == GLFW_NO_ERROR) return {};
    return description ? description : "GLFW error " + std::to_string(code);
}

}  // namespace

GlfwWindow::GlfwWindow(int width, int height, const std::string& title, bool vsync) {
    PLAB_REQUIRE(width > 0 && height > 0, "window size must be positive, got " +
                                              std::to_string(width) + "x" + std::to_string(height));
    if (!glfwInit()) {
        const char* display = std::getenv("DISPLAY");
        const char* wayland = std::getenv("WAYLAND_DISPLAY");
        std::string hint = (display == nullptr && wayland == nullptr)
                               ? " (DISPLAY is not set: run it on a desktop, or under xvfb-run; "
                                 "`particle-lab bench` needs no display)"
                               : "";
        throw Error("cannot open a window: " + take_glfw_error() + hint);
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);  // HiDPI: size in logical units
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (window_ == nullptr) {
        const std::string why = take_glfw_error();
        glfwTerminate();
        throw Error("cannot create an OpenGL 4.5 core window: " + why +
                    " (Particle Lab needs OpenGL 4.5; check the driver with glxinfo)");
    }
    glfwMakeContextCurrent(window_);
    try {
        const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress));
        PLAB_REQUIRE(version != 0, "gladLoadGL(glfwGetProcAddress) failed");
        PLAB_REQUIRE(GLAD_VERSION_MAJOR(version) > 4 ||
                         (GLAD_VERSION_MAJOR(version) == 4 && GLAD_VERSION_MINOR(version) >= 5),
                     "OpenGL 4.5 needed, the window's context gives " +
                         std::to_string(GLAD_VERSION_MAJOR(version)) + "." +
                         std::to_string(GLAD_VERSION_MINOR(version)));
        const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
        const auto* gl_version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        PLAB_REQUIRE(renderer && gl_version, "glGetString(GL_RENDERER / GL_VERSION) is null");
        renderer_ = renderer;
        version_ = gl_version;
        render::take_gl_error();  // a fresh context has none; start clean regardless
        set_vsync(vsync);
    } catch (...) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        throw;
    }
}

GlfwWindow::~GlfwWindow() {
    glfwDestroyWindow(window_);
    glfwTerminate();
    if (const std::string err = take_glfw_error(); !err.empty()) {
        std::fprintf(stderr, "~GlfwWindow: %s\n", err.c_str());
    }
}

bool GlfwWindow::should_close() const { return glfwWindowShouldClose(window_) != 0; }

void GlfwWindow::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

WindowSize GlfwWindow::framebuffer_size() const {
    WindowSize s;
    glfwGetFramebufferSize(window_, &s.width, &s.height);
    return s;
}

WindowSize GlfwWindow::window_size() const {
    WindowSize s;
    glfwGetWindowSize(window_, &s.width, &s.height);
    return s;
}

void GlfwWindow::set_vsync(bool on) {
    glfwSwapInterval(on ? 1 : 0);
    vsync_ = on;
}

void GlfwWindow::swap_buffers() { glfwSwapBuffers(window_); }

}  // namespace plab::app
