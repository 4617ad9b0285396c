#include "app/viewer/imgui_layer.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "sim/core/error.h"

namespace plab::app {
namespace {

// $XDG_CONFIG_HOME/particle-lab/imgui.ini (or ~/.config/...); "" when neither is set or the
// folder cannot be made, and then the layout is simply not kept.
std::string ini_location() {
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = std::filesystem::path(home) / ".config";
    } else {
        return {};
    }
    const std::filesystem::path dir = base / "particle-lab";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return {};
    return (dir / "imgui.ini").string();
}

}  // namespace

ImGuiLayer::ImGuiLayer(GLFWwindow* window) : ini_path_(ini_location()) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
    ImGui::StyleColorsDark();
    // HiDPI: on a screen scaled by the desktop (content scale > 1) draw the panel at that
    // scale, with the built-in font rasterised at the larger size so it stays crisp.
    float scale_x = 1.f, scale_y = 1.f;
    glfwGetWindowContentScale(window, &scale_x, &scale_y);
    const float scale = std::max(scale_x, scale_y);
    if (scale > 1.f && scale <= 4.f) {
        ImGui::GetStyle().ScaleAllSizes(scale);
        ImFontConfig font;
        font.SizePixels = 13.f * scale;
        io.Fonts->AddFontDefault(&font);
    }
    if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) {
        ImGui::DestroyContext();
        throw Error("ImGui_ImplGlfw_InitForOpenGL failed");
    }
    if (!ImGui_ImplOpenGL3_Init("#version 450 core")) {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        throw Error("ImGui_ImplOpenGL3_Init failed (could it load libGL.so.1?)");
    }
}

ImGuiLayer::~ImGuiLayer() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();  // writes the ini file
}

void ImGuiLayer::begin_frame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void ImGuiLayer::end_frame() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool ImGuiLayer::wants_mouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool ImGuiLayer::wants_keyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

}  // namespace plab::app
