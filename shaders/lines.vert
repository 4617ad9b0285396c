#version 450 core
// Line geometry (the domain box, the collider's wire sphere) placed by a model matrix.

layout(location = 0) in vec3 a_position;  // model space

uniform mat4 u_model_view_projection;

void main() {
    gl_Position = u_model_view_projection * vec4(a_position, 1.0);
}
