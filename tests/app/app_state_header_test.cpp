// shell/app_state.h is what every panel, the viewport and the App share; it must not pull in
// <imgui.h> (issue 23): the state is plain data, and ImGui stays in the files that draw. This file
// includes it first and alone, so any path from it to imgui.h shows up here.
#include "shell/app_state.h"

#ifdef IMGUI_VERSION
constexpr bool kAppStatePullsInImGui = true;
#else
constexpr bool kAppStatePullsInImGui = false;
#endif

#include <gtest/gtest.h>

namespace jl::app {
namespace {

TEST(AppStateHeader, DoesNotIncludeImGui) {
    EXPECT_FALSE(kAppStatePullsInImGui)
        << "shell/app_state.h includes <imgui.h> directly or through one of its headers";
    // The joint tool starts on the table's default type, not on a number written here.
    EXPECT_EQ(ToolState{}.jointType, kDefaultJointType);
}

}  // namespace
}  // namespace jl::app
