// Interop tests: a joint of an imported scene, and its coordinate in a running World as the model
// defines it (interop::jointCoordinate on the bodies' poses: a hinge's angle or a slide's offset on
// the body it hangs from). The mimic, gripper and coupling tests measure their laws with it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "interop/mjcf_export.h"
#include "jointlab/scene.h"
#include "jointlab/world.h"

namespace jl::interop::test {

inline const JointDesc* findJoint(const Scene& s, const std::string& name) {
    const int j = s.findJoint(name);
    return j < 0 ? nullptr : &s.joints[static_cast<size_t>(j)];
}

/// The joint `name`'s coordinate in `w` now: the child's turn (or slide) on its parent.
inline Real coordinate(const World& w, const std::string& name) {
    const Scene& s = w.scene();
    const JointDesc* j = findJoint(s, name);
    EXPECT_NE(j, nullptr) << name;
    if (!j) return 0.0;
    const auto pose = [&](const std::string& b) {
        return b.empty() ? Transform{} : w.bodies()[static_cast<size_t>(s.findBody(b))].pose;
    };
    return jointCoordinate(*j, pose(j->body0), pose(j->body1));
}

}  // namespace jl::interop::test
