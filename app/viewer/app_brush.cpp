// The window's brush strokes and grab: the cursor's ray through the scene's part of the
// window, the first particle on it, and the stroke (app/viewer/brush.h) or the grab's spring
// (app/viewer/grab.h) applied between steps.
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "app/viewer/app.h"
#include "app/viewer/body_pick.h"
#include "sim/model/derived.h"

namespace plab::app {

std::optional<std::pair<glm::vec3, glm::vec3>> App::cursor_ray(double x, double y) const {
    const WindowSize fb = window_.framebuffer_size();
    const WindowSize win = window_.window_size();
    if (fb.empty() || win.width <= 0 || win.height <= 0) return std::nullopt;
    const render::Viewport vp = scene_viewport(fb);
    // Cursor positions are in screen coordinates, y down; the viewport is in pixels, y up.
    const float px = static_cast<float>(x) * float(fb.width) / float(win.width);
    const float py =
        float(fb.height) - static_cast<float>(y) * float(fb.height) / float(win.height);
    const render::OrbitCamera& cam = frame_.camera();
    const glm::mat4 proj = cam.projection(vp.aspect());
    const glm::vec4 port(vp.x, vp.y, vp.width, vp.height);
    const glm::vec3 near_point = glm::unProject(glm::vec3(px, py, 0.f), cam.view(), proj, port);
    const glm::vec3 far_point = glm::unProject(glm::vec3(px, py, 1.f), cam.view(), proj, port);
    return std::pair{near_point, glm::normalize(far_point - near_point)};
}

void App::brush_stroke_at(double x, double y) {
    const auto ray = cursor_ray(x, y);
    if (!ray) return;
    const auto [near_point, dir] = *ray;
    const sim::Params& p = session_.params();
    const float radius = ui_.brush_radii * p.radius;
    // Sprayed particles start at the speed of a fall through ten radii.
    const float speed =
        std::sqrt(2.f * std::max(sim::gravity_magnitude(p), 1e-6f) * 10.f * p.radius);
    const sim::Domain& d = session_.domain();
    session_.apply_brush([&](const sim::InitialState& state) {
        const glm::vec3 at =
            stroke_point(first_on_ray(state.pos, near_point, dir, radius), near_point, dir, d);
        return brush_stroke(ui_.brush, at, dir, radius, speed, p, d, state.pos.size(),
                            session_.time());
    });
}

void App::grab_at(double x, double y) {
    const auto ray = cursor_ray(x, y);
    if (!ray) return;
    const auto [near_point, dir] = *ray;
    if (grab_) {  // the drag moves the anchor
        const glm::vec3 to = grab_point(*grab_, near_point, dir);
        grab_->pull.target = {to.x, to.y, to.z};
        return;
    }
    const float radius = ui_.brush_radii * session_.params().radius;
    grab_ = grab_particles(session_.simulator().capture_state(), near_point, dir,
                           frame_.camera().forward(), radius);
    if (!grab_) {
        ui_.say("Grab: no particle under the cursor.");
        drag_.grab = false;  // nothing to drag until the next press
    }
}

void App::pick_at(double x, double y) {
    const auto& geometry = session_.geometry();
    if (!geometry || geometry->empty()) return;  // a click with no bodies only orbits
    const auto ray = cursor_ray(x, y);
    if (!ray) return;
    const auto hit = body_under_ray(*geometry, ray->first, ray->second);
    const int was = ui_.selected_body;
    ui_.selected_body = hit ? static_cast<int>(*hit) : -1;
    if (ui_.selected_body == was) return;
    ui_.say(hit ? "Selected " + geometry->body_names.at(*hit) +
                      " (Alt+left-drag moves it, Alt+right-drag turns it, Alt+wheel scales it)."
                : std::string("No body selected."));
}

}  // namespace plab::app
