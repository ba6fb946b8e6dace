#version 330 core
// Debug line batch: world-space endpoints with per-vertex colour.

layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;  // normalised RGBA8

uniform mat4 uViewProj;

out vec4 vColor;

void main() {
    vColor = aColor;
    gl_Position = uViewProj * vec4(aPosition, 1.0);
}
