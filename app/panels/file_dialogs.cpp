// File > Save As, Save snapshot and Save run (a path field), the unsaved-changes prompt before
// New, Open and Quit, the message of a file that could not be opened or saved, and the prompt
// that offers an autosave left by a crash.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cinttypes>
#include <ctime>
#include <filesystem>
#include <string>

#include "jointlab/history_io.h"
#include "panels/panels.h"

namespace jl::app {

namespace {

constexpr const char* kPromptPopup = "Unsaved changes";
constexpr const char* kErrorPopup = "File problem";
constexpr const char* kRecoveryPopup = "Recover unsaved work?";
const ImVec4 kWarning(1.0f, 0.7f, 0.3f, 1.0f);

/// The file name the dialog suggests: the document's, or NAME-snapshot.json / NAME-run.json.
std::string suggestedPath(const AppState& state, SaveKind kind) {
    const std::string& source = state.sim.sourcePath();
    if (kind == SaveKind::Scene) return source.empty() ? std::string("scenario.json") : source;
    const std::filesystem::path p =
        source.empty() ? std::filesystem::path("scenario.json") : std::filesystem::path(source);
    const char* suffix = kind == SaveKind::Snapshot  ? "-snapshot.json"
                         : kind == SaveKind::History ? "-history.json"
                                                     : "-run.json";
    return (p.parent_path() / (p.stem().string() + suffix)).string();
}

/// What the dialog writes, in a sentence or two.
void describeSave(const AppState& state, SaveKind kind) {
    const World* world = state.sim.world();
    ImGui::PushTextWrapPos(0.0f);
    if (kind == SaveKind::Snapshot && world) {
        ImGui::Text(
            "Saves the scene with the run as it is now (t = %.3f s, step %" PRId64
            "). Opening the snapshot continues from this moment, bit for bit. The scene's own file is "
            "not changed.",
            world->time(), world->stepCount());
    } else if (kind == SaveKind::Run && world) {
        const InputRecording run = state.sim.recording();
        ImGui::Text("Saves the scenario the run started from (step %" PRId64
                    ", the last reset, open or edit) and "
                    "the %zu mouse forces of the %" PRId64 " steps since, as two files:",
                    run.startStep, run.log.events().size(), run.endStep - run.startStep);
        const std::string& path = state.files.saveAsInput;
        ImGui::BulletText("%s", path.c_str());
        ImGui::BulletText("%s", inputLogPathFor(path).c_str());
        ImGui::TextDisabled("Replay: jointlab run %s --input %s", path.c_str(),
                            inputLogPathFor(path).c_str());
    } else if (kind == SaveKind::History && world) {
        const History& h = state.sim.history();
        size_t branches = 0;
        for (const History::Branch& b : h.branches()) branches += b.deleted ? 0 : 1;
        ImGui::Text("Saves the scenario the run started from and the run's history: steps %" PRId64
                    " to %" PRId64
                    " of the current branch, %zu branch(es), %.1f MB of keyframes, as two "
                    "files:",
                    h.firstStep(), h.lastStep(), branches, static_cast<double>(h.bytes()) / 1048576.0);
        const std::string& path = state.files.saveAsInput;
        ImGui::BulletText("%s", path.c_str());
        ImGui::BulletText("%s", historyPathFor(path).c_str());
        ImGui::TextDisabled(
            "Opening %s brings the timeline back; jointlab run %s --from-step K continues it.", path.c_str(),
            path.c_str());
    }
    ImGui::PopTextWrapPos();
}

void saveAsDialog(AppState& state, UiRequests& requests) {
    FileState& files = state.files;
    // One popup whose title follows the kind ("###" keeps its ID the same).
    const char* title = files.saveKind == SaveKind::Scene ? "Save scenario as###save dialog"
                        : files.saveKind == SaveKind::Snapshot
                            ? "Save snapshot with current state###save dialog"
                        : files.saveKind == SaveKind::History ? "Save run with its history###save dialog"
                                                              : "Save run with mouse input###save dialog";
    if (files.saveAsDialogRequested) {
        files.saveAsDialogRequested = false;
        files.saveAsInput = suggestedPath(state, files.saveKind);
        ImGui::OpenPopup(title);
    }
    centerNextWindow(px(600.0f));
    if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    describeSave(state, files.saveKind);
    ImGui::TextUnformatted("Save to file (.json), relative to the folder JointLab was started in:");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::IsWindowAppearing()) {
        ImGui::SetKeyboardFocusHere();
        state.saveBrowser.refresh();
    }
    const bool entered =
        ImGui::InputText("##save path", &files.saveAsInput, ImGuiInputTextFlags_EnterReturnsTrue);
    drawFolderBrowser(state.saveBrowser, files.saveAsInput);
    std::error_code ec;
    if (!files.saveAsInput.empty() && std::filesystem::exists(files.saveAsInput, ec))
        ImGui::TextColored(kWarning, "This file exists and will be replaced (the old one is kept as .bak).");
    ImGui::Spacing();
    if ((ImGui::Button("Save", ImVec2(px(120.0f), 0.0f)) || entered) && !files.saveAsInput.empty()) {
        requests.saveAsPath = files.saveAsInput;
        requests.saveAsKind = files.saveKind;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (cancelButton()) {
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
    centerNextWindow(px(460.0f));
    if (!ImGui::BeginPopupModal(kPromptPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    const std::string& path = state.sim.sourcePath();
    const std::string name =
        path.empty() ? std::string("the untitled scene") : std::filesystem::path(path).filename().string();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("Save the changes to %s before %s?", name.c_str(), pendingWhat(files.pending));
    ImGui::TextDisabled("Without saving, the edits are lost.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button("Save", ImVec2(px(110.0f), 0.0f))) {
        requests.promptSave = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Don't save", ImVec2(px(110.0f), 0.0f))) {
        requests.promptDiscard = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (cancelButton(110.0f)) {
        requests.promptCancel = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

void errorMessage(AppState& state) {
    FileState& files = state.files;
    if (!files.errorPopup.empty() && !ImGui::IsPopupOpen(kErrorPopup)) ImGui::OpenPopup(kErrorPopup);
    centerNextWindow(px(560.0f));
    if (!ImGui::BeginPopupModal(kErrorPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.45f, 1.0f), "%s", files.errorPopup.c_str());
    ImGui::TextDisabled("The scene you were working on is unchanged.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (okButton()) {
        files.errorPopup.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

/// "3 minutes ago", "2 hours ago", "yesterday"-ish, from seconds.
std::string ago(double seconds) {
    if (seconds < 90.0) return "just now";
    if (seconds < 90.0 * 60.0)
        return std::to_string(static_cast<long>(seconds / 60.0 + 0.5)) + " minutes ago";
    if (seconds < 36.0 * 3600.0)
        return std::to_string(static_cast<long>(seconds / 3600.0 + 0.5)) + " hours ago";
    return std::to_string(static_cast<long>(seconds / 86400.0 + 0.5)) + " days ago";
}

void recoveryPrompt(AppState& state, UiRequests& requests) {
    FileState& files = state.files;
    if (files.recoveries.empty()) return;
    // Another modal (a load error) goes first; this one opens when the way is clear.
    if (!ImGui::IsPopupOpen(kRecoveryPopup) && !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId))
        ImGui::OpenPopup(kRecoveryPopup);
    centerNextWindow(px(620.0f));
    if (!ImGui::BeginPopupModal(kRecoveryPopup, nullptr, ImGuiWindowFlags_NoSavedSettings)) return;
    const RecoveryInfo& r = files.recoveries.front();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted("JointLab did not close normally last time. It had autosaved your work:");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    const std::string name = r.document.empty() ? std::string("untitled scene")
                                                : std::filesystem::path(r.document).filename().string();
    char when[64] = "unknown time";
    const std::time_t t = static_cast<std::time_t>(r.autosavedAt);
    std::tm local{};
    if (r.autosavedAt > 0 && localtime_r(&t, &local))
        std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &local);
    if (ImGui::BeginTable("recovery", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed, px(110.0f));
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        auto row = [](const char* label, const std::string& value, bool strong) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextDisabled("%s", label);
            ImGui::TableSetColumnIndex(1);
            ImGui::PushTextWrapPos(0.0f);
            if (strong)
                ImGui::TextUnformatted(value.c_str());
            else
                ImGui::TextDisabled("%s", value.c_str());
            ImGui::PopTextWrapPos();
        };
        row("Scene", name, true);
        row("File", r.document.empty() ? std::string("never saved") : r.document, false);
        row("Autosaved",
            std::string(when) + "  (" + ago(files.nowSeconds - static_cast<double>(r.autosavedAt)) + ")",
            true);
        char run[160];
        std::snprintf(run, sizeof run, "t = %.2f s (step %" PRId64 "), %zu bodies, %zu joints", r.time,
                      r.step, r.bodies, r.joints);
        row("Simulation", run, false);
        ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "Recover opens the autosave, running from where it was; %s is not changed until you save. "
        "Discard deletes the autosave. Keep for later asks again at the next start.",
        r.document.empty() ? "nothing on disk" : name.c_str());
    if (files.recoveryCount > 1)
        ImGui::TextColored(kWarning, "Autosave %zu of %zu (newest first).",
                           files.recoveryCount - files.recoveries.size() + 1, files.recoveryCount);
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button("Recover", ImVec2(px(130.0f), 0.0f))) {
        requests.recover = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Discard", ImVec2(px(130.0f), 0.0f))) {
        requests.discardRecovery = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Keep for later", ImVec2(px(130.0f), 0.0f)) || escapePressed()) {
        requests.keepRecoveries = true;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace

void drawFileDialogs(AppState& state, UiRequests& requests) {
    saveAsDialog(state, requests);
    unsavedPrompt(state, requests);
    errorMessage(state);
    recoveryPrompt(state, requests);
}

}  // namespace jl::app
