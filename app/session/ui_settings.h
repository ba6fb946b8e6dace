// JointLab app — what the window remembers between runs: its size, which panels are open and
// where their edges were dragged. Kept as a small JSON file in the user's config folder
// ($XDG_CONFIG_HOME/jointlab/layout.json, else ~/.config/jointlab/layout.json), next to the recent
// files. Screenshot and benchmark modes neither read nor write it, so their pictures do not
// depend on what someone did before.
#pragma once

#include <string>

#include "shell/layout.h"

namespace jl::app {

struct UiSettings {
    int windowWidth = 0;  ///< last window size [screen coordinates]; 0 = none remembered
    int windowHeight = 0;
    PanelVisibility panels;
    LayoutPrefs layout;
};

/// Where the settings are kept; "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string defaultUiSettingsPath();

/// The settings in `path`; defaults for a missing or unreadable file, and for any value that is
/// missing or out of range (a bad file never makes a panel unreachable).
UiSettings loadUiSettings(const std::string& path);

/// The JSON text of `settings`.
std::string uiSettingsText(const UiSettings& settings);

/// Writes the settings (creating the folder); false when it cannot.
bool saveUiSettings(const std::string& path, const UiSettings& settings);

}  // namespace jl::app
