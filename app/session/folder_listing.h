// JointLab app — what the Save As folder browser lists: the sub-folders and scenario files of a
// folder, sorted the way a person looks for them. No ImGui here (panels/folder_browser.cpp draws
// it), so it is unit-tested.
#pragma once

#include <string>
#include <vector>

namespace jl::app {

struct FolderEntry {
    std::string name;  ///< file or folder name, without the folder
    bool folder = false;
};

struct FolderListing {
    std::string folder;                ///< absolute, normalised
    std::vector<FolderEntry> entries;  ///< folders first, then files; each group by name, case-insensitive
    std::string error;                 ///< non-empty when the folder cannot be read (entries empty)
};

/// The folders and the files ending in `extension` (".json") in `folder`; hidden ones (a leading
/// dot) left out.
FolderListing listFolder(const std::string& folder, const std::string& extension);

/// The folder a save dialog starts in for `path` (its folder, or the working folder when `path`
/// has none), absolute.
std::string startFolder(const std::string& path);

/// The folder above `folder` ("/" stays "/").
std::string parentFolder(const std::string& folder);

/// `folder`/`name`.
std::string joinPath(const std::string& folder, const std::string& name);

/// The file name part of `path` ("" for a path ending in a slash).
std::string fileNameOf(const std::string& path);

/// What the folder browser keeps between frames: the listing of the folder shown, read again
/// only when the folder changes (or refresh()).
struct FolderBrowserState {
    FolderListing listing;
    bool listed = false;
    void refresh() { listed = false; }
    /// The listing of `folder`, read now if it is not the one kept.
    const FolderListing& show(const std::string& folder, const std::string& extension);
};

}  // namespace jl::app
