// File > Save As (a path field), the unsaved-changes prompt before New, Open and Quit, and the
// message of a file that could not be opened or saved.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <filesystem>
#include <string>

#include "panels/panels.h"

namespace jl::app {

namespace {

constexpr const char* kSaveAsPopup = "Save scenario as";
constexpr const char* kPromptPopup = "Unsaved changes";
constexpr const char* kErrorPopup = "File problem";

void centerNext(float width) {
    const ImVec2 center(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f);
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Appearing);
}

bool escapePressed() {
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
}

void saveAsDialog(AppState& state, UiRequests& requests) {
    FileState& files = state.files;
    if (files.saveAsDialogRequested) {
        files.saveAsDialogRequested = false;
        if (files.saveAsInput.empty())
            files.saveAsInput =
                state.sim.sourcePath().empty() ? std::string("scenario.json") : state.sim.sourcePath();
        ImGui::OpenPopup(kSaveAsPopup);
    }
    centerNext(560.0f);
    if (!ImGui::BeginPopupModal(kSaveAsPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::TextUnformatted("Save to file (.json), relative to the folder JointLab was started in:");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    const bool entered =
        ImGui::InputText("##save path", &files.saveAsInput, ImGuiInputTextFlags_EnterReturnsTrue);
    std::error_code ec;
    if (!files.saveAsInput.empty() && std::filesystem::exists(files.saveAsInput, ec))
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "This file exists and will be replaced.");
    ImGui::Spacing();
    if ((ImGui::Button("Save", ImVec2(120.0f, 0.0f)) || entered) && !files.saveAsInput.empty()) {
        requests.saveAsPath = files.saveAsInput;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(120.0f, 0.0f)) || escapePressed()) {
        requests.promptCancel = true;  // a New / Open / Quit waiting for this save does not happen
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

const char* pendingWhat(PendingAction a) {
    switch (a) {
        case PendingAction::New:
            return "starting a new scene";
        case PendingAction::Open:
            return "opening another file";
        case PendingAction::Showcase:
            return "opening the showcase";
        case PendingAction::Quit:
            return "quitting";
        case PendingAction::None:
            break;
    }
    return "continuing";
}

void unsavedPrompt(AppState& state, UiRequests& requests) {
    FileState& files = state.files;
    if (files.promptRequested) {
        files.promptRequested = false;
        ImGui::OpenPopup(kPromptPopup);
    }
    centerNext(460.0f);
    if (!ImGui::BeginPopupModal(kPromptPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    const std::string& path = state.sim.sourcePath();
    const std::string name =
        path.empty() ? std::string("the untitled scene") : std::filesystem::path(path).filename().string();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("Save the changes to %s before %s?", name.c_str(), pendingWhat(files.pending));
    ImGui::TextDisabled("Without saving, the edits are lost.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button("Save", ImVec2(110.0f, 0.0f))) {
        requests.promptSave = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Don't save", ImVec2(110.0f, 0.0f))) {
        requests.promptDiscard = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(110.0f, 0.0f)) || escapePressed()) {
        requests.promptCancel = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void errorMessage(AppState& state) {
    FileState& files = state.files;
    if (!files.errorPopup.empty() && !ImGui::IsPopupOpen(kErrorPopup)) ImGui::OpenPopup(kErrorPopup);
    centerNext(560.0f);
    if (!ImGui::BeginPopupModal(kErrorPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.45f, 1.0f), "%s", files.errorPopup.c_str());
    ImGui::TextDisabled("The scene you were working on is unchanged.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button("OK", ImVec2(120.0f, 0.0f)) || escapePressed() ||
        ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)) {
        files.errorPopup.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace

void drawFileDialogs(AppState& state, UiRequests& requests) {
    saveAsDialog(state, requests);
    unsavedPrompt(state, requests);
    errorMessage(state);
}

}  // namespace jl::app
