#include "viewport/viewport.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>

#include "shell/layout.h"
#include "viewport/picking.h"
#include "viewport/viewport_tools.h"

namespace jl::app {

// [SECTION] Geometry

ScreenRect viewportScreenRect(const UiLayout& layout, const ImVec2& displaySize) {
    ScreenRect r;
    r.min = ImVec2(layout.leftWidth, layout.menuBarHeight);
    r.max = ImVec2(std::max(r.min.x + 1.0f, displaySize.x - layout.rightWidth),
                   std::max(r.min.y + 1.0f, displaySize.y - layout.statusBarHeight - layout.bottomHeight));
    return r;
}

PixelRect toFramebufferRect(const ScreenRect& rect, const ImVec2& displaySize,
                            const ImVec2& framebufferScale) {
    PixelRect p;
    p.x = static_cast<int>(std::lround(rect.min.x * framebufferScale.x));
    p.y = static_cast<int>(std::lround((displaySize.y - rect.max.y) * framebufferScale.y));
    p.width = std::max(1, static_cast<int>(std::lround(rect.width() * framebufferScale.x)));
    p.height = std::max(1, static_cast<int>(std::lround(rect.height() * framebufferScale.y)));
    return p;
}

// [SECTION] Input

void handleViewportMouse(AppState& state, const ScreenRect& rect, UiRequests& requests) {
    ImGuiIO& io = ImGui::GetIO();
    // The left button belongs to the current tool (select, gizmo, mouse spring, add, joint).
    handleViewportTools(state, rect, requests);
    if (io.WantCaptureMouse) return;
    const bool hovered = rect.contains(io.MousePos);
    OrbitCamera& camera = state.camera;

    // Drags continue while the button is held, even if the mouse leaves the viewport; they start
    // only inside it (io.MouseClickedPos holds where the button went down).
    auto dragging = [&](int button) {
        return ImGui::IsMouseDown(button) && rect.contains(io.MouseClickedPos[button]);
    };
    const ImVec2 d = io.MouseDelta;
    const bool panWithRight = io.KeyShift;
    if (dragging(ImGuiMouseButton_Right) && (d.x != 0.0f || d.y != 0.0f)) {
        if (panWithRight)
            camera.pan(d.x, d.y, rect.width(), rect.height());
        else
            camera.orbit(d.x, d.y);
    }
    if (dragging(ImGuiMouseButton_Middle) && (d.x != 0.0f || d.y != 0.0f))
        camera.pan(d.x, d.y, rect.width(), rect.height());
    if (hovered && io.MouseWheel != 0.0f) camera.zoom(io.MouseWheel);
}

void handleShortcuts(AppState& state, UiRequests& requests) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureKeyboard) return;
    auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
    if (io.KeyCtrl) {
        if (pressed(GLFW_KEY_Q)) requests.quit = true;
        if (pressed(GLFW_KEY_N)) requests.newScene = true;
        if (pressed(GLFW_KEY_O)) requests.openDialog = true;
        if (pressed(GLFW_KEY_S)) (io.KeyShift ? requests.saveAsDialog : requests.save) = true;
        if (ImGui::IsKeyPressed(GLFW_KEY_Z, true)) (io.KeyShift ? requests.redo : requests.undo) = true;
        if (ImGui::IsKeyPressed(GLFW_KEY_Y, true)) requests.redo = true;
        if (pressed(GLFW_KEY_D) && !selectedName(state.sim.scene(), state.selection).empty())
            requests.commands.push_back(duplicateCommand(state, state.selection));
        return;
    }
    if (pressed(GLFW_KEY_F)) requests.frameView = true;
    if (pressed(GLFW_KEY_SPACE)) requests.togglePlay = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_PERIOD, true) || ImGui::IsKeyPressed(GLFW_KEY_N, true))
        ++requests.singleSteps;
    if (pressed(GLFW_KEY_R)) requests.reset = true;
    // The stepper (Step tab), while paused: inside the next step, a row or a sweep at a time.
    if (ImGui::IsKeyPressed(GLFW_KEY_F11, true))
        requests.stepper = io.KeyShift ? StepperAction::Finish : StepperAction::NextRow;
    if (ImGui::IsKeyPressed(GLFW_KEY_F10, true)) requests.stepper = StepperAction::NextSweep;
    // The timeline, while paused: step back and forth through the history, Home and End.
    if (!state.sim.clock.playing && state.sim.world()) {
        const History& h = state.sim.history();
        const int64_t now = state.sim.world()->stepCount();
        if (ImGui::IsKeyPressed(GLFW_KEY_LEFT, true) && now > h.firstStep()) requests.seekStep = now - 1;
        if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT, true)) {
            if (now < h.lastStep())
                requests.seekStep = now + 1;
            else
                ++requests.singleSteps;
        }
        if (pressed(GLFW_KEY_HOME)) requests.seekStep = h.firstStep();
        if (pressed(GLFW_KEY_END)) requests.seekStep = h.lastStep();
    }
    if (pressed(GLFW_KEY_F12)) requests.saveScreenshot = true;
    if (pressed(GLFW_KEY_W)) {
        state.tools.tool = Tool::Select;
        state.tools.gizmo = GizmoMode::Move;
    }
    if (pressed(GLFW_KEY_E)) {
        state.tools.tool = Tool::Select;
        state.tools.gizmo = GizmoMode::Rotate;
    }
    if (pressed(GLFW_KEY_J)) {
        state.tools.tool = Tool::AddJoint;
        state.tools.haveFirst = false;
    }
    if (pressed(GLFW_KEY_DELETE) || pressed(GLFW_KEY_BACKSPACE)) {
        const std::string name = selectedName(state.sim.scene(), state.selection);
        if (state.selection.isBody() && !name.empty()) requests.commands.push_back(deleteBody(name));
        if (state.selection.isJoint() && !name.empty()) requests.commands.push_back(deleteJoint(name));
    }
    if (pressed(GLFW_KEY_ESCAPE)) {
        // First leave the tool or the half-made joint, then clear the selection.
        if (state.tools.tool != Tool::Select) {
            state.tools.tool = Tool::Select;
            state.tools.haveFirst = false;
        } else {
            requests.select = true;
            requests.selection = Selection{};
        }
    }
}

// [SECTION] Overlays

namespace {

/// Orientation triad: the world axes as the camera sees them, in the viewport's lower-left corner.
void drawAxisGizmo(ImDrawList* draw, const OrbitCamera& camera, const ScreenRect& rect, float scale) {
    const float size = 34.0f * scale;
    const ImVec2 origin(rect.min.x + 18.0f * scale + size, rect.max.y - 18.0f * scale - size);
    const glm::mat3 view(camera.view());
    struct Axis {
        glm::vec3 direction;
        ImU32 color;
        const char* label;
    };
    Axis axes[3] = {{{1, 0, 0}, IM_COL32(230, 70, 60, 255), "X"},
                    {{0, 1, 0}, IM_COL32(90, 205, 80, 255), "Y"},
                    {{0, 0, 1}, IM_COL32(70, 130, 245, 255), "Z"}};
    // Draw the axis pointing away from the viewer first (view-space z towards the viewer).
    std::sort(std::begin(axes), std::end(axes),
              [&](const Axis& a, const Axis& b) { return (view * a.direction).z < (view * b.direction).z; });
    draw->AddCircleFilled(origin, size + 12.0f * scale, IM_COL32(20, 22, 26, 110));
    for (const Axis& a : axes) {
        glm::vec3 v = view * a.direction;
        ImVec2 tip(origin.x + v.x * size, origin.y - v.y * size);
        draw->AddLine(origin, tip, a.color, 2.5f * scale);
        draw->AddCircleFilled(tip, 8.0f * scale, a.color);
        ImVec2 textSize = ImGui::CalcTextSize(a.label);
        draw->AddText(ImVec2(tip.x - textSize.x * 0.5f, tip.y - textSize.y * 0.5f), IM_COL32(15, 15, 15, 255),
                      a.label);
    }
}

}  // namespace

void drawViewportOverlay(const AppState& state, const ScreenRect& rect, const ScreenRect& toolbar) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    const float scale = state.layout.scale;
    if (state.view.showAxisGizmo) drawAxisGizmo(draw, state.camera, rect, scale);

    // An export replays the history paused, step by step: its frames are not "paused".
    if (!state.sim.clock.playing && !state.videoExport.running) {
        const char* badge = "PAUSED";
        const ImVec2 textSize = ImGui::CalcTextSize(badge);
        const ImVec2 pad(10.0f * scale, 4.0f * scale);
        // Top right (the tool bar holds the top left), or under the tool bar where it reaches there.
        auto panel = [](const ScreenRect& r) { return PanelRect{r.min.x, r.min.y, r.width(), r.height()}; };
        const PanelRect box = pausedBadgeRect(
            panel(rect), panel(toolbar),
            PanelRect{0.0f, 0.0f, textSize.x + 2.0f * pad.x, textSize.y + 2.0f * pad.y}, 8.0f * scale);
        draw->AddRectFilled(ImVec2(box.x, box.y), ImVec2(box.right(), box.bottom()),
                            IM_COL32(200, 120, 30, 220), 4.0f * scale);
        draw->AddText(ImVec2(box.x + pad.x, box.y + pad.y), IM_COL32(255, 255, 255, 255), badge);
    }
}

}  // namespace jl::app
