#include "viewport/viewport_tools.h"

#include <imgui.h>

#include <algorithm>
#include <optional>

#include "render/joint_frames.h"
#include "viewport/picking.h"

namespace jl::app {

namespace {

constexpr float kClickSlopSq = 9.0f;        ///< a press and release within 3 px is a click
constexpr float kAnchorPickPixels = 10.0f;  ///< joints are picked by their anchors within this

ViewportProjection projectionFor(const AppState& state, const ScreenRect& rect) {
    ViewportProjection view = ViewportProjection::of(state.camera, rect.width(), rect.height());
    view.pixelScale = state.layout.scale;
    return view;
}

glm::vec2 mouseIn(const ScreenRect& rect) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    return glm::vec2(m.x - rect.min.x, m.y - rect.min.y);
}

bool leftWasClick() {
    return ImGui::GetIO().MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] < kClickSlopSq;
}

void select(UiRequests& requests, Selection s) {
    requests.select = true;
    requests.selection = s;
}

/// Select tool click: a joint anchor beats the body behind it.
void clickSelect(const AppState& state, const ViewportProjection& view, const glm::vec2& mouse,
                 UiRequests& r) {
    const World& world = *state.sim.world();
    if (state.view.showJoints) {
        const int joint = pickJointAnchor(view, world.scene(), state.index, world.bodies(), mouse,
                                          kAnchorPickPixels * view.pixelScale);
        if (joint >= 0) return select(r, Selection::joint(joint));
    }
    const int body = pickBody(view.ray(mouse), world.scene(), world.bodies());
    select(r, body >= 0 ? Selection::body(body) : Selection{});
}

void clickAddBody(AppState& state, ShapeType shape, const ViewportProjection& view, const glm::vec2& mouse,
                  UiRequests& r) {
    const World& world = *state.sim.world();
    const SurfaceHit hit = pickSurface(view.ray(mouse), world.scene(), world.bodies(), true);
    if (!hit.hit) {
        state.status.error("point at the ground or a body to place it");
        return;
    }
    BodyDesc body = makeBody(shape, hit.point);
    body.position = hit.point + hit.normal * (supportDistance(body, body.orientation, hit.normal) + 1e-3);
    r.commands.push_back(addBody(std::move(body)));
    if (!ImGui::GetIO().KeyShift) state.tools.tool = Tool::Select;
}

/// The joint tool's second click (or the mouse before it): the first body, the point under the
/// mouse on another body, the ground or the work plane through the first body's centre.
std::optional<JointToolClick> jointToolClick(const AppState& state, const ViewportProjection& view,
                                             const glm::vec2& mouse) {
    const ToolState& t = state.tools;
    const World& world = *state.sim.world();
    const int first = state.index.body(t.firstBody);
    if (!t.haveFirst || first < 0 || static_cast<size_t>(first) >= world.bodies().size()) return std::nullopt;
    JointToolClick c;
    c.typeIndex = t.jointType;
    c.axis = t.axis;
    c.planeNormal = workPlaneNormal(t.plane, Vec3(state.camera.target - state.camera.eye()));
    c.first = JointToolFirst{first, t.firstPoint, t.firstNormal};
    c.anchorOnFirst = ImGui::GetIO().KeyShift;
    const Vec3 centre = world.bodies()[static_cast<size_t>(first)].pose.p;
    c.second = pickAnchor(view.ray(mouse), world.scene(), world.bodies(), first, centre, c.planeNormal);
    return c;
}

/// What the second click would make, kept for drawToolOverlay (shown before the click).
void updateJointPreview(AppState& state, const ViewportProjection& view, const glm::vec2& mouse) {
    ToolState& t = state.tools;
    t.preview.reset();
    t.previewKind = AnchorPick::Kind::None;
    const std::optional<JointToolClick> c = jointToolClick(state, view, mouse);
    JointPlacement p;
    if (!c || !planJoint(*c, state.sim.world()->scene(), state.sim.world()->bodies(), p)) return;
    t.preview = std::move(p);
    t.previewKind = c->second.kind;
}

void clickAddJoint(AppState& state, const ViewportProjection& view, const glm::vec2& mouse, UiRequests& r) {
    ToolState& t = state.tools;
    const World& world = *state.sim.world();
    if (!t.haveFirst) {
        const SurfaceHit hit = pickSurface(view.ray(mouse), world.scene(), world.bodies(), false);
        if (!hit.hit) {
            state.status.error("joint: first click the body to attach (the one that will hang or turn)");
            return;
        }
        t.haveFirst = true;
        t.firstBody = world.scene().bodies[static_cast<size_t>(hit.body)].name;
        t.firstPoint = hit.point;
        t.firstNormal = hit.normal;
        state.status.info("joint: now click where it hangs from: another body, the ground or the air");
        return;
    }
    const std::optional<JointToolClick> c = jointToolClick(state, view, mouse);
    JointPlacement p;
    if (!c || !planJoint(*c, world.scene(), world.bodies(), p)) {
        state.status.error("joint: click another body, the ground, or the air on the work plane");
        return;
    }
    t.haveFirst = false;
    t.preview.reset();
    r.commands.push_back(addJoint(std::move(p)));
    if (!ImGui::GetIO().KeyCtrl) t.tool = Tool::Select;  // Ctrl: make another joint
}

/// Starts pulling the dynamic body under the mouse through the spring (simulation running).
bool beginSpringDrag(AppState& state, const ViewportProjection& view, const glm::vec2& mouse) {
    World& world = *state.sim.world();
    const Ray ray = view.ray(mouse);
    const int body = pickBody(ray, world.scene(), world.bodies());
    if (body < 0 || !(world.inverseMass(body) > 0.0)) return false;
    const float t = rayCastBody(ray, world.scene().bodies[static_cast<size_t>(body)],
                                world.bodies()[static_cast<size_t>(body)].pose);
    const Vec3 point(ray.origin + ray.direction * t);
    state.sim.drag = makeDragSpring(world, body, point);
    state.tools.springPlanePoint = point;
    state.tools.springPlaneNormal = glm::normalize(Vec3(state.camera.target - state.camera.eye()));
    return true;
}

void updateSpringTarget(AppState& state, const Ray& ray) {
    const Vec3 n = state.tools.springPlaneNormal, o(ray.origin), d(ray.direction);
    const Real dn = glm::dot(d, n);
    if (std::abs(dn) < 1e-6) return;
    const Real s = glm::dot(state.tools.springPlanePoint - o, n) / dn;
    if (s > 0) state.sim.drag->target = o + s * d;
}

/// The gizmo drag in progress: issue the pose (or joint frames) for this mouse position.
void continueGizmoDrag(AppState& state, const Ray& ray, UiRequests& r) {
    ToolState& t = state.tools;
    const World& world = *state.sim.world();
    const Transform pose = updateGizmoDrag(*t.gizmoDrag, ray, ImGui::GetIO().KeyCtrl);
    if (t.dragKind == Selection::Kind::Body) {
        r.commands.push_back(setBodyPose(t.dragName, pose, true));
        return;
    }
    const int j = state.index.joint(t.dragName);
    if (j < 0) return;
    const Transform pose0 = bodyPose(world.bodies(), state.index.jointBody0(j));
    const Transform pose1 = bodyPose(world.bodies(), state.index.jointBody1(j));
    // Frame B moves with frame A, keeping its offset (a distance joint's two ends move together).
    const Transform delta = pose * t.gizmoDrag->start.inverse();
    r.commands.push_back(setJointWorldFrames(t.dragName, pose, delta * t.dragStartB, pose0, pose1, true));
}

/// The joint tool before its second click: the point picked on the first body, and where the
/// joint would go: its anchor, its axis (the hinge axis, the slide direction) and the arm from the
/// anchor to the body; on the work plane a square of it around the anchor.
void drawJointPreview(DebugDraw& lines, const AppState& state) {
    const ToolState& t = state.tools;
    constexpr auto kTop = DebugDraw::Layer::Overlay;
    const glm::vec3 first(t.firstPoint);
    lines.circle(first, glm::vec3(t.firstNormal), 0.06f, colors::kYellow, kTop, 20);
    if (!t.preview) return;
    const JointPlacement& p = *t.preview;
    const glm::vec3 anchor(p.worldFrame.p);
    const glm::quat q(p.worldFrame.q);
    const glm::vec3 axis = q * glm::vec3(1, 0, 0);
    const float size = std::max(0.25f, 0.25f * glm::length(first - anchor));
    lines.outlinedArrow(anchor - axis * size * 0.5f, anchor + axis * size, colors::kYellow);
    lines.line(anchor, glm::vec3(p.pose1.p), colors::kYellow, kTop);
    lines.circle(anchor, axis, size * 0.35f, colors::kYellow, kTop, 24);
    if (t.previewKind == AnchorPick::Kind::Plane) {
        const glm::vec3 u = q * glm::vec3(0, 1, 0), w = q * glm::vec3(0, 0, 1);
        const Color faint{0.98f, 0.85f, 0.25f, 0.35f};
        const float h = size * 2.0f;
        const glm::vec3 c[4] = {anchor + (u + w) * h, anchor + (u - w) * h, anchor - (u + w) * h,
                                anchor + (w - u) * h};
        for (int i = 0; i < 4; ++i) lines.line(c[i], c[(i + 1) % 4], faint, kTop);
    }
}

}  // namespace

Command duplicateCommand(const AppState& state, const Selection& what) {
    const Scene& scene = state.sim.scene();
    const std::string name = selectedName(scene, what);
    const World* world = state.sim.world();
    if (!what.isBody() || !world || static_cast<size_t>(what.index) >= world->bodies().size())
        return duplicateJoint(name);
    const Transform pose = world->bodies()[static_cast<size_t>(what.index)].pose;
    const glm::vec3 right = glm::cross(state.camera.target - state.camera.eye(), glm::vec3(0, 1, 0));
    return duplicateBody(name, pose,
                         besideOffset(scene.bodies[static_cast<size_t>(what.index)], pose.q, Vec3(right)));
}

bool selectionGizmoFrame(const AppState& state, Transform& pose) {
    const World* world = state.sim.world();
    if (!world || state.tools.tool != Tool::Select) return false;
    const Scene& scene = world->scene();
    const Selection& s = state.selection;
    if (s.isBody() && static_cast<size_t>(s.index) < scene.bodies.size()) {
        pose = world->bodies()[static_cast<size_t>(s.index)].pose;
        return true;
    }
    if (s.isJoint() && static_cast<size_t>(s.index) < scene.joints.size()) {
        pose = jointWorldFrames(state.index, world->bodies(), scene.joints[static_cast<size_t>(s.index)],
                                s.index)
                   .a;
        return true;
    }
    return false;
}

void handleViewportTools(AppState& state, const ScreenRect& rect, UiRequests& requests) {
    if (!state.sim.world()) return;
    const ImGuiIO& io = ImGui::GetIO();
    ToolState& t = state.tools;
    const ViewportProjection view = projectionFor(state, rect);
    const glm::vec2 mouse = mouseIn(rect);
    const Ray ray = view.ray(mouse);

    // Gestures in progress continue while the button is held, even outside the viewport.
    if (t.gizmoDrag) {
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            continueGizmoDrag(state, ray, requests);
        } else {
            t.gizmoDrag.reset();
            requests.endCoalescing = true;
        }
        return;
    }
    if (state.sim.drag) {
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            updateSpringTarget(state, ray);
        } else {
            if (leftWasClick()) select(requests, Selection::body(state.sim.drag->body));
            state.sim.drag.reset();
        }
        return;
    }

    const bool hovered = rect.contains(io.MousePos) && !io.WantCaptureMouse;
    Transform gizmoPose;
    const bool hasGizmo = selectionGizmoFrame(state, gizmoPose);
    t.hotHandle = hovered && hasGizmo ? hitGizmo(view, t.gizmo, glm::vec3(gizmoPose.p), mouse) : -1;
    if (t.tool == Tool::AddJoint && t.haveFirst && hovered)
        updateJointPreview(state, view, mouse);
    else
        t.preview.reset();
    if (!hovered) return;

    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        if (t.hotHandle >= 0) {
            t.gizmoDrag = beginGizmoDrag(t.gizmo, t.hotHandle, gizmoPose, gizmoPose.p, ray);
            t.dragKind = state.selection.kind;
            t.dragName = selectedName(state.sim.scene(), state.selection);
            if (state.selection.isJoint())
                t.dragStartB =
                    jointWorldFrames(state.index, state.sim.world()->bodies(),
                                     state.sim.scene().joints[static_cast<size_t>(state.selection.index)],
                                     state.selection.index)
                        .b;
            requests.endCoalescing = true;  // the drag is one undo step of its own
            return;
        }
        const bool overAnchor = state.view.showJoints &&
                                pickJointAnchor(view, state.sim.scene(), state.index,
                                                state.sim.world()->bodies(), mouse, kAnchorPickPixels) >= 0;
        if (t.tool == Tool::Select && state.sim.clock.playing && !overAnchor &&
            beginSpringDrag(state, view, mouse))
            return;
    }
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
        rect.contains(io.MouseClickedPos[ImGuiMouseButton_Left]) && leftWasClick()) {
        switch (t.tool) {
            case Tool::Select:
                clickSelect(state, view, mouse, requests);
                break;
            case Tool::AddBox:
                clickAddBody(state, ShapeType::Box, view, mouse, requests);
                break;
            case Tool::AddSphere:
                clickAddBody(state, ShapeType::Sphere, view, mouse, requests);
                break;
            case Tool::AddCapsule:
                clickAddBody(state, ShapeType::Capsule, view, mouse, requests);
                break;
            case Tool::AddJoint:
                clickAddJoint(state, view, mouse, requests);
                break;
        }
    }
}

void drawToolOverlay(DebugDraw& lines, const AppState& state, const ScreenRect& rect) {
    const ToolState& t = state.tools;
    Transform pose;
    if (selectionGizmoFrame(state, pose)) {
        const ViewportProjection view = projectionFor(state, rect);
        const glm::vec3 origin(t.gizmoDrag ? t.gizmoDrag->origin : pose.p);
        const int hot = t.gizmoDrag ? t.gizmoDrag->axis : t.hotHandle;
        // While dragging, the gizmo follows the object.
        drawGizmo(lines, t.gizmo, glm::vec3(pose.p), gizmoSize(view, origin), hot);
    }
    if (t.tool == Tool::AddJoint && t.haveFirst) drawJointPreview(lines, state);
}

}  // namespace jl::app
