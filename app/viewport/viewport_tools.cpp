#include "viewport/viewport_tools.h"

#include <imgui.h>

#include "render/joint_frames.h"
#include "viewport/picking.h"

namespace jl::app {

namespace {

constexpr float kClickSlopSq = 9.0f;        ///< a press and release within 3 px is a click
constexpr float kAnchorPickPixels = 10.0f;  ///< joints are picked by their anchors within this

ViewportProjection projectionFor(const AppState& state, const ScreenRect& rect) {
    return ViewportProjection::of(state.camera, rect.width(), rect.height());
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
        const int joint = pickJointAnchor(view, world.scene(), world.bodies(), mouse, kAnchorPickPixels);
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
        state.message = "point at the ground or a body to place it";
        state.messageIsError = true;
        return;
    }
    BodyDesc body = makeBody(shape, hit.point);
    body.position = hit.point + hit.normal * (supportDistance(body, body.orientation, hit.normal) + 1e-3);
    r.commands.push_back(addBody(std::move(body)));
    if (!ImGui::GetIO().KeyShift) state.tools.tool = Tool::Select;
}

void clickAddJoint(AppState& state, const ViewportProjection& view, const glm::vec2& mouse, UiRequests& r) {
    ToolState& t = state.tools;
    const World& world = *state.sim.world();
    const SurfaceHit hit = pickSurface(view.ray(mouse), world.scene(), world.bodies(), false);
    if (!t.haveBodyA) {
        if (!hit.hit) {
            state.message = "joint: click body A first (the joint frame goes where you click it)";
            state.messageIsError = true;
            return;
        }
        t.haveBodyA = true;
        t.bodyA = world.scene().bodies[static_cast<size_t>(hit.body)].name;
        t.pointA = hit.point;
        t.normalA = hit.normal;
        state.message = "joint: now click body B, or empty space for the world";
        state.messageIsError = false;
        return;
    }
    const int a = world.scene().findBody(t.bodyA);
    t.haveBodyA = false;
    if (a < 0) return;
    const bool bIsBody = hit.hit && hit.body != a;
    JointPlacement p;
    p.typeIndex = t.jointType;
    p.body0 = t.bodyA;
    p.pose0 = world.bodies()[static_cast<size_t>(a)].pose;
    if (bIsBody) {
        p.body1 = world.scene().bodies[static_cast<size_t>(hit.body)].name;
        p.pose1 = world.bodies()[static_cast<size_t>(hit.body)].pose;
        p.pointOnBody1 = hit.point;
        p.hasPointOnBody1 = true;
    }
    const Vec3 pointB = bIsBody ? hit.point : t.pointA;
    const Vec3 axis = chooseJointAxis(t.axis, t.jointType, t.pointA, t.normalA, pointB, bIsBody);
    p.worldFrame = Transform{t.pointA, rotationFromXTo(axis)};
    r.commands.push_back(addJoint(std::move(p)));
    if (!ImGui::GetIO().KeyShift) t.tool = Tool::Select;
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
    const int j = world.scene().findJoint(t.dragName);
    if (j < 0) return;
    const JointDesc& joint = world.scene().joints[static_cast<size_t>(j)];
    const Transform pose0 = bodyPoseByName(world.scene(), world.bodies(), joint.body0);
    const Transform pose1 = bodyPoseByName(world.scene(), world.bodies(), joint.body1);
    // Frame B moves with frame A, keeping its offset (a distance joint's two ends move together).
    const Transform delta = pose * t.gizmoDrag->start.inverse();
    r.commands.push_back(setJointWorldFrames(t.dragName, pose, delta * t.dragStartB, pose0, pose1, true));
}

}  // namespace

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
        pose = jointWorldFrames(scene, world->bodies(), scene.joints[static_cast<size_t>(s.index)]).a;
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
    if (!hovered) return;

    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        if (t.hotHandle >= 0) {
            t.gizmoDrag = beginGizmoDrag(t.gizmo, t.hotHandle, gizmoPose, gizmoPose.p, ray);
            t.dragKind = state.selection.kind;
            t.dragName = selectedName(state.sim.scene(), state.selection);
            if (state.selection.isJoint())
                t.dragStartB =
                    jointWorldFrames(state.sim.scene(), state.sim.world()->bodies(),
                                     state.sim.scene().joints[static_cast<size_t>(state.selection.index)])
                        .b;
            requests.endCoalescing = true;  // the drag is one undo step of its own
            return;
        }
        const bool overAnchor =
            state.view.showJoints && pickJointAnchor(view, state.sim.scene(), state.sim.world()->bodies(),
                                                     mouse, kAnchorPickPixels) >= 0;
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
    if (t.tool == Tool::AddJoint && t.haveBodyA) {
        const glm::vec3 p(t.pointA);
        lines.circle(p, glm::vec3(t.normalA), 0.06f, colors::kYellow, DebugDraw::Layer::Overlay, 20);
        lines.line(p, p + glm::vec3(t.normalA) * 0.15f, colors::kYellow, DebugDraw::Layer::Overlay);
    }
}

}  // namespace jl::app
