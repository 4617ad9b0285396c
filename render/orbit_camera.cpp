#include "render/orbit_camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace plab::render {
namespace {

constexpr float kOrbitRadiansPerPixel = 0.005f;
constexpr float kMaxPitch = 1.55f;     // radians, just short of 90°
constexpr float kZoomPerStep = 0.9f;   // distance factor per wheel step
constexpr float kMinDistance = 1e-4f;  // m

}  // namespace

glm::vec3 OrbitCamera::forward() const {
    // From the eye towards the target.
    return glm::vec3(-std::cos(pitch_) * std::sin(yaw_), -std::sin(pitch_),
                     -std::cos(pitch_) * std::cos(yaw_));
}

glm::vec3 OrbitCamera::right() const {
    return glm::normalize(glm::cross(forward(), glm::vec3(0.f, 1.f, 0.f)));
}

glm::vec3 OrbitCamera::up() const { return glm::cross(right(), forward()); }

glm::vec3 OrbitCamera::eye() const { return target_ - distance_ * forward(); }

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target_, up()); }

glm::mat4 OrbitCamera::projection(float aspect) const {
    // Near and far follow the distance so depth precision is spent on the scene.
    const float near_plane = std::max(kMinDistance, 0.01f * distance_);
    const float far_plane = distance_ + 4.f * scene_radius_ + 100.f * near_plane;
    return glm::perspective(fov_y_, aspect > 0.f ? aspect : 1.f, near_plane, far_plane);
}

void OrbitCamera::set_orbit(glm::vec3 target, float distance, float yaw, float pitch) {
    target_ = target;
    distance_ = std::max(distance, kMinDistance);
    yaw_ = yaw;
    pitch_ = std::clamp(pitch, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::orbit(float dx_px, float dy_px) {
    yaw_ -= dx_px * kOrbitRadiansPerPixel;
    yaw_ = std::remainder(yaw_, 2.f * glm::pi<float>());
    pitch_ = std::clamp(pitch_ + dy_px * kOrbitRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

float OrbitCamera::units_per_pixel(float depth, float viewport_height_px) const {
    return 2.f * depth * std::tan(0.5f * fov_y_) / std::max(viewport_height_px, 1.f);
}

void OrbitCamera::pan(float dx_px, float dy_px, float viewport_height_px) {
    const float s = units_per_pixel(distance_, viewport_height_px);
    // Screen y grows downwards; the scene follows the cursor, so the target moves against it.
    target_ += (-dx_px * right() + dy_px * up()) * s;
}

void OrbitCamera::zoom(float steps) {
    distance_ = std::max(distance_ * std::pow(kZoomPerStep, steps), kMinDistance);
}

void OrbitCamera::frame_box(glm::vec3 min, glm::vec3 max, float aspect) {
    target_ = 0.5f * (min + max);
    scene_radius_ = std::max(0.5f * glm::length(max - min), kMinDistance);
    const float half_y = 0.5f * fov_y_;
    const float half_x = std::atan(std::tan(half_y) * (aspect > 0.f ? aspect : 1.f));
    // The bounding sphere touches the narrower side of the frustum, with a small margin.
    distance_ = 1.05f * scene_radius_ / std::sin(std::min(half_x, half_y));
}

void OrbitCamera::fit_box(glm::vec3 min, glm::vec3 max, float aspect) {
    scene_radius_ = std::max(scene_radius_, 0.5f * glm::length(max - min));
    // A corner at offset o from the target lies at depth distance + o·forward; it is in view
    // while |o·right| <= depth tan(half_x) and |o·up| <= depth tan(half_y).
    const float tan_y = 0.95f * std::tan(0.5f * fov_y_);
    const float tan_x = tan_y * (aspect > 0.f ? aspect : 1.f);
    const glm::vec3 f = forward(), r = right(), u = up();
    float needed = distance_;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y,
                               (i & 4) ? max.z : min.z);
        const glm::vec3 o = corner - target_;
        const float along = glm::dot(o, f);
        needed = std::max({needed, std::abs(glm::dot(o, r)) / tan_x - along,
                           std::abs(glm::dot(o, u)) / tan_y - along});
    }
    distance_ = needed;
}

glm::vec3 OrbitCamera::drag_in_view_plane(glm::vec3 point, float dx_px, float dy_px,
                                          float viewport_height_px) const {
    const float depth = std::max(glm::dot(point - eye(), forward()), kMinDistance);
    const float s = units_per_pixel(depth, viewport_height_px);
    return point + (dx_px * right() - dy_px * up()) * s;
}

}  // namespace plab::render
