#version 330 core
// Full-viewport triangle (no vertex buffer): positions from gl_VertexID.

out float vHeight;  // 0 at the bottom of the viewport, 1 at the top

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    vHeight = corner.y * 0.5;
    gl_Position = vec4(corner * 2.0 - 1.0, 1.0, 1.0);
}
