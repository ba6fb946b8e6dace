#include "render/scene_draw.h"

#include <algorithm>
#include <cstddef>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <limits>

#include "render/joint_frames.h"

namespace jl::app {

namespace {

glm::mat4 poseMatrix(const Transform& t) {
    return glm::translate(glm::mat4(1.0f), glm::vec3(t.p)) * glm::mat4_cast(glm::quat(t.q));
}

/// Half sizes of the body's world-axis-aligned bounding box.
glm::vec3 worldHalfExtents(const BodyDesc& b, const Quat& q) {
    const glm::mat3 r = glm::mat3_cast(glm::quat(q));
    switch (b.shape) {
        case ShapeType::Box: {
            const glm::vec3 h(b.halfExtents);
            return glm::abs(r[0]) * h.x + glm::abs(r[1]) * h.y + glm::abs(r[2]) * h.z;
        }
        case ShapeType::Sphere:
            return glm::vec3(static_cast<float>(b.radius));
        case ShapeType::Capsule:
        case ShapeType::Cylinder:
            return glm::abs(r[0]) * static_cast<float>(b.halfHeight) +
                   glm::vec3(static_cast<float>(b.radius));
        default:
            return glm::vec3(boundingRadius(b));
    }
}

void drawShape(Renderer& renderer, const BodyDesc& b, const glm::mat4& pose, const glm::vec4& color,
               float highlight);

/// A gear: a wheel (its root circle) with its teeth; a rack: its bar with teeth on the side facing
/// its pinion (render/toothed_looks.h). Module m = pitch/π: teeth reach m above the pitch line.
void drawToothed(Renderer& renderer, const BodyDesc& b, const Transform& pose, const ToothedLook& look,
                 const glm::vec4& color, float highlight) {
    const glm::mat4 frame = poseMatrix(pose * look.frame);
    const float m = look.addendum();
    if (look.kind == ToothedLook::Kind::Gear) {
        renderer.addCylinder(frame, look.pitchRadius - 1.25f * m, look.halfWidth, color, highlight);
        const glm::vec3 tooth(look.halfWidth, 1.125f * m, 0.26f * look.pitch);
        for (int k = 0; k < look.teeth; ++k) {
            const float angle =
                look.phase + 6.2831853f * static_cast<float>(k) / static_cast<float>(look.teeth);
            const glm::mat4 at = glm::translate(glm::rotate(frame, angle, glm::vec3(1, 0, 0)),
                                                glm::vec3(0.0f, look.pitchRadius - 0.125f * m, 0.0f));
            renderer.addBox(at, tooth, color, highlight);
        }
        return;
    }
    drawShape(renderer, b, poseMatrix(pose), color, highlight);  // the rack's own bar
    if (!(look.pitch > 0.0f)) return;
    // Teeth along X on the face, every pitch from a tooth at `phase`.
    const glm::vec3 x(1, 0, 0), up(look.face), across = glm::cross(x, up);
    const glm::mat4 faceBasis(glm::vec4(x, 0), glm::vec4(up, 0), glm::vec4(across, 0), glm::vec4(0, 0, 0, 1));
    const glm::mat4 onFace = frame * faceBasis;
    const glm::vec3 tooth(0.26f * look.pitch, 0.5f * m, look.halfWidth);
    const float first = look.phase - look.pitch * std::floor((look.phase + look.halfLength) / look.pitch);
    for (float s = first; s <= look.halfLength - 0.25f * look.pitch; s += look.pitch) {
        if (s < -look.halfLength + 0.25f * look.pitch) continue;
        renderer.addBox(glm::translate(onFace, glm::vec3(s, look.faceDistance + 0.5f * m, 0.0f)), tooth,
                        color, highlight);
    }
}

/// One primitive (box, sphere, capsule, cylinder) at `pose`.
void drawPrimitive(Renderer& renderer, ShapeType shape, const Vec3& h, Real radius, Real halfHeight,
                   const glm::mat4& pose, const glm::vec4& color, float highlight) {
    switch (shape) {
        case ShapeType::Box:
            renderer.addBox(pose, glm::vec3(h), color, highlight);
            break;
        case ShapeType::Sphere:
            renderer.addSphere(pose, static_cast<float>(radius), color, highlight);
            break;
        case ShapeType::Capsule:
            renderer.addCapsule(pose, static_cast<float>(radius), static_cast<float>(halfHeight), color,
                                highlight);
            break;
        case ShapeType::Cylinder:
            renderer.addCylinder(pose, static_cast<float>(radius), static_cast<float>(halfHeight), color,
                                 highlight);
            break;
        default:
            break;
    }
}

/// A body's shape: a primitive, its hull, or each child of a compound (a primitive or a hull) at its pose.
void drawShape(Renderer& renderer, const BodyDesc& b, const glm::mat4& pose, const glm::vec4& color,
               float highlight) {
    if (b.shape == ShapeType::Hull) {
        renderer.addHull(pose, b.hullPoints, color, highlight);
    } else if (b.shape == ShapeType::Compound) {
        for (const ShapeDesc& c : b.children) {
            const glm::mat4 childPose =
                pose * poseMatrix(Transform{c.position, glm::normalize(c.orientation)});
            if (c.shape == ShapeType::Hull)  // its mesh built once, as a hull body's (Renderer::addHull)
                renderer.addHull(childPose, c.hullPoints, color, highlight);
            else
                drawPrimitive(renderer, c.shape, c.halfExtents, c.radius, c.halfHeight, childPose, color,
                              highlight);
        }
    } else {
        drawPrimitive(renderer, b.shape, b.halfExtents, b.radius, b.halfHeight, pose, color, highlight);
    }
}

}  // namespace

void drawBodies(Renderer& renderer, const Scene& scene, std::span<const BodyState> states,
                const Selection& selection, const SceneIndex& index, std::span<const ToothedLook> looks) {
    const size_t n = std::min(scene.bodies.size(), states.size());
    int end0 = -1, end1 = -1;  // a selected joint's bodies glow a little
    if (selection.isJoint() && static_cast<size_t>(selection.index) < scene.joints.size()) {
        end0 = index.jointBody0(selection.index);
        end1 = index.jointBody1(selection.index);
    }
    for (size_t i = 0; i < n; ++i) {
        const BodyDesc& b = scene.bodies[i];
        const int bi = static_cast<int>(i);
        glm::vec4 color = bodyColor(b, index.colourSlot(bi));
        const float highlight = selection.isBody(bi) ? 1.0f : (bi == end0 || bi == end1 ? 0.5f : 0.0f);
        const glm::vec3 center(states[i].pose.p);
        const glm::vec3 extent = worldHalfExtents(b, states[i].pose.q);
        renderer.addShadow(glm::vec3(center.x, center.y - extent.y, center.z), std::max(extent.x, extent.z));
        if (i < looks.size() && looks[i].kind != ToothedLook::Kind::None) {
            drawToothed(renderer, b, states[i].pose, looks[i], color, highlight);
            continue;
        }
        drawShape(renderer, b, poseMatrix(states[i].pose), color, highlight);
    }
}

glm::vec4 shadowColour(ShadowRun::Kind kind) {
    return kind == ShadowRun::Kind::Compare ? glm::vec4(0.78f, 0.50f, 1.00f, 0.40f)
                                            : glm::vec4(0.70f, 0.85f, 1.00f, 0.30f);
}

void drawShadowBodies(Renderer& renderer, const Scene& scene, std::span<const BodyState> states,
                      const glm::vec4& color) {
    const size_t n = std::min(scene.bodies.size(), states.size());
    for (size_t i = 0; i < n; ++i)
        if (scene.bodies[i].motion == MotionType::Dynamic)
            drawShape(renderer, scene.bodies[i], poseMatrix(states[i].pose), color, 0.0f);
}

void drawSelectionOutline(DebugDraw& lines, const Scene& scene, std::span<const BodyState> states,
                          const Selection& selection) {
    if (selection.kind != Selection::Kind::Body || selection.index < 0 ||
        static_cast<size_t>(selection.index) >= std::min(scene.bodies.size(), states.size()))
        return;
    const BodyDesc& b = scene.bodies[selection.index];
    const Transform& pose = states[selection.index].pose;
    const glm::vec3 c(pose.p);
    const glm::quat q(pose.q);
    const auto layer = DebugDraw::Layer::Overlay;
    const float grow = 1.02f;  // just outside the surface
    switch (b.shape) {
        case ShapeType::Box:
            lines.box(c, q, glm::vec3(b.halfExtents) * grow, colors::kOrange, layer);
            break;
        case ShapeType::Sphere:
            for (const glm::vec3& axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)})
                lines.circle(c, q * axis, static_cast<float>(b.radius) * grow, colors::kOrange, layer);
            break;
        case ShapeType::Capsule: {
            const float r = static_cast<float>(b.radius) * grow, h = static_cast<float>(b.halfHeight);
            const glm::vec3 x = q * glm::vec3(1, 0, 0), y = q * glm::vec3(0, 1, 0),
                            z = q * glm::vec3(0, 0, 1);
            for (float end : {-h, h}) lines.circle(c + x * end, x, r, colors::kOrange, layer);
            for (const glm::vec3& side : {y, -y, z, -z})
                lines.line(c - x * h + side * r, c + x * h + side * r, colors::kOrange, layer);
            break;
        }
        case ShapeType::Cylinder: {
            const float r = static_cast<float>(b.radius) * grow, h = static_cast<float>(b.halfHeight) * grow;
            const glm::vec3 x = q * glm::vec3(1, 0, 0);
            for (float end : {-h, h}) lines.circle(c + x * end, x, r, colors::kOrange, layer);
            break;
        }
        default:  // hull, compound: their bounding sphere
            for (const glm::vec3& axis : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1)})
                lines.circle(c, q * axis, boundingRadius(b) * grow, colors::kOrange, layer);
            break;
    }
}

void drawWorldAxes(DebugDraw& lines, float length) {
    const glm::vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const Color colorsXyz[3] = {colors::kRed, colors::kGreen, colors::kBlue};
    for (int k = 0; k < 3; ++k) {
        // Lift the ground axes a hair above the grid so they always win against it.
        glm::vec3 lift = k == 1 ? glm::vec3(0.0f) : glm::vec3(0.0f, 0.002f, 0.0f);
        lines.line(lift, lift + axes[k] * length, colorsXyz[k]);
        Color negative = colorsXyz[k] * 0.55f;
        negative.a = 1.0f;
        if (k != 1) lines.line(lift, lift - axes[k] * length, negative);
    }
}

}  // namespace jl::app
