// The main menu bar: File, Edit, Add, View, Simulation, Help.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "panels/panels.h"
#include "viewport/viewport_tools.h"

namespace jl::app {

namespace {

void fileMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("File")) return;
    if (ImGui::MenuItem("New", "Ctrl+N")) requests.newScene = true;
    if (ImGui::MenuItem("Open...", "Ctrl+O")) requests.openDialog = true;
#ifdef JOINTLAB_HAVE_INTEROP
    if (ImGui::MenuItem("Import MuJoCo/URDF model...")) state.importDialogRequested = true;
#endif
    if (ImGui::BeginMenu("Open recent", !state.files.recent.empty())) {
        for (const std::string& path : state.files.recent)
            if (ImGui::MenuItem(path.c_str())) requests.openPath = path;
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Save", "Ctrl+S")) requests.save = true;
    if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S")) requests.saveAsDialog = true;
    if (ImGui::MenuItem("Save snapshot with current state...")) requests.saveSnapshotDialog = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "A copy of the scene that also holds where the run is now: opening it\n"
            "continues from this moment, bit for bit. Your file is not changed.");
    if (ImGui::MenuItem("Save run with mouse input...")) requests.saveRunDialog = true;
    if (ImGui::MenuItem("Save run with its history...")) requests.saveHistoryDialog = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The scenario the run started from and NAME.history.json beside it: every step of the\n"
            "run and every branch. Opening that scenario brings the timeline back; play retakes it.");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The scenario the run started from (the last reset, open or edit) and every\n"
            "mouse drag since, as NAME.json and NAME.input.json. Replay it with\n"
            "jointlab run NAME.json --input NAME.input.json");
    if (ImGui::MenuItem("Reload from file", nullptr, false, !state.sim.sourcePath().empty()))
        requests.reload = true;
    if (ImGui::MenuItem("Built-in showcase")) requests.loadBuiltIn = true;
    if (ImGui::MenuItem("Open sweep results...")) state.sweep.openDialogRequested = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "The results of `jointlab sweep SPEC --out DIR` as a heat map or lines;\n"
            "a click on a run opens it in the editor");
    ImGui::Separator();
    if (ImGui::MenuItem("Save screenshot", "F12")) requests.saveScreenshot = true;
    if (ImGui::MenuItem("Export video...", nullptr, false,
                        state.sim.history().started() && !state.videoExport.running))
        openVideoExportDialog(state);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Record a range of the run's steps (the timeline's history) as an MP4, a GIF\n"
            "or a folder of PNG frames: the viewport with its overlays, optionally the plots.");
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) requests.quit = true;
    ImGui::EndMenu();
}

void editMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("Edit")) return;
    const Editor& editor = state.editor;
    const std::string undo = editor.canUndo() ? "Undo " + editor.undoLabel() : std::string("Undo");
    const std::string redo = editor.canRedo() ? "Redo " + editor.redoLabel() : std::string("Redo");
    if (ImGui::MenuItem(undo.c_str(), "Ctrl+Z", false, editor.canUndo())) requests.undo = true;
    if (ImGui::MenuItem(redo.c_str(), "Ctrl+Y", false, editor.canRedo())) requests.redo = true;
    ImGui::Separator();
    const Scene& scene = state.sim.scene();
    const std::string name = selectedName(scene, state.selection);
    const bool body = state.selection.isBody() && !name.empty(),
               joint = state.selection.isJoint() && !name.empty();
    if (ImGui::MenuItem("Duplicate", "Ctrl+D", false, body || joint))
        requests.commands.push_back(duplicateCommand(state, state.selection));
    if (ImGui::MenuItem("Delete", "Del", false, body || joint))
        requests.commands.push_back(body ? deleteBody(name) : deleteJoint(name));
    const World* world = state.sim.world();
    const bool broken = joint && world && world->jointState(state.selection.index).broken;
    if (ImGui::MenuItem("Restore broken joint", nullptr, false, broken)) {
        requests.restoreJoint = state.selection.index;  // the way last chosen in the Inspector
        requests.restoreMode = state.inspector.restoreMode;
        requests.restoreSteps = state.inspector.restoreSteps;
    }
    ImGui::EndMenu();
}

void addMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("Add")) return;
    // From the menu, a body goes under the camera's orbit centre, resting on the ground.
    const glm::vec3 at = state.camera.target;
    for (ShapeType shape : {ShapeType::Box, ShapeType::Sphere, ShapeType::Capsule, ShapeType::Cylinder,
                            ShapeType::Hull, ShapeType::Compound}) {
        const std::string label = std::string(kShapeTypeNames[static_cast<int>(shape)]);
        if (ImGui::MenuItem(label.c_str())) {
            BodyDesc b = makeBody(shape, Vec3(at.x, 0.0, at.z));
            b.position.y =
                std::max(static_cast<Real>(at.y), supportDistance(b, b.orientation, Vec3(0, 1, 0)) + 1e-3);
            requests.commands.push_back(addBody(std::move(b)));
        }
    }
    ImGui::Separator();
    if (ImGui::BeginMenu("Joint (then click A and B)")) {
        for (int i = 0; i < kJointTypeCount; ++i) {
            if (ImGui::MenuItem(jointTypeInfo(i).title)) {
                state.tools.jointType = i;
                state.tools.tool = Tool::AddJoint;
                state.tools.haveFirst = false;
            }
        }
        ImGui::EndMenu();
    }
    ImGui::EndMenu();
}

void jointDrawingMenu(ViewOptions& v) {
    ImGui::MenuItem("Contacts (points, normals, impulses)", nullptr, &v.showContacts);
    if (!ImGui::BeginMenu("Joints")) return;
    ImGui::MenuItem("Show joints", nullptr, &v.showJoints);
    ImGui::BeginDisabled(!v.showJoints);
    ImGui::MenuItem("Frames (X red, Y green, Z blue)", nullptr, &v.showJointFrames);
    ImGui::MenuItem("Anchors and connectors", nullptr, &v.showAnchors);
    ImGui::MenuItem("Error between anchors", nullptr, &v.showErrors);
    ImGui::MenuItem("Limits (magenta)", nullptr, &v.showLimits);
    ImGui::MenuItem("Drive targets (dashed frame)", nullptr, &v.showDriveTargets);
    ImGui::MenuItem("Force and torque arrows", nullptr, &v.showForces);
    ImGui::MenuItem("Colour by load / break threshold", nullptr, &v.showLoad);
    ImGui::Separator();
    ImGui::MenuItem("Limits, targets and forces of the selected joint only", nullptr,
                    &v.detailsForSelectedOnly);
    ImGui::Separator();
    ImGui::SetNextItemWidth(px(160.0f));
    ImGui::SliderFloat("frame size [m]", &v.frameScale, 0.05f, 2.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
    ImGui::MenuItem("Automatic arrow scale", nullptr, &v.autoArrowScale);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the weight of the heaviest body is %.1f m long (torque: that weight at 1 m)",
                          kWeightArrow);
    ImGui::BeginDisabled(v.autoArrowScale);
    ImGui::SetNextItemWidth(px(160.0f));
    ImGui::SliderFloat("force scale [m/N]", &v.forceScale, 1e-5f, 0.1f, "%.5f", ImGuiSliderFlags_Logarithmic);
    ImGui::SetNextItemWidth(px(160.0f));
    ImGui::SliderFloat("torque scale [m/(N·m)]", &v.torqueScale, 1e-5f, 0.5f, "%.5f",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::EndDisabled();
    ImGui::EndDisabled();
    ImGui::EndMenu();
}

void viewMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("View")) return;
    ImGui::MenuItem("Scene", nullptr, &state.panels.scene);
    ImGui::MenuItem("Solver", nullptr, &state.panels.simulation);
    ImGui::MenuItem("Inspector", nullptr, &state.panels.inspector);
    ImGui::MenuItem("Plots and rows", nullptr, &state.panels.plots);
    ImGui::Separator();
    ImGui::MenuItem("Grid", nullptr, &state.view.showGrid);
    ImGui::MenuItem("World axes", nullptr, &state.view.showAxes);
    ImGui::MenuItem("Orientation gizmo", nullptr, &state.view.showAxisGizmo);
    ImGui::MenuItem("Ghost of the other run (B, or the branch left)", nullptr, &state.view.showShadowRun);
    jointDrawingMenu(state.view);
    ImGui::Separator();
    if (ImGui::MenuItem("Frame selection / scene", "F")) requests.frameView = true;
    if (ImGui::MenuItem("Reset camera")) requests.resetCamera = true;
    ImGui::EndMenu();
}

void simulationMenu(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMenu("Simulation")) return;
    const SimClock& clock = state.sim.clock;
    if (ImGui::MenuItem(clock.playing ? "Pause" : "Play", "Space")) requests.togglePlay = true;
    if (ImGui::MenuItem("Single step", ".", false, !clock.playing)) ++requests.singleSteps;
    const bool hasStart = state.sim.startState().has_value();
    if (ImGui::MenuItem(hasStart ? "Reset to the saved state" : "Reset", "R")) requests.reset = true;
    if (hasStart) {
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "This file was saved mid-run: Reset returns to that moment (t = %.3f s),\n"
                "as reopening the file would.",
                state.sim.startState()->time);
        if (ImGui::MenuItem("Reset to the set-up (t = 0)")) requests.resetToSetUp = true;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Start from the bodies' initial poses instead, and forget the saved state:\n"
                "Save then writes the scene without it.");
    }
    if (ImGui::MenuItem("Compare...", nullptr, state.compare.open)) state.compare.open = !state.compare.open;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Run a second copy (B) from this step with settings changed, side by side");
    if (MujocoReference::available()) {
        if (ImGui::MenuItem("Reference: MuJoCo", nullptr, state.reference.enabled()))
            requests.toggleReference = true;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Run the scene in MuJoCo (joint coordinates: no joint error) beside JointLab from this "
                "step:\n"
                "its bodies draw as a green ghost; the Reference window plots each joint in both");
    }
    ImGui::Separator();
    if (ImGui::BeginMenu("Speed")) {
        const double speeds[] = {1.0 / 16, 1.0 / 8, 0.25, 0.5, 1.0, 2.0};
        const char* labels[] = {"1/16x", "1/8x", "1/4x", "1/2x", "1x (real time)", "2x"};
        for (int i = 0; i < 6; ++i) {
            if (ImGui::MenuItem(labels[i], nullptr, clock.timeScale == speeds[i])) {
                requests.setTimeScale = true;
                requests.timeScale = speeds[i];
            }
        }
        ImGui::EndMenu();
    }
    ImGui::EndMenu();
}

void helpMenu(AppState& state) {
    if (!ImGui::BeginMenu("Help")) return;
    ImGui::MenuItem("Controls", "F1", &state.panels.controls);
    ImGui::MenuItem("Joint types", nullptr, &state.panels.jointTypes);
    ImGui::MenuItem("About JointLab", nullptr, &state.panels.about);
    ImGui::EndMenu();
}

}  // namespace

void drawMainMenuBar(AppState& state, UiRequests& requests) {
    if (!ImGui::BeginMainMenuBar()) return;
    fileMenu(state, requests);
    editMenu(state, requests);
    addMenu(state, requests);
    viewMenu(state, requests);
    simulationMenu(state, requests);
    helpMenu(state);
    ImGui::EndMainMenuBar();
}

}  // namespace jl::app
