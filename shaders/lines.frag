#version 450 core
// One flat colour per draw.

uniform vec4 u_color;  // RGBA in 0..1

out vec4 frag_color;

void main() {
    frag_color = u_color;
}
