// Interop tests: a joint of an imported scene, and its coordinate in a running World as the model
// defines it (interop::jointCoordinate on the bodies' poses: a hinge's angle or a slide's offset on
// the body it hangs from). The mimic, gripper and coupling tests measure their laws with it.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "interop/mjcf_export.h"
#include "interop/model_import.h"
#include "interop/reference_run.h"
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

/// The model at `path` imported (importModel); a failure is a test failure, with its message.
inline Scene importedModel(const std::string& path, std::string& warning) {
    Scene s;
    std::string error;
    EXPECT_TRUE(importModel(path, s, warning, error)) << error;
    return s;
}

/// A joint frame on `body` in the world, at the scene's start poses.
inline Transform startFrame(const Scene& s, const std::string& body, const Transform& frame) {
    const BodyDesc& b = s.bodies[static_cast<size_t>(s.findBody(body))];
    return Transform{b.position, b.orientation} * frame;
}

/// The index of joint `name` among the reference run's compared joints, −1 if it is not one.
inline int comparedIndex(const ReferenceRun& ref, const Scene& s, const std::string& name) {
    const std::vector<int>& joints = ref.comparedJoints();
    for (size_t k = 0; k < joints.size(); ++k)
        if (s.joints[static_cast<size_t>(joints[k])].name == name) return static_cast<int>(k);
    return -1;
}

/// Every body's pose and velocity in `w` is finite.
inline void expectFinite(const World& w) {
    for (const BodyState& b : w.bodies()) {
        EXPECT_TRUE(std::isfinite(b.pose.p.x) && std::isfinite(b.pose.p.y) && std::isfinite(b.pose.p.z));
        EXPECT_TRUE(std::isfinite(b.pose.q.w) && std::isfinite(b.linearVelocity.x) &&
                    std::isfinite(b.angularVelocity.x));
    }
}

}  // namespace jl::interop::test
