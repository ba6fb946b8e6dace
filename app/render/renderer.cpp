#include "render/renderer.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>

#include "jointlab/body.h"
#include "render/meshes.h"

namespace jl::app {

// [SECTION] Set-up and tear-down

Renderer::~Renderer() {
    shutdown();
}

bool Renderer::init(std::string& error) {
    if (!meshProgram_.build("mesh.vert", "mesh.frag", error)) return false;
    if (!lineProgram_.build("line.vert", "line.frag", error)) return false;
    if (!thickLineProgram_.build("line.vert", "line.geom", "line_thick.frag", error)) return false;
    if (!gridProgram_.build("grid.vert", "grid.frag", error)) return false;
    if (!backgroundProgram_.build("background.vert", "background.frag", error)) return false;

    uploadMesh(meshes_[kBox], makeUnitCube());
    uploadMesh(meshes_[kSphere], makeUnitSphere(32, 16));
    uploadMesh(meshes_[kCylinder], makeUnitCylinderX(32));
    uploadMesh(meshes_[kClosedCylinder], makeUnitClosedCylinderX(48));

    const float corners[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    glGenVertexArrays(1, &gridVao_);
    glGenBuffers(1, &gridBuffer_);
    glBindVertexArray(gridVao_);
    glBindBuffer(GL_ARRAY_BUFFER, gridBuffer_);
    glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);

    glGenVertexArrays(1, &lineVao_);
    glGenBuffers(1, &lineBuffer_);
    glBindVertexArray(lineVao_);
    glBindBuffer(GL_ARRAY_BUFFER, lineBuffer_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                          reinterpret_cast<void*>(offsetof(LineVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(LineVertex),
                          reinterpret_cast<void*>(offsetof(LineVertex, rgba)));

    glGenVertexArrays(1, &emptyVao_);
    glBindVertexArray(0);
    initialized_ = true;
    return true;
}

void Renderer::shutdown() {
    if (!initialized_) return;
    for (GpuMesh& m : meshes_) {
        glDeleteVertexArrays(1, &m.vao);
        GLuint buffers[] = {m.vertexBuffer, m.indexBuffer, m.instanceBuffer};
        glDeleteBuffers(3, buffers);
        m = GpuMesh{};
    }
    for (HullMesh& h : hulls_) {
        glDeleteVertexArrays(1, &h.mesh.vao);
        GLuint buffers[] = {h.mesh.vertexBuffer, h.mesh.indexBuffer, h.mesh.instanceBuffer};
        glDeleteBuffers(3, buffers);
    }
    hulls_.clear();
    glDeleteVertexArrays(1, &gridVao_);
    glDeleteBuffers(1, &gridBuffer_);
    glDeleteVertexArrays(1, &lineVao_);
    glDeleteBuffers(1, &lineBuffer_);
    glDeleteVertexArrays(1, &emptyVao_);
    meshProgram_.destroy();
    lineProgram_.destroy();
    thickLineProgram_.destroy();
    gridProgram_.destroy();
    backgroundProgram_.destroy();
    initialized_ = false;
}

void Renderer::uploadMesh(GpuMesh& mesh, const MeshData& data) {
    glGenVertexArrays(1, &mesh.vao);
    glGenBuffers(1, &mesh.vertexBuffer);
    glGenBuffers(1, &mesh.indexBuffer);
    glGenBuffers(1, &mesh.instanceBuffer);
    glBindVertexArray(mesh.vao);

    glBindBuffer(GL_ARRAY_BUFFER, mesh.vertexBuffer);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.vertices.size() * sizeof(MeshVertex)),
                 data.vertices.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          reinterpret_cast<void*>(offsetof(MeshVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          reinterpret_cast<void*>(offsetof(MeshVertex, normal)));

    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.indexBuffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.indices.size() * sizeof(uint32_t)),
                 data.indices.data(), GL_STATIC_DRAW);
    mesh.indexCount = static_cast<GLsizei>(data.indices.size());

    // Per-instance attributes: model matrix (4 columns), colour, params (see mesh.vert).
    glBindBuffer(GL_ARRAY_BUFFER, mesh.instanceBuffer);
    for (int column = 0; column < 4; ++column) {
        GLuint location = 2 + static_cast<GLuint>(column);
        glEnableVertexAttribArray(location);
        glVertexAttribPointer(
            location, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
            reinterpret_cast<void*>(offsetof(Instance, model) + sizeof(glm::vec4) * column));
        glVertexAttribDivisor(location, 1);
    }
    glEnableVertexAttribArray(6);
    glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                          reinterpret_cast<void*>(offsetof(Instance, color)));
    glVertexAttribDivisor(6, 1);
    glEnableVertexAttribArray(7);
    glVertexAttribPointer(7, 2, GL_FLOAT, GL_FALSE, sizeof(Instance),
                          reinterpret_cast<void*>(offsetof(Instance, params)));
    glVertexAttribDivisor(7, 1);
    glBindVertexArray(0);
}

// [SECTION] Instances

void Renderer::clearInstances() {
    for (auto& list : instances_) list.clear();
    for (HullMesh& h : hulls_) h.instances.clear();
    shadows_.clear();
}

void Renderer::addShadow(const glm::vec3& bottomCenter, float radius) {
    if (static_cast<int>(shadows_.size()) < kMaxShadows)
        shadows_.emplace_back(bottomCenter.x, bottomCenter.z, radius, bottomCenter.y);
}

void Renderer::addBox(const glm::mat4& pose, const glm::vec3& halfExtents, const glm::vec4& color,
                      float highlight) {
    instances_[kBox].push_back({glm::scale(pose, halfExtents), color, {highlight, 0.0f}});
}

void Renderer::addSphere(const glm::mat4& pose, float radius, const glm::vec4& color, float highlight) {
    instances_[kSphere].push_back({glm::scale(pose, glm::vec3(radius)), color, {highlight, 1.0f}});
}

void Renderer::addCapsule(const glm::mat4& pose, float radius, float halfHeight, const glm::vec4& color,
                          float highlight) {
    if (halfHeight > 0.0f)
        instances_[kCylinder].push_back(
            {glm::scale(pose, glm::vec3(halfHeight, radius, radius)), color, {highlight, 1.0f}});
    for (float end : {-halfHeight, halfHeight}) {
        glm::mat4 cap = glm::translate(pose, glm::vec3(end, 0.0f, 0.0f));
        instances_[kSphere].push_back({glm::scale(cap, glm::vec3(radius)), color, {highlight, 1.0f}});
    }
}

void Renderer::addCylinder(const glm::mat4& pose, float radius, float halfLength, const glm::vec4& color,
                           float highlight) {
    instances_[kClosedCylinder].push_back(
        {glm::scale(pose, glm::vec3(halfLength, radius, radius)), color, {highlight, 0.0f}});
}

void Renderer::addHull(const glm::mat4& pose, const std::vector<Vec3>& points, const glm::vec4& color,
                       float highlight) {
    uint64_t key = 1469598103934665603ull;  // FNV-1a over the points' bits
    for (const Vec3& p : points)
        for (int k = 0; k < 3; ++k) {
            uint64_t bits;
            std::memcpy(&bits, &p[k], sizeof bits);
            key = (key ^ bits) * 1099511628211ull;
        }
    HullMesh* hull = nullptr;
    for (HullMesh& h : hulls_)
        if (h.key == key) hull = &h;
    if (!hull) {
        if (hulls_.size() >= kMaxHullMeshes) return;
        MeshData data;  // flat-shaded triangles of the hull's faces
        const std::vector<Vec3> tris = hullTriangles(points);
        for (size_t t = 0; t + 2 < tris.size(); t += 3) {
            const glm::vec3 a(tris[t]), b(tris[t + 1]), c(tris[t + 2]);
            const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
            for (const glm::vec3& v : {a, b, c}) {
                data.indices.push_back(static_cast<uint32_t>(data.vertices.size()));
                data.vertices.push_back({v, n});
            }
        }
        hulls_.push_back(HullMesh{key, GpuMesh{}, {}, {}});
        hull = &hulls_.back();
        uploadMesh(hull->mesh, data);
    }
    hull->instances.push_back({pose, color, {highlight, 0.0f}});
}

// [SECTION] Drawing

void Renderer::drawInstances(GpuMesh& mesh, const std::vector<Instance>& instances) {
    if (instances.empty()) return;
    glBindVertexArray(mesh.vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.instanceBuffer);
    if (instances.size() > mesh.instanceCapacity) {
        mesh.instanceCapacity = instances.size() * 2;
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.instanceCapacity * sizeof(Instance)),
                     nullptr, GL_STREAM_DRAW);
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(instances.size() * sizeof(Instance)),
                    instances.data());
    glDrawElementsInstanced(GL_TRIANGLES, mesh.indexCount, GL_UNSIGNED_INT, nullptr,
                            static_cast<GLsizei>(instances.size()));
}

void Renderer::uploadLineVertices(const std::vector<LineVertex>& vertices) {
    glBindVertexArray(lineVao_);
    glBindBuffer(GL_ARRAY_BUFFER, lineBuffer_);
    if (vertices.size() > lineCapacity_) {
        lineCapacity_ = vertices.size() * 2;
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lineCapacity_ * sizeof(LineVertex)), nullptr,
                     GL_STREAM_DRAW);
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(vertices.size() * sizeof(LineVertex)),
                    vertices.data());
}

void Renderer::drawLines(const std::vector<LineVertex>& vertices, float width) {
    if (vertices.empty()) return;
    thickLineProgram_.set("uLineWidth", width);
    uploadLineVertices(vertices);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(vertices.size()));
}

void Renderer::drawTriangles(const std::vector<LineVertex>& vertices) {
    if (vertices.empty()) return;
    uploadLineVertices(vertices);
    glDepthMask(GL_FALSE);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(vertices.size()));
    glDepthMask(GL_TRUE);
}

void Renderer::render(const FrameView& view, const RenderOptions& options, const DebugDraw& lines) {
    const PixelRect& r = view.viewport;
    glViewport(r.x, r.y, r.width, r.height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(r.x, r.y, r.width, r.height);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_BLEND);

    // Background gradient (no depth).
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    backgroundProgram_.use();
    backgroundProgram_.set("uTopColor", options.backgroundTop);
    backgroundProgram_.set("uBottomColor", options.backgroundBottom);
    glBindVertexArray(emptyVao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);

    const glm::mat4 viewProj = view.projection * view.view;

    // Opaque bodies.
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    meshProgram_.use();
    meshProgram_.set("uViewProj", viewProj);
    meshProgram_.set("uCameraPos", view.cameraPosition);
    meshProgram_.set("uLightDir", glm::normalize(glm::vec3(0.45f, 0.85f, 0.35f)));
    // Instances with alpha < 1 (the ghost of another run) are drawn after the ground, blended.
    const auto splitTranslucent = [](std::vector<Instance>& all, std::vector<Instance>& translucent) {
        const auto first = std::stable_partition(all.begin(), all.end(),
                                                 [](const Instance& i) { return i.color.a >= 1.0f; });
        translucent.assign(first, all.end());
        all.erase(first, all.end());
    };
    for (int kind = 0; kind < kMeshKindCount; ++kind) {
        splitTranslucent(instances_[kind], translucent_[kind]);
        drawInstances(meshes_[kind], instances_[kind]);
    }
    for (HullMesh& h : hulls_) {
        splitTranslucent(h.instances, h.translucent);
        drawInstances(h.mesh, h.instances);
    }
    glDisable(GL_CULL_FACE);

    // Ground and grid: translucent, depth-tested against the bodies, not writing depth.
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    if (options.showGrid || options.showGround) {
        glDepthMask(GL_FALSE);
        gridProgram_.use();
        gridProgram_.set("uViewProj", viewProj);
        gridProgram_.set("uCameraPos", view.cameraPosition);
        gridProgram_.set("uCenter", glm::vec2(view.focus.x, view.focus.z));
        gridProgram_.set("uExtent", view.gridFadeDistance * 1.5f);
        gridProgram_.set("uFadeDistance", view.gridFadeDistance);
        gridProgram_.set("uMinorSpacing", 0.25f);
        gridProgram_.set("uMajorSpacing", 1.0f);
        glm::vec4 ground = options.groundColor;
        if (!options.showGround) ground.a = 0.0f;
        glm::vec4 gridLines = options.gridLineColor;
        if (!options.showGrid) gridLines.a = 0.0f;
        gridProgram_.set("uGroundColor", ground);
        gridProgram_.set("uLineColor", gridLines);
        gridProgram_.set("uShadowCount", options.showGround ? static_cast<int>(shadows_.size()) : 0);
        if (!shadows_.empty())
            glUniform4fv(glGetUniformLocation(gridProgram_.id(), "uShadows"),
                         static_cast<GLsizei>(shadows_.size()), &shadows_[0].x);
        glBindVertexArray(gridVao_);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glDepthMask(GL_TRUE);
    }

    // Translucent bodies: depth-tested against the opaque ones, not writing depth, front faces only.
    bool anyTranslucent = false;
    for (const auto& list : translucent_) anyTranslucent = anyTranslucent || !list.empty();
    for (const HullMesh& h : hulls_) anyTranslucent = anyTranslucent || !h.translucent.empty();
    if (anyTranslucent) {
        glDepthMask(GL_FALSE);
        glEnable(GL_CULL_FACE);
        meshProgram_.use();
        for (int kind = 0; kind < kMeshKindCount; ++kind) drawInstances(meshes_[kind], translucent_[kind]);
        for (HullMesh& h : hulls_) drawInstances(h.mesh, h.translucent);
        glDisable(GL_CULL_FACE);
        glDepthMask(GL_TRUE);
    }

    // Debug geometry: the depth-tested layer, then the overlay layer on top; in each, translucent
    // triangles first and lines over them.
    const glm::vec2 viewportSize(static_cast<float>(r.width), static_cast<float>(r.height));
    for (DebugDraw::Layer layer :
         {DebugDraw::Layer::Scene, DebugDraw::Layer::Outline, DebugDraw::Layer::Overlay}) {
        if (layer != DebugDraw::Layer::Scene) glDisable(GL_DEPTH_TEST);
        lineProgram_.use();
        lineProgram_.set("uViewProj", viewProj);
        drawTriangles(lines.triangles(layer));
        thickLineProgram_.use();
        thickLineProgram_.set("uViewProj", viewProj);
        thickLineProgram_.set("uViewportSize", viewportSize);
        const float width = layer == DebugDraw::Layer::Scene     ? options.sceneLineWidth
                            : layer == DebugDraw::Layer::Outline ? options.overlayLineWidth + 3.0f
                                                                 : options.overlayLineWidth;
        drawLines(lines.vertices(layer), width);
    }

    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
}

}  // namespace jl::app
