// JointLab app — what is selected: a body, a joint or nothing, by index into the Scene.
#pragma once

namespace jl::app {

struct Selection {
    enum class Kind { None, Body, Joint };
    Kind kind = Kind::None;
    int index = -1;

    static Selection body(int i) { return {Kind::Body, i}; }
    static Selection joint(int i) { return {Kind::Joint, i}; }
    bool isBody(int i) const { return kind == Kind::Body && index == i; }
    bool isJoint(int i) const { return kind == Kind::Joint && index == i; }
    bool isBody() const { return kind == Kind::Body && index >= 0; }
    bool isJoint() const { return kind == Kind::Joint && index >= 0; }
    bool operator==(const Selection&) const = default;
};

}  // namespace jl::app
