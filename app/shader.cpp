#include "shader.h"

#include <glm/gtc/type_ptr.hpp>

#include "shader_sources.h"

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

ShaderProgram::~ShaderProgram() { destroy(); }

void ShaderProgram::destroy() {
    if (id_) glDeleteProgram(id_);
    id_ = 0;
}

bool ShaderProgram::build(const char* vertexName, const char* fragmentName, std::string& error) {
    destroy();
    GLuint vs = compileStage(GL_VERTEX_SHADER, vertexName, error);
    if (!vs) return false;
    GLuint fs = compileStage(GL_FRAGMENT_SHADER, fragmentName, error);
    if (!fs) {
        glDeleteShader(vs);
        return false;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetProgramInfoLog(program, sizeof(log), nullptr, log);
        error = std::string("program ") + vertexName + " + " + fragmentName + ": " + log;
        glDeleteProgram(program);
        return false;
    }
    id_ = program;
    return true;
}

void ShaderProgram::set(const char* name, const glm::vec2& v) const { glUniform2fv(location(name), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* name, const glm::vec3& v) const { glUniform3fv(location(name), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* name, const glm::vec4& v) const { glUniform4fv(location(name), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* name, const glm::mat4& m) const {
    glUniformMatrix4fv(location(name), 1, GL_FALSE, glm::value_ptr(m));
}

}  // namespace jl::app
