// JointLab app — the one place that includes the OpenGL declarations (glad, generated at build time).
#pragma once

#include <glad/gl.h>
