// Scene panel: the bodies, each with the joints attached to it nested underneath, and a flat list
// of all joints. Click selects; right click renames, duplicates or deletes; broken joints are red;
// the filter box matches body names, joint names and joint types.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "panels/panels.h"
#include "panels/side_window.h"
#include "render/scene_draw.h"

namespace jl::app {

namespace {

const ImVec4 kBrokenText{1.0f, 0.45f, 0.4f, 1.0f};

bool containsNoCase(const std::string& text, const std::string& needle) {
    if (needle.empty()) return true;
    auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != text.end();
}

bool jointMatches(const JointDesc& j, const std::string& filter) {
    return containsNoCase(j.name, filter) || containsNoCase(j.typeInfo().name, filter);
}

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
    ImGui::SetNextItemWidth(200.0f);
    if (ImGui::InputText("rename", &state.renameBuffer, ImGuiInputTextFlags_EnterReturnsTrue)) {
        requests.commands.push_back(body ? renameBody(name, state.renameBuffer)
                                         : renameJoint(name, state.renameBuffer));
        ImGui::CloseCurrentPopup();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("type a new name and press Enter; joints follow a renamed body");
    if (ImGui::MenuItem("Duplicate"))
        requests.commands.push_back(body ? duplicateBody(name, Vec3(0.6, 0, 0)) : duplicateJoint(name));
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

void bodyTree(AppState& state, UiRequests& requests) {
    const Scene& scene = state.sim.scene();
    const std::string& filter = state.sceneFilter;
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (!ImGui::TreeNode("bodies", "Bodies (%d)", static_cast<int>(scene.bodies.size()))) return;
    for (size_t i = 0; i < scene.bodies.size(); ++i) {
        const BodyDesc& b = scene.bodies[i];
        const int index = static_cast<int>(i);
        std::vector<int> joints;
        bool anyJointMatches = false;
        for (size_t k = 0; k < scene.joints.size(); ++k) {
            const JointDesc& j = scene.joints[k];
            if (j.body0 != b.name && j.body1 != b.name) continue;
            joints.push_back(static_cast<int>(k));
            anyJointMatches = anyJointMatches || jointMatches(j, filter);
        }
        const bool bodyMatches = containsNoCase(b.name, filter);
        if (!bodyMatches && !anyJointMatches) continue;
        ImGui::PushID(index);
        colorSwatch(bodyColor(scene, index));
        ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_SpanAvailWidth;
        if (joints.empty()) flags |= ImGuiTreeNodeFlags_Leaf;
        if (state.selection.isBody(index)) flags |= ImGuiTreeNodeFlags_Selected;
        if (!filter.empty())
            ImGui::SetNextItemOpen(true);
        else
            ImGui::SetNextItemOpen(true, ImGuiCond_Once);  // joints visible under their bodies
        const bool open = ImGui::TreeNodeEx("body", flags, "%s", b.name.c_str());
        if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) {
            requests.select = true;
            requests.selection = Selection::body(index);
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s %s, %d joint(s)\nright click: rename, duplicate, delete",
                              kMotionTypeNames[static_cast<int>(b.motion)],
                              kShapeTypeNames[static_cast<int>(b.shape)], static_cast<int>(joints.size()));
        contextMenu(state, Selection::Kind::Body, b.name, requests);
        if (open) {
            for (int k : joints) {
                const JointDesc& j = scene.joints[static_cast<size_t>(k)];
                if (!bodyMatches && !jointMatches(j, filter)) continue;
                const std::string& other = j.body0 == b.name ? j.body1 : j.body0;
                jointItem(state, k, other.empty() ? std::string("world") : other, requests);
            }
            ImGui::TreePop();
        }
        ImGui::PopID();
    }
    ImGui::TreePop();
}

void jointList(AppState& state, UiRequests& requests) {
    const Scene& scene = state.sim.scene();
    if (!ImGui::TreeNode("joints", "All joints (%d)", static_cast<int>(scene.joints.size()))) return;
    ImGui::PushID("all");
    for (size_t i = 0; i < scene.joints.size(); ++i)
        if (jointMatches(scene.joints[i], state.sceneFilter))
            jointItem(state, static_cast<int>(i), "", requests);
    ImGui::PopID();
    ImGui::TreePop();
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
        bodyTree(state, requests);
        jointList(state, requests);
        ImGui::EndChild();
    }
    ImGui::End();
}

}  // namespace jl::app
