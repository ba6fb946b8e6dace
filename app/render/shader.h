// JointLab app — a linked GLSL program built from embedded shader files.
#pragma once

#include <glm/glm.hpp>
#include <string>

#include "render/gl.h"

namespace jl::app {

class ShaderProgram {
public:
    ShaderProgram() = default;
    ~ShaderProgram();
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    /// Compiles and links shaders/<vertexName> and shaders/<fragmentName> (embedded copies).
    /// On failure returns false and sets `error` to the file name and the driver's log.
    bool build(const char* vertexName, const char* fragmentName, std::string& error);
    /// The same with a geometry stage between them.
    bool build(const char* vertexName, const char* geometryName, const char* fragmentName,
               std::string& error);
    void destroy();
    void use() const { glUseProgram(id_); }
    GLuint id() const { return id_; }

    void set(const char* name, float v) const { glUniform1f(location(name), v); }
    void set(const char* name, int v) const { glUniform1i(location(name), v); }
    void set(const char* name, const glm::vec2& v) const;
    void set(const char* name, const glm::vec3& v) const;
    void set(const char* name, const glm::vec4& v) const;
    void set(const char* name, const glm::mat4& m) const;

private:
    GLint location(const char* name) const { return glGetUniformLocation(id_, name); }
    GLuint id_ = 0;
};

}  // namespace jl::app
