#version 330 core
// Thick debug lines: core-profile GL has no wide lines, so each segment becomes a screen-aligned
// quad uLineWidth pixels wide. Segments are first clipped to w > epsilon so that an end behind the
// camera does not flip across the screen.

layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

in vec4 vColor[];
out vec4 gColor;

uniform vec2 uViewportSize;  // [pixels]
uniform float uLineWidth;    // [pixels]

void main() {
    vec4 p0 = gl_in[0].gl_Position;
    vec4 p1 = gl_in[1].gl_Position;
    const float eps = 1e-4;
    if (p0.w < eps && p1.w < eps) return;
    if (p0.w < eps) p0 = mix(p0, p1, (eps - p0.w) / (p1.w - p0.w));
    if (p1.w < eps) p1 = mix(p1, p0, (eps - p1.w) / (p0.w - p1.w));

    vec2 halfSize = 0.5 * uViewportSize;
    vec2 s0 = p0.xy / p0.w * halfSize;
    vec2 s1 = p1.xy / p1.w * halfSize;
    vec2 d = s1 - s0;
    float len = length(d);
    vec2 normal = len > 1e-6 ? vec2(-d.y, d.x) / len : vec2(0.0, 1.0);
    vec2 offset = normal * (0.5 * uLineWidth) / halfSize;  // in NDC

    gColor = vColor[0];
    gl_Position = p0 + vec4(offset * p0.w, 0.0, 0.0);
    EmitVertex();
    gl_Position = p0 - vec4(offset * p0.w, 0.0, 0.0);
    EmitVertex();
    gColor = vColor[1];
    gl_Position = p1 + vec4(offset * p1.w, 0.0, 0.0);
    EmitVertex();
    gl_Position = p1 - vec4(offset * p1.w, 0.0, 0.0);
    EmitVertex();
    EndPrimitive();
}
