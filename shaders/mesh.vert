#version 330 core
// Instanced lit meshes (box, sphere, capsule pieces). One instance = one model matrix + colour.

layout(location = 0) in vec3 aPosition;  // unit mesh, model space
layout(location = 1) in vec3 aNormal;
layout(location = 2) in mat4 iModel;     // locations 2..5: model to world (includes shape scale)
layout(location = 6) in vec4 iColor;     // base colour, sRGB
layout(location = 7) in vec2 iParams;    // x: selection highlight 0..1, y: pattern strength 0..1

uniform mat4 uViewProj;

out vec3 vWorldPos;
out vec3 vNormal;
out vec3 vLocal;
out vec4 vColor;
out vec2 vParams;

void main() {
    vec4 world = iModel * vec4(aPosition, 1.0);
    vWorldPos = world.xyz;
    vNormal = transpose(inverse(mat3(iModel))) * aNormal;
    vLocal = aPosition;
    vColor = iColor;
    vParams = iParams;
    gl_Position = uViewProj * world;
}
