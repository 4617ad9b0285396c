#pragma once
// An orbit camera: the eye circles a target point at some distance, with yaw about +y and
// pitch above the horizon. Mouse gestures map to orbit (rotate), pan (move the target in the
// view plane) and zoom (change the distance); frame_box fits a box in view.
#include <glm/glm.hpp>

namespace plab::render {

class OrbitCamera {
  public:
    glm::mat4 view() const;
    // Perspective with this camera's vertical field of view; aspect = width / height.
    glm::mat4 projection(float aspect) const;

    glm::vec3 eye() const;
    glm::vec3 target() const { return target_; }
    float distance() const { return distance_; }
    float yaw() const { return yaw_; }      // radians, 0 looks along −z
    float pitch() const { return pitch_; }  // radians, positive looks down on the target
    float fov_y() const { return fov_y_; }  // radians

    // Unit vectors of the view, in world space.
    glm::vec3 forward() const;
    glm::vec3 right() const;
    glm::vec3 up() const;

    void set_orbit(glm::vec3 target, float distance, float yaw, float pitch);

    // Rotates by a mouse drag of (dx, dy) pixels: right drags turn the scene right, down drags
    // tilt it towards the viewer. Pitch stays short of the poles so `up` never flips.
    void orbit(float dx_px, float dy_px);
    // Moves the target so the point under the cursor at the target's depth follows the drag.
    void pan(float dx_px, float dy_px, float viewport_height_px);
    // Positive steps move closer (each step 10 % of the distance).
    void zoom(float steps);
    // Points at the box's centre from the current direction, close enough that the whole
    // box (its bounding sphere) is in view at this aspect.
    void frame_box(glm::vec3 min, glm::vec3 max, float aspect);
    // Keeps the target and the direction and moves the eye back (never closer) until every
    // corner of the box is inside the view at this aspect, with a small margin: a scene file's
    // own camera then still shows its whole domain in a window of another shape.
    void fit_box(glm::vec3 min, glm::vec3 max, float aspect);

    // `point` moved by a drag of (dx, dy) pixels in the plane through it facing the camera,
    // so it stays under the cursor (shift-dragging the collider).
    glm::vec3 drag_in_view_plane(glm::vec3 point, float dx_px, float dy_px,
                                 float viewport_height_px) const;

  private:
    // World units one pixel spans at `depth` metres in front of the eye.
    float units_per_pixel(float depth, float viewport_height_px) const;

    glm::vec3 target_{0.f};
    float distance_ = 5.f;  // m
    float yaw_ = 0.6f;      // radians
    float pitch_ = 0.45f;   // radians
    float fov_y_ = glm::radians(45.f);
    float scene_radius_ = 1.f;  // m, from the last frame_box; sets near/far
};

}  // namespace plab::render
