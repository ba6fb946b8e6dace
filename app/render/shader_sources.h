// JointLab app — shader sources embedded at build time from shaders/ (see cmake/embed_shaders.cmake).
#pragma once

#include <string_view>

namespace jl::app {

struct EmbeddedShader {
    const char* name;    ///< file name in shaders/, e.g. "mesh.vert"
    const char* source;  ///< GLSL 330 core source text
};

extern const EmbeddedShader kEmbeddedShaders[];
extern const int kEmbeddedShaderCount;

/// Source of the shader file `name`, or nullptr when no such file was embedded.
inline const char* findEmbeddedShader(std::string_view name) {
    for (int i = 0; i < kEmbeddedShaderCount; ++i)
        if (name == kEmbeddedShaders[i].name) return kEmbeddedShaders[i].source;
    return nullptr;
}

}  // namespace jl::app
