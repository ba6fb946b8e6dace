// JointLab app — the 3D renderer: background, instanced lit meshes, ground grid, debug lines.
//
// Per frame: clearInstances(), add bodies with addBox/addSphere/addCapsule, then render() into the
// viewport rectangle of the currently bound framebuffer. All GL objects are created by init() and
// destroyed by shutdown(), both with the GL context current.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "jointlab/math.h"
#include "render/debug_draw.h"
#include "render/gl.h"
#include "render/shader.h"

namespace jl::app {

struct MeshData;

/// A rectangle of the framebuffer in GL pixels (origin bottom-left).
struct PixelRect {
    int x = 0, y = 0, width = 1, height = 1;
};

/// What the camera sees this frame.
struct FrameView {
    PixelRect viewport;
    glm::mat4 view{1.0f};
    glm::mat4 projection{1.0f};
    glm::vec3 cameraPosition{0.0f};
    glm::vec3 focus{0.0f};           ///< orbit target: the grid is centred under it
    float gridFadeDistance = 40.0f;  ///< [m]
};

struct RenderOptions {
    float sceneLineWidth = 1.5f;    ///< depth-tested debug lines [pixels]
    float overlayLineWidth = 2.5f;  ///< debug lines drawn on top [pixels]
    bool showGrid = true;           ///< grid lines on y = 0
    bool showGround = true;         ///< translucent ground fill on y = 0 (the scene's ground plane)
    glm::vec3 backgroundTop{0.30f, 0.34f, 0.40f};
    glm::vec3 backgroundBottom{0.13f, 0.15f, 0.18f};
    glm::vec4 groundColor{0.34f, 0.35f, 0.37f, 0.92f};
    glm::vec4 gridLineColor{0.78f, 0.80f, 0.84f, 0.55f};
};

class Renderer {
public:
    Renderer() = default;
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    /// Compiles the shaders and uploads the meshes. Needs a current GL 3.3 core context.
    bool init(std::string& error);
    void shutdown();

    void clearInstances();
    /// `pose` is the body's rigid transform (no scale); highlight 0..1 is the selection glow. A
    /// colour with alpha < 1 is drawn translucent, after the opaque bodies and the ground.
    void addBox(const glm::mat4& pose, const glm::vec3& halfExtents, const glm::vec4& color, float highlight);
    void addSphere(const glm::mat4& pose, float radius, const glm::vec4& color, float highlight);
    /// Capsule: a segment along local X of half length `halfHeight`, swept by a sphere of `radius`.
    void addCapsule(const glm::mat4& pose, float radius, float halfHeight, const glm::vec4& color,
                    float highlight);

    /// A solid cylinder along local X of half length `halfLength` and `radius` (a gear's wheel).
    void addCylinder(const glm::mat4& pose, float radius, float halfLength, const glm::vec4& color,
                     float highlight);

    /// The convex hull of `points` (in the pose's frame). Its mesh is built on first use and kept
    /// for as long as some hull with the same points is drawn (at most kMaxHullMeshes kept).
    void addHull(const glm::mat4& pose, const std::vector<Vec3>& points, const glm::vec4& color,
                 float highlight);
    static constexpr size_t kMaxHullMeshes = 256;

    /// A soft shadow on the ground under a body: `bottomCenter` is the middle of the underside of
    /// its bounding box, `radius` its horizontal half size (at most kMaxShadows per frame).
    void addShadow(const glm::vec3& bottomCenter, float radius);
    static constexpr int kMaxShadows = 64;  ///< keep in step with grid.frag

    /// Draws background, bodies, ground grid and the debug lines into view.viewport.
    void render(const FrameView& view, const RenderOptions& options, const DebugDraw& lines);

private:
    enum MeshKind { kBox, kSphere, kCylinder, kClosedCylinder, kMeshKindCount };

    struct Instance {
        glm::mat4 model;
        glm::vec4 color;
        glm::vec2 params;  ///< highlight, pattern strength
    };

    struct GpuMesh {
        GLuint vao = 0, vertexBuffer = 0, indexBuffer = 0, instanceBuffer = 0;
        GLsizei indexCount = 0;
        size_t instanceCapacity = 0;
    };

    void uploadMesh(GpuMesh& mesh, const MeshData& data);
    void drawInstances(GpuMesh& mesh, const std::vector<Instance>& instances);
    /// Thick lines (line.geom) `width` pixels wide; the program must be in use.
    void drawLines(const std::vector<LineVertex>& vertices, float width);
    /// Filled debug triangles with lineProgram_ (must be in use), not writing depth.
    void drawTriangles(const std::vector<LineVertex>& vertices);
    /// Uploads debug vertices into the shared line buffer.
    void uploadLineVertices(const std::vector<LineVertex>& vertices);

    ShaderProgram meshProgram_;
    ShaderProgram lineProgram_;       ///< debug triangles
    ShaderProgram thickLineProgram_;  ///< debug lines, expanded to quads by line.geom
    ShaderProgram gridProgram_;
    ShaderProgram backgroundProgram_;
    GpuMesh meshes_[kMeshKindCount];
    std::vector<Instance> instances_[kMeshKindCount];
    std::vector<Instance> translucent_[kMeshKindCount];  ///< this frame's instances with alpha < 1
    struct HullMesh {
        uint64_t key = 0;  ///< hash of the points' bits
        GpuMesh mesh;
        std::vector<Instance> instances;
        std::vector<Instance> translucent;  ///< this frame's instances with alpha < 1
    };
    std::vector<HullMesh> hulls_;     ///< in order of first use
    std::vector<glm::vec4> shadows_;  ///< x, z, radius, height of the underside
    GLuint gridVao_ = 0, gridBuffer_ = 0;
    GLuint lineVao_ = 0, lineBuffer_ = 0;
    size_t lineCapacity_ = 0;
    GLuint emptyVao_ = 0;  ///< core profile needs a bound VAO even for attribute-less draws
    bool initialized_ = false;
};

}  // namespace jl::app
