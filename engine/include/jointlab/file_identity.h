// JointLab engine — file identity: the one guard every output JointLab writes goes through, so
// that no output ever replaces a file the program reads (the scenario, an input log) or another
// output of the same run.
//
// Paths are compared as files, not as strings: "./x", "a/../x", a hard link and a symlink to x
// all name x. Existing files are compared by device and inode (what std::filesystem::equivalent
// does); a file that does not exist yet by its resolved name (symlinks in the parent folders and
// a dangling symlink at the end followed, "." and ".." removed: weakly_canonical).
#pragma once

#include <string>
#include <vector>

namespace jl {

/// A file the program reads or writes, with the words that name it in a message: a flag
/// ("--csv") or a role ("the scenario").
struct NamedFile {
    std::string what;
    std::string path;
};

/// How two paths relate as files.
enum class FileIdentity {
    Different,
    Same,              ///< one file (same inode, or the same resolved name)
    SameIgnoringCase,  ///< neither exists; same folder, names equal but for ASCII case: one file on
                       ///< a case-insensitive file system (FAT, exFAT, macOS, Windows)
};

/// Compares two paths as files. Empty paths are different from everything.
FileIdentity compareFiles(const std::string& a, const std::string& b);

/// True when `a` and `b` are (or would be) one file: compareFiles(a, b) != Different.
bool sameFile(const std::string& a, const std::string& b);

/// The file a write to `path` replaces: `path` itself, or, when `path` is a symlink (a chain of
/// them, also one whose target does not exist yet), the file at the end of the chain, so that a
/// save keeps the link and replaces what it points to, as editors do. Returns "" and sets `error`
/// for a chain longer than 40 links (a loop).
std::string writeTargetOf(const std::string& path, std::string& error);

/// The guard: checks every output against every input and against the other outputs. Returns ""
/// when they are all different files, else one line naming both paths, e.g.
/// `--csv ./scene.json would overwrite the scenario scene.json (the same file); nothing was written`.
/// Outputs with an empty path are skipped (not requested). Call it before anything is written.
std::string checkOutputsAgainstInputs(const std::vector<NamedFile>& inputs,
                                      const std::vector<NamedFile>& outputs);

}  // namespace jl
