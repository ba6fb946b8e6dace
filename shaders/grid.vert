#version 330 core
// Ground plane y = 0: one quad of half size uExtent centred under uCenter (x, z).

layout(location = 0) in vec2 aCorner;  // (-1..1, -1..1)

uniform mat4 uViewProj;
uniform vec2 uCenter;
uniform float uExtent;

out vec3 vWorldPos;

void main() {
    vWorldPos = vec3(uCenter.x + aCorner.x * uExtent, 0.0, uCenter.y + aCorner.y * uExtent);
    gl_Position = uViewProj * vec4(vWorldPos, 1.0);
}
