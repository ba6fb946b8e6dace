#version 330 core
// Fragment stage of the thick debug lines (line.vert → line.geom → here).

in vec4 gColor;
out vec4 fragColor;

void main() { fragColor = gColor; }
