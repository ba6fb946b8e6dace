// File > Open: a modal with a path field, the recent files, the scenarios shipped in
// assets/scenarios and the guided lessons in assets/scenarios/lessons.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "panels/panels.h"
#include "session/default_scene.h"

namespace jl::app {

namespace {

constexpr const char* kPopupName = "Open scenario";

/// The .json files next to the showcase scenario (or in its `sub` folder), sorted by name.
std::vector<std::string> shippedScenarios(const char* sub = "") {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    const std::string showcase = findShowcaseScenario();
    if (showcase.empty()) return files;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(fs::path(showcase).parent_path() / sub, ec))
        if (e.is_regular_file(ec) && e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

/// A list of files `height` px tall, each shown by its path (or `nameOnly`, its file name): a
/// click puts it in the path field, a double click opens it.
void fileList(const char* id, const std::vector<std::string>& files, float height, bool nameOnly,
              AppState& state, UiRequests& requests) {
    if (!ImGui::BeginListBox(id, ImVec2(-1.0f, height))) return;
    for (const std::string& f : files) {
        const std::string shown = nameOnly ? std::filesystem::path(f).filename().string() : f;
        if (ImGui::Selectable(shown.c_str(), state.openPathInput == f,
                              ImGuiSelectableFlags_AllowDoubleClick)) {
            state.openPathInput = f;
            if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
                requests.openPath = f;
                ImGui::CloseCurrentPopup();
            }
        }
    }
    ImGui::EndListBox();
}

}  // namespace

void drawOpenDialog(AppState& state, UiRequests& requests) {
    if (state.openDialogRequested) {
        ImGui::OpenPopup(kPopupName);
        state.openDialogRequested = false;
    }
    centerNextWindow(px(560.0f));
    if (!ImGui::BeginPopupModal(kPopupName, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;

#ifdef JOINTLAB_HAVE_INTEROP
    ImGui::TextUnformatted("Scenario file (.json), or a MuJoCo or URDF model to import (.xml, .urdf):");
#else
    ImGui::TextUnformatted("Scenario file (.json):");
#endif
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool entered =
        ImGui::InputText("##path", &state.openPathInput, ImGuiInputTextFlags_EnterReturnsTrue);

    if (!state.files.recent.empty()) {
        ImGui::Spacing();
        ImGui::TextDisabled("Recent:");
        const float rows = static_cast<float>(std::min<size_t>(state.files.recent.size(), 5));
        fileList("##recent", state.files.recent, ImGui::GetTextLineHeightWithSpacing() * rows + 6.0f, false,
                 state, requests);
    }

    for (const bool lessons : {false, true}) {
        const std::vector<std::string> shipped = shippedScenarios(lessons ? "lessons" : "");
        if (shipped.empty()) continue;
        ImGui::Spacing();
        ImGui::TextDisabled(lessons ? "Lessons (a guided tour, step by step, in the Lesson tab):"
                                    : "Examples:");
        const float rows = lessons ? 5.0f : 8.0f;
        fileList(lessons ? "##lessons" : "##examples", shipped, ImGui::GetTextLineHeightWithSpacing() * rows,
                 true, state, requests);
    }
    ImGui::Spacing();
    if ((ImGui::Button("Open", ImVec2(px(120.0f), 0.0f)) || entered) && !state.openPathInput.empty()) {
        requests.openPath = state.openPathInput;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (cancelButton()) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace jl::app
