#version 330 core
// Vertical gradient behind the scene.

in float vHeight;

uniform vec3 uTopColor;
uniform vec3 uBottomColor;

out vec4 fragColor;

void main() { fragColor = vec4(mix(uBottomColor, uTopColor, clamp(vHeight, 0.0, 1.0)), 1.0); }
