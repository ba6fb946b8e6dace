#include "render/scene_bounds.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "render/joint_frames.h"

namespace jl::app {

namespace {

/// Muted, distinguishable colours for dynamic bodies (sRGB).
constexpr glm::vec4 kPalette[] = {
    {0.90f, 0.45f, 0.30f, 1.0f},  // terracotta
    {0.30f, 0.62f, 0.90f, 1.0f},  // sky blue
    {0.55f, 0.80f, 0.35f, 1.0f},  // leaf green
    {0.95f, 0.75f, 0.25f, 1.0f},  // amber
    {0.70f, 0.50f, 0.90f, 1.0f},  // lavender
    {0.30f, 0.80f, 0.75f, 1.0f},  // teal
    {0.92f, 0.50f, 0.65f, 1.0f},  // rose
};
constexpr glm::vec4 kStaticColor{0.52f, 0.54f, 0.58f, 1.0f};
constexpr glm::vec4 kKinematicColor{0.45f, 0.70f, 0.70f, 1.0f};

}  // namespace

glm::vec4 bodyColor(const BodyDesc& b, int slot) {
    if (b.motion == MotionType::Static) return kStaticColor;
    if (b.motion == MotionType::Kinematic) return kKinematicColor;
    return kPalette[static_cast<size_t>(std::max(slot, 0)) % std::size(kPalette)];
}

float boundingRadius(const BodyDesc& b) {
    return static_cast<float>(shapeRadius(b));  // the collider's reach radius (jointlab/body.h)
}

std::string shapeListSummary(const BodyDesc& b) {
    auto plural = [](size_t n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    if (b.shape == ShapeType::Hull) return "hull of " + plural(b.hullPoints.size(), "point", "points");
    if (b.shape != ShapeType::Compound) return "";
    static constexpr const char* kPlural[] = {"boxes", "spheres", "capsules", "cylinders", "hulls"};
    size_t count[kChildShapeTypeCount] = {}, points = 0;
    for (const ShapeDesc& c : b.children) {
        const int t = static_cast<int>(c.shape);
        if (t >= 0 && t < kChildShapeTypeCount) ++count[t];
        if (c.shape == ShapeType::Hull) points += c.hullPoints.size();
    }
    std::string out = plural(b.children.size(), "child", "children") + ":";
    const char* sep = " ";
    for (int t = 0; t < kChildShapeTypeCount; ++t) {
        if (count[t] == 0) continue;
        out += sep + plural(count[t], kShapeTypeNames[t], kPlural[t]);
        if (t == static_cast<int>(ShapeType::Hull)) out += " (" + plural(points, "point", "points") + ")";
        sep = ", ";
    }
    return out;
}

BoundingSphere viewBounds(const Scene& scene, const SceneIndex& index, std::span<const BodyState> states,
                          const Selection& selection) {
    const size_t n = std::min(scene.bodies.size(), states.size());
    if (selection.isJoint() && static_cast<size_t>(selection.index) < scene.joints.size()) {
        // About the anchor, out to the farthest side of either body.
        const int j = selection.index;
        const glm::vec3 anchor(
            bodyPose(states, index.jointBody0(j)).apply(scene.joints[static_cast<size_t>(j)].frame0.p));
        float radius = 0.5f;
        for (int b : {index.jointBody0(j), index.jointBody1(j)})
            if (b >= 0 && static_cast<size_t>(b) < n)
                radius =
                    std::max(radius, glm::length(glm::vec3(states[static_cast<size_t>(b)].pose.p) - anchor) +
                                         boundingRadius(scene.bodies[static_cast<size_t>(b)]));
        return BoundingSphere{anchor, radius};
    }
    auto included = [&](size_t i) {
        return !(selection.isBody() && static_cast<size_t>(selection.index) < n) ||
               static_cast<int>(i) == selection.index;
    };
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        if (!included(i)) continue;
        glm::vec3 c(states[i].pose.p);
        float r = boundingRadius(scene.bodies[i]);
        lo = glm::min(lo, c - glm::vec3(r));
        hi = glm::max(hi, c + glm::vec3(r));
        any = true;
    }
    if (!any) return BoundingSphere{glm::vec3(0.0f, 0.5f, 0.0f), 2.0f};
    return BoundingSphere{(lo + hi) * 0.5f, glm::length(hi - lo) * 0.5f};
}

std::vector<glm::vec4> bodyOutlines(const Scene& scene, std::span<const BodyState> states) {
    std::vector<glm::vec4> out;
    const size_t n = std::min(scene.bodies.size(), states.size());
    for (size_t i = 0; i < n; ++i) {
        const BodyDesc& b = scene.bodies[i];
        const Transform& pose = states[i].pose;
        if (b.shape != ShapeType::Box) {
            out.emplace_back(glm::vec3(pose.p), boundingRadius(b));
            continue;
        }
        for (int corner = 0; corner < 8; ++corner) {
            const Vec3 local((corner & 1 ? 1.0 : -1.0) * b.halfExtents.x,
                             (corner & 2 ? 1.0 : -1.0) * b.halfExtents.y,
                             (corner & 4 ? 1.0 : -1.0) * b.halfExtents.z);
            out.emplace_back(glm::vec3(pose.apply(local)), 0.0f);
        }
    }
    return out;
}

}  // namespace jl::app
