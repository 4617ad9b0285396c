// Keyboard and mouse for App: shortcuts, orbit / pan / zoom, double-click framing and
// shift+drag of the collider. Everything is ignored while ImGui wants the input (typing in a
// field, dragging a slider, the cursor over the panel).
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/viewer/app.h"
#include "app/viewer/body_pick.h"
#include "app/viewer/geometry_panel.h"

namespace plab::app {
namespace {

constexpr double kDoubleClickSeconds = 0.35;
constexpr double kDoubleClickPixels = 5.0;

App& app_of(GLFWwindow* window) { return *static_cast<App*>(glfwGetWindowUserPointer(window)); }

// GLFW callbacks return into C code: nothing may escape them.
template <typename Body>
void guarded(Body&& body) {
    try {
        body();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "particle-lab: input handling failed: %s\n", e.what());
    }
}

}  // namespace

void App::install_callbacks() {
    GLFWwindow* w = window_.handle();
    glfwSetWindowUserPointer(w, this);
    glfwSetKeyCallback(w, [](GLFWwindow* win, int key, int, int action, int mods) {
        guarded([&] { app_of(win).on_key(key, action, mods); });
    });
    glfwSetMouseButtonCallback(w, [](GLFWwindow* win, int button, int action, int mods) {
        guarded([&] { app_of(win).on_mouse_button(button, action, mods); });
    });
    glfwSetCursorPosCallback(w, [](GLFWwindow* win, double x, double y) {
        guarded([&] { app_of(win).on_cursor(x, y); });
    });
    glfwSetScrollCallback(
        w, [](GLFWwindow* win, double, double dy) { guarded([&] { app_of(win).on_scroll(dy); }); });
}

void App::on_key(int key, int action, int mods) {
    const bool press = action == GLFW_PRESS;
    // Holding '.' keeps stepping.
    if (!press && !(action == GLFW_REPEAT && key == GLFW_KEY_PERIOD)) return;
    if (imgui_ && imgui_->wants_keyboard()) return;
    // Ctrl+Z undoes a parameter edit; Ctrl+Y or Ctrl+Shift+Z redoes it; Ctrl+S saves the scene.
    if ((mods & GLFW_MOD_CONTROL) != 0) {
        if (key == GLFW_KEY_Z || key == GLFW_KEY_Y) {
            const bool redo = key == GLFW_KEY_Y || (mods & GLFW_MOD_SHIFT) != 0;
            (redo ? ui_.requests.redo : ui_.requests.undo) = true;
        } else if (key == GLFW_KEY_S) {
            ui_.requests.save_scene = true;
        }
        return;
    }
    switch (key) {
        case GLFW_KEY_SPACE:
            ui_.paused = !ui_.paused;
            break;
        case GLFW_KEY_PERIOD:
            ui_.paused = true;
            ui_.requests.step_once = true;
            break;
        case GLFW_KEY_R:
            ui_.requests.reset = true;
            break;
        case GLFW_KEY_F1:
            ui_.view.show_panel = !ui_.view.show_panel;
            break;
        case GLFW_KEY_F12:
            ui_.requests.screenshot = true;
            break;
        case GLFW_KEY_F5:
            ui_.requests.save_checkpoint = true;
            break;
        case GLFW_KEY_F9:
            ui_.requests.load_checkpoint = true;
            break;
        case GLFW_KEY_B:  // the brush: off, spray, erase, grab, off ...
            ui_.brush = ui_.brush == BrushMode::Off     ? BrushMode::Spray
                        : ui_.brush == BrushMode::Spray ? BrushMode::Erase
                        : ui_.brush == BrushMode::Erase ? BrushMode::Grab
                                                        : BrushMode::Off;
            break;
        case GLFW_KEY_V:
            ui_.vsync = !ui_.vsync;
            break;
        case GLFW_KEY_LEFT_BRACKET:
        case GLFW_KEY_RIGHT_BRACKET:
            if (!ui_.scenes.empty()) {
                const int n = static_cast<int>(ui_.scenes.size());
                const int step = key == GLFW_KEY_RIGHT_BRACKET ? 1 : -1;
                const int from = ui_.scene_index < 0 ? (step > 0 ? -1 : 0) : ui_.scene_index;
                ui_.scene_index = ((from + step) % n + n) % n;
                ui_.requests.scene = ui_.scenes[static_cast<std::size_t>(ui_.scene_index)];
            }
            break;
        case GLFW_KEY_ESCAPE:
            window_.request_close();
            break;
        default:
            break;
    }
}

void App::on_mouse_button(int button, int action, int mods) {
    double x = 0, y = 0;
    glfwGetCursorPos(window_.handle(), &x, &y);
    if (action == GLFW_RELEASE) {
        if (button == drag_.button) {
            // A click (no drag) with nothing else to do picks the body under the cursor.
            const bool click = std::hypot(x - drag_.press_x, y - drag_.press_y) < 4.0;
            if (button == GLFW_MOUSE_BUTTON_LEFT && click && !drag_.collider && !drag_.body &&
                !drag_.brush && !drag_.grab)
                ui_.requests.pick_at = std::pair{x, y};
            drag_.button = -1;
            if (drag_.grab) grab_.reset();  // the particles go on with their own momentum
            drag_.grab = false;
        }
        return;
    }
    if (action != GLFW_PRESS || (imgui_ && imgui_->wants_mouse())) return;
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        const double now = glfwGetTime();
        const bool double_click =
            last_click_time_ >= 0 && now - last_click_time_ < kDoubleClickSeconds &&
            std::hypot(x - last_click_x_, y - last_click_y_) < kDoubleClickPixels;
        last_click_time_ = double_click ? -1.0 : now;  // a third click starts a new pair
        last_click_x_ = x;
        last_click_y_ = y;
        if (double_click) ui_.requests.frame_scene = true;
    }
    if (button == GLFW_MOUSE_BUTTON_LEFT || button == GLFW_MOUSE_BUTTON_RIGHT) {
        drag_.button = button;
        drag_.collider = button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_SHIFT) != 0;
        drag_.body = button == GLFW_MOUSE_BUTTON_LEFT && (mods & GLFW_MOD_ALT) != 0 &&
                     ui_.selected_body >= 0;
        const bool tool = button == GLFW_MOUSE_BUTTON_LEFT && mods == 0;
        drag_.grab = tool && ui_.brush == BrushMode::Grab;
        drag_.brush = tool && ui_.brush != BrushMode::Off && !drag_.grab;
        if (drag_.brush) ui_.requests.brush_at = std::pair{x, y};
        if (drag_.grab) {
            grab_.reset();  // a press picks afresh
            ui_.requests.grab_at = std::pair{x, y};
        }
        drag_.turn = button == GLFW_MOUSE_BUTTON_RIGHT && (mods & GLFW_MOD_ALT) != 0 &&
                     ui_.selected_body >= 0;
        drag_.x = drag_.press_x = x;
        drag_.y = drag_.press_y = y;
    }
}

void App::on_cursor(double x, double y) {
    if (drag_.button < 0) return;
    const auto dx = static_cast<float>(x - drag_.x);
    const auto dy = static_cast<float>(y - drag_.y);
    drag_.x = x;
    drag_.y = y;
    // Cursor positions are in screen coordinates, so scale by the window's height, not the
    // framebuffer's (they differ on HiDPI screens).
    const auto height = static_cast<float>(std::max(window_.window_size().height, 1));
    if (drag_.button == GLFW_MOUSE_BUTTON_LEFT && drag_.collider) {
        // Into the host copy: applied with the other edits at the next sync.
        sim::Params& p = ui_.params;
        const glm::vec3 moved = frame_.camera().drag_in_view_plane(
            {p.collider_x, p.collider_y, p.collider_z}, dx, dy, height);
        const sim::Domain& d = session_.domain();
        p.collider_x = std::clamp(moved.x, d.min.x, d.max.x);
        p.collider_y = std::clamp(moved.y, d.min.y, d.max.y);
        p.collider_z = std::clamp(moved.z, d.min.z, d.max.z);
    } else if (drag_.button == GLFW_MOUSE_BUTTON_LEFT && drag_.brush) {
        ui_.requests.brush_at = std::pair{x, y};
    } else if (drag_.button == GLFW_MOUSE_BUTTON_LEFT && drag_.grab) {
        ui_.requests.grab_at = std::pair{x, y};
    } else if (drag_.button == GLFW_MOUSE_BUTTON_LEFT && drag_.body) {
        drag_body(dx, dy, height);
    } else if (drag_.button == GLFW_MOUSE_BUTTON_LEFT) {
        frame_.camera().orbit(dx, dy);
    } else if (drag_.button == GLFW_MOUSE_BUTTON_RIGHT && drag_.turn) {
        edit_selected_body([&](const sim::Body& b) {
            return turned_body(b, held_axis(1), 0.5f * dx);  // half a degree a pixel
        });
    } else if (drag_.button == GLFW_MOUSE_BUTTON_RIGHT) {
        frame_.camera().pan(dx, dy, height);
    }
}

void App::drag_body(float dx, float dy, float height) {
    edit_selected_body([&](const sim::Body& body) {
        sim::Body b = body;
        // The drag moves the body's placed middle in the view plane, so it follows the cursor.
        const sim::Vec3 middle = sim::place_point(b, sim::body_middle(b));
        const glm::vec3 p{middle.x, middle.y, middle.z};
        glm::vec3 delta = frame_.camera().drag_in_view_plane(p, dx, dy, height) - p;
        // X, Y or Z held: along that axis only.
        if (const int axis = held_axis(-1); axis >= 0) {
            const float kept = delta[axis];
            delta = glm::vec3(0.f);
            delta[axis] = kept;
        }
        b.translate = b.translate + sim::Vec3{delta.x, delta.y, delta.z};
        return b;
    });
}

int App::held_axis(int otherwise) const {
    GLFWwindow* w = window_.handle();
    if (glfwGetKey(w, GLFW_KEY_X) == GLFW_PRESS) return 0;
    if (glfwGetKey(w, GLFW_KEY_Y) == GLFW_PRESS) return 1;
    if (glfwGetKey(w, GLFW_KEY_Z) == GLFW_PRESS) return 2;
    return otherwise;
}

void App::edit_selected_body(const std::function<sim::Body(const sim::Body&)>& change) {
    std::vector<sim::Body> bodies = bodies_to_edit(ui_, session_);
    const auto i = static_cast<std::size_t>(ui_.selected_body);
    if (ui_.selected_body < 0 || i >= bodies.size()) return;
    bodies[i] = change(bodies[i]);
    ui_.requests.bodies = std::move(bodies);
}

void App::on_scroll(double dy) {
    if (imgui_ && imgui_->wants_mouse()) return;
    GLFWwindow* w = window_.handle();
    const bool alt = glfwGetKey(w, GLFW_KEY_LEFT_ALT) == GLFW_PRESS ||
                     glfwGetKey(w, GLFW_KEY_RIGHT_ALT) == GLFW_PRESS;
    if (alt && ui_.selected_body >= 0) {  // Alt+wheel scales the selected body
        const auto factor = static_cast<float>(std::pow(1.05, dy));
        edit_selected_body([&](const sim::Body& b) { return scaled_body(b, factor); });
        return;
    }
    frame_.camera().zoom(static_cast<float>(dy));
}

}  // namespace plab::app
