#include "render/scene_camera.h"

#include <glm/glm.hpp>

namespace plab::render {

OrbitCamera opening_camera(const sim::Domain& d, const std::optional<sim::SceneCamera>& file,
                           float aspect) {
    const glm::vec3 lo{d.min.x, d.min.y, d.min.z}, hi{d.max.x, d.max.y, d.max.z};
    OrbitCamera camera;
    camera.frame_box(lo, hi, aspect);  // also sets the near and far planes' scale
    if (file) {
        camera.set_orbit({file->target.x, file->target.y, file->target.z}, file->distance,
                         glm::radians(file->yaw_deg), glm::radians(file->pitch_deg));
        camera.fit_box(lo, hi, aspect);
    }
    return camera;
}

}  // namespace plab::render
