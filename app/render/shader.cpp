#include "render/shader.h"

#include <glm/gtc/type_ptr.hpp>

#include "render/shader_sources.h"

namespace jl::app {

namespace {

GLuint compileStage(GLenum stage, const char* name, std::string& error) {
    const char* source = findEmbeddedShader(name);
    if (!source) {
        error = std::string("shader ") + name + ": not embedded (is it in shaders/?)";
        return 0;
    }
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
        error = std::string("shader ") + name + ": " + log;
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

}  // namespace

ShaderProgram::~ShaderProgram() {
    destroy();
}

void ShaderProgram::destroy() {
    if (id_) glDeleteProgram(id_);
    id_ = 0;
}

bool ShaderProgram::build(const char* vertexName, const char* fragmentName, std::string& error) {
    return build(vertexName, nullptr, fragmentName, error);
}

bool ShaderProgram::build(const char* vertexName, const char* geometryName, const char* fragmentName,
                          std::string& error) {
    destroy();
    GLuint stages[3] = {};
    const GLenum kinds[3] = {GL_VERTEX_SHADER, GL_GEOMETRY_SHADER, GL_FRAGMENT_SHADER};
    const char* names[3] = {vertexName, geometryName, fragmentName};
    auto release = [&] {
        for (GLuint s : stages)
            if (s) glDeleteShader(s);
    };
    for (int i = 0; i < 3; ++i) {
        if (!names[i]) continue;
        stages[i] = compileStage(kinds[i], names[i], error);
        if (!stages[i]) {
            release();
            return false;
        }
    }
    GLuint program = glCreateProgram();
    for (GLuint s : stages)
        if (s) glAttachShader(program, s);
    glLinkProgram(program);
    release();
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetProgramInfoLog(program, sizeof(log), nullptr, log);
        error = std::string("program ") + vertexName +
                (geometryName ? std::string(" + ") + geometryName : "") + " + " + fragmentName + ": " + log;
        glDeleteProgram(program);
        return false;
    }
    id_ = program;
    return true;
}

void ShaderProgram::set(const char* name, const glm::vec2& v) const {
    glUniform2fv(location(name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, const glm::vec3& v) const {
    glUniform3fv(location(name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, const glm::vec4& v) const {
    glUniform4fv(location(name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, const glm::mat4& m) const {
    glUniformMatrix4fv(location(name), 1, GL_FALSE, glm::value_ptr(m));
}

}  // namespace jl::app
