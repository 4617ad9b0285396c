#version 450 core
// Copies the CUDA splatter's resolved image into the scene: its colour, and its depth so that
// the box and collider lines drawn after it are hidden behind particles as with the GL sprites.
// Empty pixels (alpha 0) are discarded and keep the background.

uniform sampler2D u_color;  // RGBA8, the viewport's size
uniform sampler2D u_depth;  // R32F, window depth 0..1
uniform ivec2 u_origin;     // the viewport's bottom-left corner, pixels

out vec4 frag_color;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) - u_origin;
    vec4 color = texelFetch(u_color, p, 0);
    if (color.a == 0.0) {
        discard;
    }
    frag_color = vec4(color.rgb, 1.0);
    gl_FragDepth = texelFetch(u_depth, p, 0).r;
}
