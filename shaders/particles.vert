#version 450 core
// Particles as point sprites, sized so the sprite's radius is the particle's world-space
// radius at the particle's depth under a perspective projection.

layout(location = 0) in vec4 a_position;  // xyz: world position (m); w unused
layout(location = 1) in vec4 a_color;     // RGBA in 0..1

uniform mat4 u_view;
uniform mat4 u_projection;
uniform float u_viewport_height;  // pixels
uniform vec4 u_viewport;          // GL's viewport: x, y, width, height in pixels
uniform float u_radius;           // m

// All flat: a point's outputs are the same over its sprite, and flat ones need no
// interpolation set up per point (which costs at millions of points).
flat out vec4 v_color;
flat out vec3 v_center_view;   // sphere centre in view space, for the fragment's depth
flat out vec2 v_center_px;     // sphere centre in window pixels
flat out float v_diameter_px;  // the sphere's exact diameter in pixels (at least 1)

void main() {
    vec4 view_position = u_view * vec4(a_position.xyz, 1.0);
    gl_Position = u_projection * view_position;
    // A sphere of radius r at clip w spans r * P[1][1] / w of the NDC half-height, which is
    // r * P[1][1] / w * (viewport_height / 2) pixels: its diameter is r P[1][1] H / w.
    // Points behind the eye (w <= 0) are clipped; the max() only keeps the division finite.
    float w = max(gl_Position.w, 1e-6);
    float diameter = max(u_radius * u_projection[1][1] * u_viewport_height / w, 1.0);
    // Drivers may quantise point sizes (NVIDIA's come out a little off the asked size), which
    // moves the disc's edge when a shader cuts it from gl_PointCoord. This one cuts the exact
    // disc from the window position, as the CUDA splat does; a quantised square can then only
    // miss a rim pixel where the disc touches the square's sides. (A sprite rounded up to whole
    // pixels would close that gap too, but costs a third more fragments at 10M particles.)
    gl_PointSize = diameter;
    v_center_px = u_viewport.xy + (gl_Position.xy / w * 0.5 + 0.5) * u_viewport.zw;
    v_diameter_px = diameter;
    v_color = a_color;
    v_center_view = view_position.xyz;
}
