#pragma once
// The one application window: GLFW 3.3 with an OpenGL 4.5 core context whose functions are
// loaded through GLAD. GLFW is initialised and terminated with it, so only one may exist.
#include <string>

struct GLFWwindow;

namespace plab::app {

struct WindowSize {
    int width = 0;
    int height = 0;
    bool empty() const { return width <= 0 || height <= 0; }
};

class GlfwWindow {
  public:
    // Throws plab::Error saying what is missing (no display, no OpenGL 4.5 core, ...).
    GlfwWindow(int width, int height, const std::string& title, bool vsync);
    ~GlfwWindow();
    GlfwWindow(const GlfwWindow&) = delete;
    GlfwWindow& operator=(const GlfwWindow&) = delete;

    GLFWwindow* handle() const { return window_; }
    bool should_close() const;
    void request_close();

    // Pixels of the framebuffer (differs from the window size on HiDPI screens); 0 × 0 while
    // minimised.
    WindowSize framebuffer_size() const;
    WindowSize window_size() const;  // screen coordinates, what cursor positions use

    void set_vsync(bool on);
    bool vsync() const { return vsync_; }
    void swap_buffers();

    const std::string& gl_renderer() const { return renderer_; }
    const std::string& gl_version() const { return version_; }

  private:
    GLFWwindow* window_ = nullptr;
    bool vsync_ = true;
    std::string renderer_;
    std::string version_;
};

}  // namespace plab::app
