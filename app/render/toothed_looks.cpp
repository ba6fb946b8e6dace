#include "render/toothed_looks.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "editor/placement.h"

namespace jl::app {

namespace {

constexpr Real kTwoPi = 2.0 * kPi;
constexpr Real kPreferredPitch = 0.06;  ///< tooth spacing of a gear with nothing to match [m]
constexpr int kMinTeeth = 8, kMaxTeeth = 96;

std::optional<sketch::Coupling> couplingOf(const JointDesc& joint) {
    if (!joint.typeInfo().isCoupling) return std::nullopt;
    JointSketch figures;
    sketchJoint(joint.params, figures);
    for (const SketchFigure& f : figures)
        if (const auto* c = std::get_if<sketch::Coupling>(&f)) return *c;
    return std::nullopt;
}

/// How far the body's shape reaches from `origin` along the unit direction `d` (body frame).
Real reach(const BodyDesc& body, const Vec3& origin, const Vec3& d) {
    return supportDistance(body, kIdentityQuat, d) - glm::dot(origin, d);
}

/// The smallest reach across the axis X of `frame`: the largest wheel that fits the shape.
Real wheelRadius(const BodyDesc& body, const Transform& frame) {
    Real r = kInf;
    for (int k = 0; k < 8; ++k) {
        const Real a = kTwoPi * k / 8.0;
        r = std::min(r, reach(body, frame.p, frame.q * Vec3(0.0, std::cos(a), std::sin(a))));
    }
    return std::max(r, 0.01);
}

/// Angle in `frame`'s YZ plane (0 along Y, towards Z) of the world point `p` for a body at `pose`.
Real angleTowards(const Transform& pose, const Transform& frame, const Vec3& p) {
    const Vec3 local = (pose * frame).inverse().apply(p);
    return std::atan2(local.z, local.y);
}

Transform descriptionPose(const Scene& scene, int body) {
    if (body < 0) return Transform{};
    const BodyDesc& b = scene.bodies[static_cast<size_t>(body)];
    return Transform{b.position, b.orientation};
}

struct Side {
    int body = -1;
    Transform frame;  ///< the joint frame on it (body frame)
    bool slide = false;
};

void makeGear(ToothedLook& look, const BodyDesc& body, const Transform& frame, int teeth) {
    look.kind = ToothedLook::Kind::Gear;
    look.frame = frame;
    look.pitchRadius = static_cast<float>(wheelRadius(body, frame));
    look.halfWidth = static_cast<float>(std::max(reach(body, frame.p, frame.q * Vec3(1, 0, 0)), 0.005));
    look.teeth = std::clamp(teeth, kMinTeeth, kMaxTeeth);
    look.pitch = static_cast<float>(kTwoPi) * look.pitchRadius / static_cast<float>(look.teeth);
}

int teethForRadius(Real radius) {
    return static_cast<int>(std::lround(kTwoPi * radius / kPreferredPitch));
}

/// Two gears: the second gets its teeth from the first's and the ratio, and faces a gap to it.
void meshGears(const Scene& scene, std::vector<ToothedLook>& looks, const Side& a, const Side& b,
               Real ratio) {
    ToothedLook& la = looks[static_cast<size_t>(a.body)];
    ToothedLook& lb = looks[static_cast<size_t>(b.body)];
    const BodyDesc& ba = scene.bodies[static_cast<size_t>(a.body)];
    const BodyDesc& bb = scene.bodies[static_cast<size_t>(b.body)];
    const Real r = std::abs(ratio) > 1e-6 ? std::abs(ratio) : 1.0;  // |dq_b / dq_a| = R_a / R_b = N_a / N_b
    const Transform pa = descriptionPose(scene, a.body), pb = descriptionPose(scene, b.body);
    const Vec3 ca = (pa * a.frame).p, cb = (pb * b.frame).p;
    const bool newA = la.kind == ToothedLook::Kind::None, newB = lb.kind == ToothedLook::Kind::None;
    if (newA && newB) makeGear(la, ba, a.frame, teethForRadius(wheelRadius(ba, a.frame)));
    if (newA && !newB) makeGear(la, ba, a.frame, static_cast<int>(std::lround(lb.teeth * r)));
    if (newB) makeGear(lb, bb, b.frame, static_cast<int>(std::lround(la.teeth / r)));
    // Where they meet, a tooth of one faces a gap of the other.
    if (newA) la.phase = static_cast<float>(angleTowards(pa, a.frame, cb));
    if (newB) lb.phase = static_cast<float>(angleTowards(pb, b.frame, ca) + kPi / lb.teeth);
}

/// A pinion (turning) and a rack (sliding): the rack's teeth spaced as the pinion's, on its side
/// facing the pinion, a gap where the pinion's tooth points at it.
void meshRack(const Scene& scene, std::vector<ToothedLook>& looks, const Side& pinion, const Side& rack) {
    ToothedLook& lp = looks[static_cast<size_t>(pinion.body)];
    ToothedLook& lr = looks[static_cast<size_t>(rack.body)];
    const BodyDesc& bp = scene.bodies[static_cast<size_t>(pinion.body)];
    const BodyDesc& br = scene.bodies[static_cast<size_t>(rack.body)];
    const Transform pp = descriptionPose(scene, pinion.body), pr = descriptionPose(scene, rack.body);
    const Vec3 centre = (pp * pinion.frame).p;
    const Transform rackFrame = pr * rack.frame;
    const Vec3 local = rackFrame.inverse().apply(centre);  // the pinion's centre seen from the rack's axis
    if (lp.kind == ToothedLook::Kind::None) {
        makeGear(lp, bp, pinion.frame, teethForRadius(wheelRadius(bp, pinion.frame)));
        lp.phase = static_cast<float>(angleTowards(pp, pinion.frame, rackFrame.apply(Vec3(local.x, 0, 0))));
    }
    if (lr.kind != ToothedLook::Kind::None) return;
    lr.kind = ToothedLook::Kind::Rack;
    lr.frame = rack.frame;
    Vec3 face(0.0, local.y, local.z);
    face = glm::length(face) > 1e-9 ? glm::normalize(face) : Vec3(0, 1, 0);
    lr.face = face;
    const Vec3 faceBody = rack.frame.q * face, across = rack.frame.q * glm::cross(Vec3(1, 0, 0), face);
    lr.faceDistance = static_cast<float>(reach(br, rack.frame.p, faceBody));
    lr.halfWidth = static_cast<float>(std::max(reach(br, rack.frame.p, across), 0.005));
    lr.halfLength = static_cast<float>(reach(br, rack.frame.p, rack.frame.q * Vec3(1, 0, 0)));
    lr.pitch = lp.pitch;
    lr.phase = static_cast<float>(local.x) + 0.5f * lr.pitch;  // a gap under the pinion's tooth
}

}  // namespace

std::vector<ToothedLook> computeToothedLooks(const Scene& scene, const SceneIndex& index) {
    std::vector<ToothedLook> looks(scene.bodies.size());
    for (size_t j = 0; j < scene.joints.size(); ++j) {
        const JointDesc& joint = scene.joints[j];
        const std::optional<sketch::Coupling> c = couplingOf(joint);
        const int b0 = index.jointBody0(static_cast<int>(j)), b1 = index.jointBody1(static_cast<int>(j));
        if (!c || b0 < 0 || b1 < 0 || b0 == b1) continue;
        const Side s0{b0, joint.frame0, c->slide0}, s1{b1, joint.frame1, c->slide1};
        if (!s0.slide && !s1.slide)
            meshGears(scene, looks, s0, s1, c->ratio);
        else if (!s0.slide && s1.slide)
            meshRack(scene, looks, s0, s1);
        else if (s0.slide && !s1.slide)
            meshRack(scene, looks, s1, s0);
        // Two slides (a linear gear): two bars, nothing to mesh.
    }
    return looks;
}

}  // namespace jl::app
