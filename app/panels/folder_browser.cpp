// Save As's folder browser (JointLab's own, in Dear ImGui; no desktop dialog library is packaged
// for ImGui 1.86): the folder of the path being typed, with Up and Home, its sub-folders and its
// scenario files. A click on a folder goes into it, on a file takes its name; the path field
// above stays the one truth, so typing a path works as before. The listing is read when the
// folder changes (session/folder_listing.h), not every frame.
#include <imgui.h>

#include <cstdlib>

#include "panels/panels.h"

namespace jl::app {

void drawFolderBrowser(FolderBrowserState& browser, std::string& path) {
    const std::string folder = startFolder(path);
    std::string name = fileNameOf(path);
    if (name.empty()) name = "scenario.json";
    const FolderListing& listing = browser.show(folder, ".json");
    if (ImGui::Button("Up")) path = joinPath(parentFolder(folder), name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the folder above");
    ImGui::SameLine();
    if (const char* home = std::getenv("HOME"); home && *home && ImGui::Button("Home"))
        path = joinPath(home, name);
    ImGui::SameLine();
    ImGui::TextDisabled("in %s", listing.folder.c_str());
    const float rows = 8.0f;
    if (!ImGui::BeginListBox("##folder", ImVec2(-FLT_MIN, ImGui::GetTextLineHeightWithSpacing() * rows)))
        return;
    if (!listing.error.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.45f, 1.0f), "%s", listing.error.c_str());
    if (listing.entries.empty() && listing.error.empty())
        ImGui::TextDisabled("(no folders or .json files here)");
    const ImVec4 folderColour(0.55f, 0.75f, 1.0f, 1.0f);
    for (const FolderEntry& e : listing.entries) {
        if (e.folder) ImGui::PushStyleColor(ImGuiCol_Text, folderColour);
        const std::string label = e.folder ? e.name + "/" : e.name;
        if (ImGui::Selectable(label.c_str(), !e.folder && e.name == name)) {
            path = e.folder ? joinPath(joinPath(listing.folder, e.name), name)
                            : joinPath(listing.folder, e.name);
            browser.refresh();
        }
        if (e.folder) ImGui::PopStyleColor();
    }
    ImGui::EndListBox();
}

}  // namespace jl::app
