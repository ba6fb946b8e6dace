// Scene panel: the bodies, each with the joints attached to it nested underneath, and a flat list
// of all joints. Click selects; right click renames, duplicates or deletes; broken joints are red;
// the filter box matches body names, joint names and joint types. The rows come from the
// SceneTree (session/scene_tree.h), rebuilt only when the scene or the filter changes, and only
// the rows on screen are drawn (ImGuiListClipper): the panel costs the same with 10 000 bodies.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

#include "panels/panels.h"
#include "panels/side_window.h"
#include "render/scene_draw.h"
#include "viewport/viewport_tools.h"

namespace jl::app {

namespace {

const ImVec4 kBrokenText{1.0f, 0.45f, 0.4f, 1.0f};

void colorSwatch(const glm::vec4& c) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float s = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(
        ImVec2(p.x, p.y + s * 0.2f), ImVec2(p.x + s * 0.6f, p.y + s * 0.8f),
        ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)), 2.0f);
    ImGui::Dummy(ImVec2(s * 0.6f, s));
    ImGui::SameLine();
}

/// Right-click menu of a body or joint: rename (Enter applies), duplicate, delete.
void contextMenu(AppState& state, Selection::Kind kind, const std::string& name, UiRequests& requests) {
    if (!ImGui::BeginPopupContextItem("context")) return;
    const bool body = kind == Selection::Kind::Body;
    if (ImGui::IsWindowAppearing()) state.renameBuffer = name;
    ImGui::TextDisabled("%s %s", body ? "body" : "joint", name.c_str());
    ImGui::SetNextItemWidth(px(200.0f));
    if (ImGui::InputText("rename", &state.renameBuffer, ImGuiInputTextFlags_EnterReturnsTrue)) {
        requests.commands.push_back(body ? renameBody(name, state.renameBuffer)
                                         : renameJoint(name, state.renameBuffer));
        ImGui::CloseCurrentPopup();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("type a new name and press Enter; joints follow a renamed body");
    if (ImGui::MenuItem("Duplicate"))
        requests.commands.push_back(duplicateCommand(state, findSelection(state.sim.scene(), kind, name)));
    if (ImGui::MenuItem(body ? "Delete (with its joints)" : "Delete"))
        requests.commands.push_back(body ? deleteBody(name) : deleteJoint(name));
    ImGui::EndPopup();
}

void jointItem(AppState& state, int index, const std::string& otherSide, UiRequests& requests) {
    const JointDesc& j = state.sim.scene().joints[static_cast<size_t>(index)];
    const World* world = state.sim.world();
    const bool broken = world && world->jointState(index).broken;
    ImGui::PushID(index);
    if (broken) ImGui::PushStyleColor(ImGuiCol_Text, kBrokenText);
    ImGuiTreeNodeFlags flags =
        ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen | ImGuiTreeNodeFlags_SpanAvailWidth;
    if (state.selection.isJoint(index)) flags |= ImGuiTreeNodeFlags_Selected;
    const float nameStartX = ImGui::GetCursorPosX() + ImGui::GetTreeNodeToLabelSpacing();
    ImGui::TreeNodeEx("joint", flags, "%s%s", j.name.c_str(), broken ? "  (broken)" : "");
    const float nameEndX = nameStartX + ImGui::CalcTextSize(j.name.c_str()).x +
                           (broken ? ImGui::CalcTextSize("  (broken)").x : 0.0f);
    if (broken) ImGui::PopStyleColor();
    if (ImGui::IsItemClicked()) {
        requests.select = true;
        requests.selection = Selection::joint(index);
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s%s\n%s - %s\nright click: rename, duplicate, delete", j.typeInfo().title,
                          broken ? " (broken)" : "", bodyDisplayName(j.body0), bodyDisplayName(j.body1));
    contextMenu(state, Selection::Kind::Joint, j.name, requests);
    // Right-aligned "type - other body"; shortened to the type, or left out, when the name
    // would otherwise run into it in a narrow panel (the tooltip has it all).
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2.0f;
    const float rightEdge = ImGui::GetContentRegionMax().x;
    std::string right = std::string(j.typeInfo().name) + (otherSide.empty() ? "" : " - " + otherSide);
    if (nameEndX + gap + ImGui::CalcTextSize(right.c_str()).x > rightEdge) right = j.typeInfo().name;
    if (nameEndX + gap + ImGui::CalcTextSize(right.c_str()).x <= rightEdge) {
        ImGui::SameLine(rightEdge - ImGui::CalcTextSize(right.c_str()).x);
        ImGui::TextDisabled("%s", right.c_str());
    }
    ImGui::PopID();
}

void bodyRow(AppState& state, int index, UiRequests& requests) {
    const Scene& scene = state.sim.scene();
    const BodyDesc& b = scene.bodies[static_cast<size_t>(index)];
    const int joints = static_cast<int>(state.index.jointsOf(index).size());
    ImGui::PushID(index);
    colorSwatch(bodyColor(scene, state.index, index));
    ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth |
                               ImGuiTreeNodeFlags_NoTreePushOnOpen;
    if (joints == 0) flags |= ImGuiTreeNodeFlags_Leaf;
    if (state.selection.isBody(index)) flags |= ImGuiTreeNodeFlags_Selected;
    const bool wasOpen = !state.sceneTree.folded.count(b.name) || !state.sceneFilter.empty();
    ImGui::SetNextItemOpen(wasOpen);
    const bool open = ImGui::TreeNodeEx("body", flags, "%s", b.name.c_str());
    if (open != wasOpen && state.sceneFilter.empty()) {
        if (open)
            state.sceneTree.folded.erase(b.name);
        else
            state.sceneTree.folded.insert(b.name);
        state.sceneTree.invalidate();
    }
    if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) {
        requests.select = true;
        requests.selection = Selection::body(index);
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s %s, %d joint(s)\nright click: rename, duplicate, delete",
                          kMotionTypeNames[static_cast<int>(b.motion)],
                          kShapeTypeNames[static_cast<int>(b.shape)], joints);
    contextMenu(state, Selection::Kind::Body, b.name, requests);
    ImGui::PopID();
}

/// A header row ("Bodies (10)"): opening or closing it rebuilds the rows.
void headerRow(const char* id, const char* label, int count, bool& open, SceneTree& tree) {
    ImGui::SetNextItemOpen(open);
    const bool now = ImGui::TreeNodeEx(id, ImGuiTreeNodeFlags_NoTreePushOnOpen, "%s (%d)", label, count);
    if (now != open) {
        open = now;
        tree.invalidate();
    }
}

/// The rows on screen only: every row is one line of the same height.
void treeRows(AppState& state, UiRequests& requests) {
    const Scene& scene = state.sim.scene();
    SceneTree& tree = state.sceneTree;
    tree.sync(scene, state.index, state.sim.sceneRevision(), state.sceneFilter);
    const float indent = ImGui::GetStyle().IndentSpacing;
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(tree.rows.size()));
    while (clipper.Step()) {
        for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
            const SceneTreeRow row = tree.rows[static_cast<size_t>(r)];
            switch (row.kind) {
                case SceneTreeRow::Kind::BodiesHeader:
                    headerRow("##bodies", "Bodies", static_cast<int>(scene.bodies.size()), tree.bodiesOpen,
                              tree);
                    break;
                case SceneTreeRow::Kind::JointsHeader:
                    headerRow("##joints", "All joints", static_cast<int>(scene.joints.size()),
                              tree.jointsOpen, tree);
                    break;
                case SceneTreeRow::Kind::Body:
                    ImGui::Indent(indent);
                    bodyRow(state, row.index, requests);
                    ImGui::Unindent(indent);
                    break;
                case SceneTreeRow::Kind::BodyJoint: {
                    const int other = state.index.jointBody0(row.index) == row.body
                                          ? state.index.jointBody1(row.index)
                                          : state.index.jointBody0(row.index);
                    ImGui::Indent(indent * 2.0f);
                    ImGui::PushID(row.body);  // a joint is listed under both its bodies
                    jointItem(
                        state, row.index,
                        other < 0 ? std::string("world") : scene.bodies[static_cast<size_t>(other)].name,
                        requests);
                    ImGui::PopID();
                    ImGui::Unindent(indent * 2.0f);
                    break;
                }
                case SceneTreeRow::Kind::Joint:
                    ImGui::Indent(indent);
                    ImGui::PushID("all");
                    jointItem(state, row.index, "", requests);
                    ImGui::PopID();
                    ImGui::Unindent(indent);
                    break;
            }
        }
    }
}

/// The scene's description, folded away by default so that the tree gets the panel's height: a
/// closed "About this scene" shows it on hover; open, it takes at most a few lines and scrolls.
void sceneDescription(const std::string& description) {
    if (description.empty()) return;
    const bool open = ImGui::TreeNodeEx("##about", ImGuiTreeNodeFlags_NoTreePushOnOpen, "About this scene");
    if (!open && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
        ImGui::TextUnformatted(description.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    if (!open) return;
    const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
    const float text = ImGui::CalcTextSize(description.c_str(), nullptr, false, width).y;
    const float height = std::min(text, 5.0f * ImGui::GetTextLineHeightWithSpacing()) + 4.0f;
    ImGui::BeginChild("##description", ImVec2(0.0f, height), false);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", description.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

}  // namespace

void drawScenePanel(AppState& state, UiRequests& requests) {
    if (!state.panels.scene) return;
    const ImGuiIO& io = ImGui::GetIO();
    const UiLayout& l = state.layout;
    const float columnHeight = io.DisplaySize.y - l.menuBarHeight - l.statusBarHeight;
    const float height = columnHeight - l.simulationHeight;
    pinNextWindow(0.0f, l.menuBarHeight, l.leftWidth, height);
    if (ImGui::Begin("Scene", &state.panels.scene, kPinnedPanelFlags)) {
        const std::string& path = state.sim.sourcePath();
        const std::string title =
            (path.empty() ? std::string("untitled") : std::filesystem::path(path).filename().string()) +
            (state.editor.dirty() ? " (modified)" : "");
        ImGui::TextUnformatted(title.c_str());
        if (!path.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", path.c_str());
        sceneDescription(state.sim.scene().description);
        ImGui::SetNextItemWidth(-FLT_MIN);
        ImGui::InputTextWithHint("##filter", "filter by name or joint type", &state.sceneFilter);
        ImGui::Separator();
        // The tree scrolls on its own under the title and the filter, and has the rest of the panel.
        ImGui::BeginChild("##tree", ImVec2(0.0f, 0.0f), false);
        treeRows(state, requests);
        ImGui::EndChild();
    }
    ImGui::End();
}

}  // namespace jl::app
