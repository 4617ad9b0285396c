#version 450 core
// Shades a point sprite as a lit sphere: pixels whose centres lie outside the sphere's disc
// are discarded, the rest get the normal of a unit hemisphere facing the eye and Lambert
// lighting.

flat in vec4 v_color;
flat in vec3 v_center_view;
flat in vec2 v_center_px;
flat in float v_diameter_px;

uniform mat4 u_projection;
uniform float u_radius;     // m
uniform vec3 u_light_dir;   // view space, unit length, pointing towards the light
uniform float u_ambient;    // 0..1, the share of the colour that needs no light

out vec4 frag_color;

void main() {
    // The pixel centre's offset from the sphere's centre in sphere radii, y up (window
    // coordinates run bottom to top).
    vec2 p = (gl_FragCoord.xy - v_center_px) * (2.0 / v_diameter_px);
    float r2 = dot(p, p);
    if (r2 > 1.0) {
        discard;
    }
    vec3 normal = vec3(p, sqrt(1.0 - r2));
    float lambert = max(dot(normal, u_light_dir), 0.0);
    frag_color = vec4(v_color.rgb * (u_ambient + (1.0 - u_ambient) * lambert), v_color.a);

    // Depth of the sphere's surface rather than of the flat sprite, so that overlapping
    // particles occlude each other like spheres.
    vec4 clip = u_projection * vec4(v_center_view + u_radius * normal, 1.0);
    float ndc_depth = clip.z / clip.w;
    gl_FragDepth = 0.5 * (gl_DepthRange.diff * ndc_depth + gl_DepthRange.near + gl_DepthRange.far);
}
