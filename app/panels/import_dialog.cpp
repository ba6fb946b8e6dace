// File > Import (import_dialog.h).
#include "panels/import_dialog.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include "interop/model_import.h"
#include "panels/panels.h"

namespace jl::app {

namespace {

constexpr const char* kPopupName = "Import model";
constexpr const char* kWarningPopup = "Imported, with parts left out";

void warningNotice(AppState& state) {
    if (!state.importWarning.empty() && !ImGui::IsPopupOpen(kWarningPopup)) ImGui::OpenPopup(kWarningPopup);
    centerNextWindow(px(620.0f));
    if (!ImGui::BeginPopupModal(kWarningPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(state.importWarning.c_str());
    ImGui::TextDisabled("The scene is untitled: File > Save asks where to write it.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (okButton()) {
        state.importWarning.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace

bool isImportPath(const std::string& path) {
    return interop::isImportablePath(path);
}

bool importModelFile(const std::string& path, Scene& out, std::string& warning, std::string& error) {
    return interop::importModel(path, out, warning, error);
}

void drawImportDialog(AppState& state, UiRequests& requests) {
    warningNotice(state);
    if (state.importDialogRequested) {
        ImGui::OpenPopup(kPopupName);
        state.importDialogRequested = false;
    }
    centerNextWindow(px(560.0f));
    if (!ImGui::BeginPopupModal(kPopupName, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::TextUnformatted("MuJoCo model (.xml) or URDF robot (.urdf):");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool entered =
        ImGui::InputText("##path", &state.importPathInput, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "The model becomes a new, untitled scene: Z-up turned to Y-up, bodies at their centres of mass, "
        "joints, couplings (joint equalities, <mimic>) and shapes. What does not map is listed once it is "
        "open.");
    ImGui::PopTextWrapPos();
    const bool valid = isImportPath(state.importPathInput);
    if (!state.importPathInput.empty() && !valid)
        ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.45f, 1.0f), "The file must end in .xml, .mjcf or .urdf.");
    ImGui::Spacing();
    ImGui::BeginDisabled(!valid);
    if (ImGui::Button("Import", ImVec2(px(120.0f), 0.0f)) || (entered && valid)) {
        requests.openPath = state.importPathInput;  // File > Open of a model file imports it
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (cancelButton()) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace jl::app
