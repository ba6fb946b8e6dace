// Static facts about a joint type, one instance per type (the `info` member of its struct).
#pragma once

namespace jl {

struct JointTypeInfo {
    const char* name;         ///< identifier used in files and the CLI ("revolute")
    const char* title;        ///< shown in the UI ("Revolute (hinge)")
    const char* description;  ///< one paragraph for the help panel
};

}  // namespace jl
