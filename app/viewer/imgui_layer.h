#pragma once
// Dear ImGui on the window: the context, the GLFW platform backend and the OpenGL 3 renderer
// backend, created together and shut down in reverse order. Panel layout persists in an ini
// file under the user's config folder.
#include <string>

struct GLFWwindow;

namespace plab::app {

class ImGuiLayer {
  public:
    // Install the app's own GLFW callbacks first: the backend chains to them.
    explicit ImGuiLayer(GLFWwindow* window);
    ~ImGuiLayer();
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;

    void begin_frame();
    void end_frame();  // renders the draw data into the bound framebuffer

    // Whether ImGui wants the mouse / keyboard (over a widget, typing): the scene then
    // ignores them.
    bool wants_mouse() const;
    bool wants_keyboard() const;

    const std::string& ini_path() const { return ini_path_; }  // "" when not persisted

  private:
    std::string ini_path_;  // ImGui keeps a pointer to it
};

}  // namespace plab::app
