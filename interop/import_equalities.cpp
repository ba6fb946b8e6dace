// Import builder, the equalities (import_build.h): a model's connect becomes a ball joint, its
// weld a fixed joint, its joint coupling a gear (world-measured or relative) or, for two slides on
// one moving body, a light pinion and two relative racks (docs/import.md "Couplings on moving
// parents").
#include <algorithm>
#include <cmath>

#include "interop/import_build.h"
#include "interop/import_chain.h"
#include "interop/import_shapes.h"

namespace jl::interop::build {

void Builder::makePinion(const ImportedEquality& e, int hand, int follower, int leader) {
    const ImportedJoint& a = m.joints[static_cast<size_t>(e.joint1)];
    const ImportedJoint& b = m.joints[static_cast<size_t>(e.joint2)];
    const Vec3 ua = glm::normalize(interop::toYUp(a.axis)), ub = glm::normalize(interop::toYUp(b.axis));
    const Vec3 pa = interop::toYUp(a.anchor), pb = interop::toYUp(b.anchor);
    const DifferentialPinion dp =
        differentialPinion(scene.bodies[static_cast<size_t>(follower)], ua, pa,
                           scene.bodies[static_cast<size_t>(leader)], ub, pb, e.ratio);
    const std::string name = jointNames.take(e.name, "coupling");
    ImportedBody body;
    body.name = scene.bodies[static_cast<size_t>(hand)].name + "/" + name;
    body.mass = dp.mass;
    body.inertia = dp.moments;
    body.frame = Transform{toZUp(dp.point), toZUp(rotationFromX(dp.axis))};
    body.inertial = body.frame;
    body.collides = false;
    const int p = addBody(body, m.bodies.size() + m.joints.size() + static_cast<size_t>(e.joint1),
                          MotionType::Dynamic, body.inertial);
    makeShapes(scene.bodies[static_cast<size_t>(p)], pose[static_cast<size_t>(p)], {}, notes);
    notes.add(
        "slide couplings on a moving body became a light pinion hinged to it and two racks measured "
        "from it, which make the coupled slides a tenth heavier",
        name);
    const Transform hinge{dp.point, rotationFromX(dp.axis)};
    JointDesc pivot;
    pivot.name = jointNames.take(name + "/pinion", "pinion");
    setFrames(pivot, hand, p, hinge);
    pivot.params = RevoluteJoint{};
    scene.joints.push_back(std::move(pivot));
    // Rack to each finger: frame on the pinion at its point with X = w, frame on the finger at
    // its slide's anchor with X along the slide (x is then the model's joint coordinate).
    const auto rack = [&](const std::string& rackName, int finger, const Vec3& axis, const Vec3& anchor,
                          Real ratio, Real offset) {
        JointDesc j;
        j.name = rackName;
        j.body0 = scene.bodies[static_cast<size_t>(p)].name;
        j.body1 = scene.bodies[static_cast<size_t>(finger)].name;
        j.frame0 = poseOf(p).inverse() * hinge;
        j.frame1 = poseOf(finger).inverse() * Transform{anchor, rotationFromX(axis)};
        j.frame0.q = glm::normalize(j.frame0.q);
        j.frame1.q = glm::normalize(j.frame1.q);
        RackPinionJoint r;
        r.relative = true;
        r.ratio = ratio;
        r.offset = offset;
        j.params = r;
        scene.joints.push_back(std::move(j));
    };
    rack(name, follower, ua, pa, dp.followerRatio, e.offset);
    rack(jointNames.take(name + "/" + (b.name.empty() ? "leader" : b.name), "rack"), leader, ub, pb,
         dp.leaderRatio, 0.0);
}

void Builder::makeEquality(const ImportedEquality& e) {
    if (e.kind == ImportedEquality::Kind::Coupling) {
        const ImportedJoint& a = m.joints[static_cast<size_t>(e.joint1)];
        const ImportedJoint& b = m.joints[static_cast<size_t>(e.joint2)];
        const bool angular = a.kind == ImportedJoint::Kind::Hinge;
        if (a.held && b.held) {
            // Both joints held (their limits at [c, c]): the coupling adds nothing when the held
            // values obey it (to rounding), and a row that fights both limits when they do not.
            const Real law = e.ratio * b.heldValue + e.offset;
            const Real scale = std::max({1.0, std::abs(a.heldValue), std::abs(law)});
            notes.add(std::abs(a.heldValue - law) <= 1e-12 * scale
                          ? "joint couplings between two held joints, whose held values already obey them"
                          : "joint couplings that contradict the values their two joints are held at (the "
                            "held values were kept)",
                      e.name);
            return;
        }
        if (a.kind != b.kind ||
            (a.kind != ImportedJoint::Kind::Hinge && a.kind != ImportedJoint::Kind::Slide)) {
            notes.add("joint couplings other than hinge-hinge or slide-slide", e.name);
            return;
        }
        // The scene bodies each joint moves and hangs from (a joint of a chain moves the
        // intermediate body after it: import_chain.h).
        const size_t ia = static_cast<size_t>(e.joint1), ib = static_cast<size_t>(e.joint2);
        const Anchor ba{jointChild[ia], jointChild[ia] >= 0}, bb{jointChild[ib], jointChild[ib] >= 0};
        if (!ba.moving || !bb.moving || ba.body == bb.body) {
            notes.add("joint couplings whose joints did not become joints of two bodies", e.name);
            return;
        }
        const int pa = jointParent[ia], pb = jointParent[ib];
        const auto still = [&](int p) {
            return p < 0 || scene.bodies[static_cast<size_t>(p)].motion != MotionType::Dynamic;
        };
        if (!angular && pa == pb && !still(pa)) {
            makePinion(e, pa, ba.body, bb.body);
            return;
        }
        // The gear's q of a body is its turn about (slide along) its frame's X axis since the
        // start, relative to the world (relative: on the parent holding both): q_a − ratio·q_b −
        // offset = 0.
        JointDesc j;
        j.name = jointNames.take(e.name, "coupling");
        const Transform fa{interop::toYUp(a.anchor), rotationFromX(glm::normalize(interop::toYUp(a.axis)))};
        const Transform fb{interop::toYUp(b.anchor), rotationFromX(glm::normalize(interop::toYUp(b.axis)))};
        j.body0 = scene.bodies[static_cast<size_t>(ba.body)].name;
        j.body1 = scene.bodies[static_cast<size_t>(bb.body)].name;
        j.frame0 = poseOf(ba.body).inverse() * fa;
        j.frame1 = poseOf(bb.body).inverse() * fb;
        GearJoint g;
        g.mode = angular ? GearMode::Angular : GearMode::Linear;
        g.ratio = 0.0 - e.ratio;  // 0 − x: no "-0" in the scene
        g.offset = 0.0 - e.offset;
        const Vec3 ua = glm::normalize(a.axis), ub = glm::normalize(b.axis);
        const Real cosine = glm::dot(ua, ub);
        const bool parentsStill = still(pa) && still(pb);
        // Two hinges on one parent with parallel axes (s = ±1 their senses): the parent's turn τ
        // about that axis (since the start) adds τ to body a's world turn and s·τ to body b's, so
        // JointLab's law is the model's plus (1 − ratio·s)·τ: the same law when ratio·s = 1 (the
        // coupling turns them together), whatever the parent does. (Sliders on one moving parent
        // became a differential pinion above.)
        const Real s = cosine;
        const bool turnTogether = angular && pa == pb && std::abs(std::abs(s) - 1.0) < 1e-9 &&
                                  std::abs(e.ratio * (s > 0 ? 1.0 : -1.0) - 1.0) < 1e-12;
        // Otherwise two hinges on one moving parent become a relative gear, which reads each turn
        // on the parent from the two bodies alone, exactly (gear.h): from their relative rotation
        // when the axes are at an angle, from where each hinge's origin sees the other's when they
        // are parallel (the gear decides by the same kRelativeGearParallelSin2). Parallel hinges
        // about one line stay world-measured: nothing of the two bodies tells their turns apart.
        // The factor 2 keeps the origins clear of the row's own limit as the hinges' small errors
        // move them.
        const Vec3 d = b.anchor - a.anchor;
        const Real offAxis =
            std::min(glm::length(d - glm::dot(d, ua) * ua), glm::length(d - glm::dot(d, ub) * ub));
        const bool atAngle = 1.0 - cosine * cosine >= kRelativeGearParallelSin2;
        const bool apart = offAxis >= 2.0 * kParallelGearMinDistance;
        g.relative = angular && pa == pb && !still(pa) && (atAngle || (apart && !turnTogether));
        // Successive hinges (a hangs A from P, b hangs B from A) about parallel, distinct axes:
        // the line d from a's origin to b's is fixed on A. Seen from P it turns with A by +q_a
        // about the axis; seen from B by −q_b. So a relative gear between P (a's frame) and B
        // (b's frame) reads, with A as its carrier, q = −q_a on P's side and q = +q_b on B's
        // (gear.h "Parallel axes", F = F_A·K·Rot(X, q)): for the law q_1 − ratio·q_2 − offset = 0
        // (joint1, joint2) the gear keeps body 0 on joint1's side, σ = −1 on P's side and +1 on
        // B's, and then G = −ratio·σ_1·σ_2 = ratio and γ = −σ_1·offset. Exact whatever P does;
        // P may be the world. Non-parallel successive hinges stay world-measured (noted).
        const bool firstInner = jointChild[ia] == pb, secondInner = jointChild[ib] == pa;
        if (angular && (firstInner || secondInner) && !atAngle && apart) {
            const int outer = firstInner ? pa : pb;  // P: the body the inner hinge hangs from
            const int side0 = firstInner ? outer : ba.body, side1 = firstInner ? bb.body : outer;
            const Real sigma1 = firstInner ? -1.0 : 1.0;
            j.body0 = side0 < 0 ? std::string() : scene.bodies[static_cast<size_t>(side0)].name;
            j.body1 = side1 < 0 ? std::string() : scene.bodies[static_cast<size_t>(side1)].name;
            j.frame0 = poseOf(side0).inverse() * fa;
            j.frame1 = poseOf(side1).inverse() * fb;
            g.ratio = e.ratio;
            g.offset = 0.0 - sigma1 * e.offset;
            g.relative = true;
        }
        std::string with;
        if (!parentsStill && !turnTogether && !g.relative && planarCoupling(e, j, g, with)) {
            // Exact: a law of the hinges' plane between two bodies (import_planar.cpp).
            if (!with.empty())
                notes.add(
                    "couplings that skip a link, written with another coupling of the same plane added "
                    "so that they join two bodies (the same pair of laws, exact)",
                    j.name + " (+ " + with + ")");
        } else if (!parentsStill && !turnTogether && !g.relative) {
            notes.add(
                "couplings measure turns relative to the world (JointLab's gear), exact only while the "
                "coupled joints' parents do not turn",
                j.name);
        }
        j.params = g;
        scene.joints.push_back(std::move(j));
        return;
    }
    const int a = e.body1 < 0 ? -1 : anchor[static_cast<size_t>(e.body1)].body;
    const int b = e.body2 < 0 ? -1 : anchor[static_cast<size_t>(e.body2)].body;
    if (a == b) {
        notes.add("equality constraints between parts of one rigid body", e.name);
        return;
    }
    JointDesc j;
    j.name = jointNames.take(e.name, e.kind == ImportedEquality::Kind::Connect ? "connect" : "weld");
    const bool aMoving = a >= 0 && scene.bodies[static_cast<size_t>(a)].motion == MotionType::Dynamic;
    const bool bMoving = b >= 0 && scene.bodies[static_cast<size_t>(b)].motion == MotionType::Dynamic;
    if (!aMoving && !bMoving) {
        notes.add("equality constraints between bodies that do not move", e.name);
        return;
    }
    if (e.kind == ImportedEquality::Kind::Connect) {
        setFrames(j, b, a, {interop::toYUp(e.anchor), Quat(1, 0, 0, 0)});
        j.params = SphericalJoint{};
    } else {
        setFrames(j, b, a, a >= 0 ? poseOf(a) : Transform{});
        j.params = FixedJoint{};
    }
    scene.joints.push_back(std::move(j));
}

}  // namespace jl::interop::build
