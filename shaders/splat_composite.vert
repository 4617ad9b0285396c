#version 450 core
// One triangle that covers the viewport (no vertex buffer): the CUDA splatter's image is
// composited per fragment in splat_composite.frag.

void main() {
    const vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    gl_Position = vec4(corners[gl_VertexID], 0.0, 1.0);
}
