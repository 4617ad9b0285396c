#version 450 core
// Particles as point sprites, sized so the sprite's radius is the particle's world-space
// radius at the particle's depth under a perspective projection.

layout(location = 0) in vec4 a_position;  // xyz: world position (m); w unused
layout(location = 1) in vec4 a_color;     // RGBA in 0..1

uniform mat4 u_view;
uniform mat4 u_projection;
uniform float u_viewport_height;  // pixels
uniform float u_radius;           // m

out vec4 v_color;
out vec3 v_center_view;  // sphere centre in view space, for the fragment's depth

void main() {
    vec4 view_position = u_view * vec4(a_position.xyz, 1.0);
    gl_Position = u_projection * view_position;
    // A sphere of radius r at clip w spans r * P[1][1] / w of the NDC half-height, which is
    // r * P[1][1] / w * (viewport_height / 2) pixels; gl_PointSize is the diameter.
    // Points behind the eye (w <= 0) are clipped; the max() only keeps the division finite.
    float w = max(gl_Position.w, 1e-6);
    gl_PointSize = u_radius * u_projection[1][1] * u_viewport_height / w;
    v_color = a_color;
    v_center_view = view_position.xyz;
}
