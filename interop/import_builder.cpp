// ImportedModel -> Scene (import_builder.h). The decisions, in order:
//  1. Which source bodies become JointLab bodies. A body with a joint is a dynamic body; a free
//     joint leaves it unjoined. A body without a joint is welded to its parent: on the world (or on
//     a static body) it is static; on a moving body it is a dynamic body with a fixed joint, or,
//     when it has no mass (a frame holding shapes), its shapes join the body it is welded to.
//     A body with several joints hangs from its parent by a chain of them through light bodies
//     (import_chain.h); slides alone, one D6.
//  2. A JointLab body's frame is its centre of mass (body.h), so each dynamic body sits at the
//     source's inertial frame with the source's principal moments (BodyDesc::inertia); its shapes
//     and joint frames are expressed relative to that frame.
//  3. Everything is turned from Z-up to Y-up once (axes.h), gravity too.
//  4. A body's geoms become its shape or compound (import_shapes.h).
#include "interop/import_builder.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "interop/axes.h"
#include "interop/import_chain.h"
#include "interop/import_shapes.h"
#include "jointlab/scenario_io.h"

namespace jl::interop {

namespace {

Transform toYUp(const Transform& t) {
    return {interop::toYUp(t.p), interop::toYUp(t.q)};
}

/// Unique names: the source's, else `<prefix><index>`; repeats get "_2", "_3".
class Names {
public:
    std::string take(const std::string& wanted, const std::string& fallback) {
        std::string base = wanted;
        for (char& c : base)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '_';
        if (base.empty()) base = fallback;
        std::string name = base;
        for (int k = 2; used_.count(name); ++k) name = base + "_" + std::to_string(k);
        used_.insert(name);
        return name;
    }

private:
    std::set<std::string> used_;
};

/// How a source body is represented in the scene.
struct Anchor {
    int body = -1;  ///< scene body index, -1 = the world
    bool moving = false;
};

struct Builder {
    ImportedModel& m;
    Scene scene;
    ImportNotes& notes;
    Names bodyNames, jointNames;
    std::vector<Anchor> anchor;                             // per source body
    std::vector<Transform> pose;                            // per scene body: its Y-up world pose
    std::vector<std::vector<const ImportedGeom*>> geomsOf;  // per scene body
    std::vector<std::vector<int>> jointsOf;                 // per source body: its joints
    std::vector<int> jointParent, jointChild;  // per source joint: the scene bodies it joins (−1: none)

    Transform poseOf(int sceneBody) const {
        return sceneBody < 0 ? Transform{} : pose[static_cast<size_t>(sceneBody)];
    }

    int addBody(const ImportedBody& b, size_t index, MotionType motion, const Transform& worldZUp) {
        BodyDesc d;
        d.name = bodyNames.take(b.name, "body" + std::to_string(index + 1));
        d.motion = motion;
        const Transform y = toYUp(worldZUp);
        d.position = y.p;
        d.orientation = y.q;
        d.mass = std::clamp(b.mass, kMinMass, kMaxMass);
        if (motion == MotionType::Dynamic) {
            if (b.mass < kMinMass || b.mass > kMaxMass)
                notes.add("masses outside JointLab's range [1e-6, 1e6] kg were clamped", d.name);
            Vec3 i = b.inertia;
            bool clamped = false;
            for (int k = 0; k < 3; ++k) {
                const Real c = std::clamp(i[k], kMinInertia, kMaxInertia);
                clamped = clamped || c != i[k];
                i[k] = c;
            }
            for (int k = 0; k < 3; ++k) {  // a rounding step past the triangle inequality
                const Real sum = i[(k + 1) % 3] + i[(k + 2) % 3];
                if (i[k] > sum) {
                    clamped = clamped || i[k] > sum * (1.0 + 1e-9);
                    i[k] = sum;
                }
            }
            if (clamped) notes.add("principal inertias outside JointLab's range were clamped", d.name);
            d.inertia = i;
        }
        if (!b.collides) d.collisionGroup = d.collisionMask = 0;
        scene.bodies.push_back(std::move(d));
        pose.push_back(y);
        geomsOf.emplace_back();
        return static_cast<int>(scene.bodies.size()) - 1;
    }

    // [SECTION] Joints

    /// Frames of a joint at world pose `jointWorld` (Y-up) between scene bodies a and b.
    void setFrames(JointDesc& j, int a, int b, const Transform& jointWorld) {
        j.body0 = a < 0 ? "" : scene.bodies[static_cast<size_t>(a)].name;
        j.body1 = b < 0 ? "" : scene.bodies[static_cast<size_t>(b)].name;
        j.frame0 = poseOf(a).inverse() * jointWorld;
        j.frame1 = poseOf(b).inverse() * jointWorld;
        j.frame0.q = glm::normalize(j.frame0.q);
        j.frame1.q = glm::normalize(j.frame1.q);
    }

    static void setDrive(Drive& d, const ImportedJoint& src, Real& target) {
        const Real stiffness = src.stiffness + (src.servo ? src.kp : 0.0);
        const Real damping = src.damping + (src.servo ? src.kv : 0.0);
        if (stiffness <= 0.0 && damping <= 0.0) return;
        d.enabled = true;
        d.stiffness = stiffness;
        d.damping = damping;
        // Two springs towards different rests act as one towards their weighted rest.
        if (stiffness > 0.0)
            target = (src.stiffness * src.springRest + (src.servo ? src.kp * src.target : 0.0)) / stiffness;
        if (src.servo && std::isfinite(src.forceLimit) && src.forceLimit > 0.0) d.forceLimit = src.forceLimit;
    }

    /// Whether JointLab carries joint `j`'s armature: on a hinge or a ball joint, as a rotor on the
    /// body the joint turns (withArmature); a slide's would make the body heavier along one axis only.
    static bool armatureCarried(const ImportedJoint& j) {
        return j.armature > 0.0 &&
               (j.kind == ImportedJoint::Kind::Hinge || j.kind == ImportedJoint::Kind::Ball);
    }

    void noteJoint(const ImportedJoint& src) {
        if (src.armature > 0.0 && !armatureCarried(src))
            notes.add("armature (rotor inertia) on slides and free joints is not modelled", src.name);
        if (src.frictionLoss > 0.0) notes.add("joint dry friction (frictionloss) is not modelled", src.name);
    }

    /// `b` carrying joint `j`'s armature a (MuJoCo's rotor inertia, added to the joint coordinate's
    /// own inertia: M_qq += a). JointLab's bodies have no joint coordinates, so the body the joint
    /// turns carries it as a flywheel on the joint's axis n would: a thin disc, a about n and a/2
    /// about the two axes across it (a·n nᵀ alone would break the triangle inequality of a light
    /// body's moments). Its principal axes are found again. A ball joint's armature is a about each
    /// of its three axes (a·E). Exact about n while the body before the joint does not turn about
    /// n; what the disc adds across n is more inertia than MuJoCo has (docs/import.md "Armature").
    static ImportedBody withArmature(ImportedBody b, const ImportedJoint& j) {
        if (!armatureCarried(j) || b.mass <= 0.0) return b;
        const Real a = j.armature;
        const Mat3 toLocal = glm::mat3_cast(glm::conjugate(b.inertial.q));
        Mat3 tensor(0.0);
        for (int k = 0; k < 3; ++k) tensor[k][k] = b.inertia[k];
        if (j.kind == ImportedJoint::Kind::Ball) {
            tensor += Mat3(a);
        } else {
            const Vec3 n = toLocal * glm::normalize(j.axis);
            tensor += 0.5 * a * (Mat3(1.0) + glm::outerProduct(n, n));
        }
        Quat axes;
        principalInertia(tensor, b.inertia, axes);
        b.inertial.q = glm::normalize(b.inertial.q * axes);
        return b;
    }

    /// The joints of source body `bi` between its parent's scene body and its own: one joint, or
    /// several in a chain through intermediate bodies (import_chain.h).
    void makeJoints(size_t bi, int parent, int child) {
        const std::vector<int>& js = jointsOf[bi];
        if (js.size() == 1) {
            makeJoint(js[0], parent, child);
            return;
        }
        if (makeSlideD6(js, parent, child)) return;
        Real parentMass = 0.0, parentMoment = 0.0;
        if (parent >= 0 && scene.bodies[static_cast<size_t>(parent)].motion == MotionType::Dynamic) {
            const BodyDesc& p = scene.bodies[static_cast<size_t>(parent)];
            parentMass = p.mass;
            parentMoment = std::max({p.inertia.x, p.inertia.y, p.inertia.z});
        }
        std::vector<ImportedBody> between = chainBodies(m, bi, js, parentMass, parentMoment);
        for (size_t k = 0; k + 1 < js.size(); ++k)
            between[k] = withArmature(std::move(between[k]), m.joints[static_cast<size_t>(js[k])]);
        notes.add(
            "bodies with several joints became chains of joints through light bodies (a tenth of the heavier "
            "neighbour's mass and moments each), which add a little inertia",
            scene.bodies[static_cast<size_t>(child)].name);
        int from = parent;
        for (size_t k = 0; k < js.size(); ++k) {
            int to = child;
            if (k + 1 < js.size()) {
                ImportedBody& b = between[k];
                const std::string& joint = m.joints[static_cast<size_t>(js[k])].name;
                b.name = scene.bodies[static_cast<size_t>(child)].name + "/" +
                         (joint.empty() ? "joint" + std::to_string(js[k] + 1) : joint);
                to =
                    addBody(b, m.bodies.size() + static_cast<size_t>(js[k]), MotionType::Dynamic, b.inertial);
            }
            makeJoint(js[k], from, to);
            from = to;
        }
    }

    /// Slides alone (at most three, axes at right angles, as composite particles have): one D6 with
    /// those linear axes free or limited and their damping and springs as its linear drives. Exact
    /// without a chain: slides do not turn the body, so their order does not matter and each one's
    /// axis stays where the model has it. False (nothing made) for any other set.
    bool makeSlideD6(const std::vector<int>& js, int parent, int child) {
        if (js.size() > 3) return false;
        std::vector<const ImportedJoint*> slides;
        for (int k : js) {
            const ImportedJoint& s = m.joints[static_cast<size_t>(k)];
            if (s.kind != ImportedJoint::Kind::Slide || s.servo) return false;
            for (const ImportedJoint* o : slides)
                if (std::abs(glm::dot(glm::normalize(s.axis), glm::normalize(o->axis))) > 1e-9) return false;
            slides.push_back(&s);
        }
        const Vec3 x = glm::normalize(interop::toYUp(slides[0]->axis));
        Vec3 y = slides.size() > 1
                     ? glm::normalize(interop::toYUp(slides[1]->axis))
                     : glm::normalize(glm::cross(x, std::abs(x.y) < 0.9 ? Vec3(0, 1, 0) : Vec3(1, 0, 0)));
        const Vec3 z = glm::cross(x, y);
        const Vec3 frameAxes[3] = {x, y, z};
        JointDesc j;
        std::string name;
        for (int k : js) name += (name.empty() ? "" : "+") + m.joints[static_cast<size_t>(k)].name;
        j.name = jointNames.take(name, "joint" + std::to_string(js[0] + 1));
        setFrames(j, parent, child,
                  {interop::toYUp(slides[0]->anchor), glm::normalize(glm::quat_cast(Mat3(x, y, z)))});
        D6Joint d;
        Drive* drives[3] = {&d.driveX, &d.driveY, &d.driveZ};
        for (size_t k = 0; k < slides.size(); ++k) {
            const ImportedJoint& s = *slides[k];
            const Real sign = glm::dot(glm::normalize(interop::toYUp(s.axis)), frameAxes[k]) > 0 ? 1.0 : -1.0;
            d.motion[k] = s.limited ? D6Motion::Limited : D6Motion::Free;
            if (s.limited) {
                d.linearLimit[k].enabled = true;
                d.linearLimit[k].lower = sign > 0 ? s.lower : -s.upper;
                d.linearLimit[k].upper = sign > 0 ? s.upper : -s.lower;
            }
            Real target = 0.0;
            setDrive(*drives[k], s, target);
            d.drivePosition[static_cast<int>(k)] = sign * target;
            noteJoint(s);
            jointParent[static_cast<size_t>(js[k])] = parent;
            jointChild[static_cast<size_t>(js[k])] = child;
        }
        j.params = d;
        scene.joints.push_back(std::move(j));
        return true;
    }

    /// Source joint `index` (a hinge, slide or ball) between scene bodies `parent` and `child`.
    void makeJoint(int index, int parent, int child) {
        const ImportedJoint& src = m.joints[static_cast<size_t>(index)];
        jointParent[static_cast<size_t>(index)] = parent;
        jointChild[static_cast<size_t>(index)] = child;
        JointDesc j;
        j.name = jointNames.take(src.name, "joint" + std::to_string(index + 1));
        const Vec3 axis = glm::normalize(interop::toYUp(src.axis));
        const Transform frame{interop::toYUp(src.anchor), rotationFromX(axis)};
        setFrames(j, parent, child, frame);
        noteJoint(src);
        if (src.kind == ImportedJoint::Kind::Hinge) {
            RevoluteJoint r;
            r.limit.enabled = src.limited;
            r.limit.lower = src.lower;
            r.limit.upper = src.upper;
            setDrive(r.drive, src, r.driveTarget);
            j.params = r;
        } else if (src.kind == ImportedJoint::Kind::Slide) {
            PrismaticJoint p;
            p.limit.enabled = src.limited;
            p.limit.lower = src.lower;
            p.limit.upper = src.upper;
            setDrive(p.drive, src, p.driveTarget);
            j.params = p;
        } else {
            SphericalJoint s;
            if (src.limited && src.upper > 0.0) {
                s.cone.enabled = true;
                s.cone.yAngle = s.cone.zAngle = std::clamp(src.upper, 1e-3, kPi);
                notes.add("ball joint ranges became swing cones (twist is free)", j.name);
            }
            if (src.damping > 0.0 || src.stiffness > 0.0 || src.servo)
                notes.add("ball joint damping, springs and actuators are not modelled", j.name);
            s.cone.yAngle = std::clamp(s.cone.yAngle, 1e-3, kPi);
            s.cone.zAngle = std::clamp(s.cone.zAngle, 1e-3, kPi);
            j.params = s;
        }
        scene.joints.push_back(std::move(j));
    }

    void makeFixed(const std::string& name, int parent, int child) {
        JointDesc j;
        j.name = jointNames.take(name, "weld");
        setFrames(j, parent, child, poseOf(child));
        j.params = FixedJoint{};
        scene.joints.push_back(std::move(j));
    }

    // [SECTION] The whole model

    bool run(std::string& error) {
        const size_t n = m.bodies.size();
        anchor.assign(n, Anchor{});
        jointsOf.assign(n, {});
        jointParent.assign(m.joints.size(), -1);
        jointChild.assign(m.joints.size(), -1);
        for (size_t k = 0; k < m.joints.size(); ++k) {
            const ImportedJoint& j = m.joints[k];
            if (j.body < 0 || static_cast<size_t>(j.body) >= n) {
                error = "joint " + j.name + " names no body";
                return false;
            }
            jointsOf[static_cast<size_t>(j.body)].push_back(static_cast<int>(k));
        }
        for (size_t i = 0; i < n; ++i) {
            const ImportedBody& b = m.bodies[i];
            if (b.parent >= static_cast<int>(i)) {
                error = "body " + b.name + " comes before its parent";
                return false;
            }
            const Anchor parent = b.parent < 0 ? Anchor{} : anchor[static_cast<size_t>(b.parent)];
            std::vector<int>& js = jointsOf[i];
            const bool free =
                !js.empty() && m.joints[static_cast<size_t>(js[0])].kind == ImportedJoint::Kind::Free;
            if (free && js.size() > 1) {
                notes.add("joints beside a free joint", b.name);
                js.resize(1);
            }
            if (b.mocap) notes.add("mocap bodies became static bodies", b.name);
            if (js.empty() || b.mocap) {
                if (!parent.moving) {
                    // Welded to the world or to a static body: static (with no shapes: nothing).
                    if (b.geoms.empty()) {
                        anchor[i] = parent;
                        continue;
                    }
                    const int s = addBody(b, i, MotionType::Static, b.mass > 0 ? b.inertial : b.frame);
                    anchor[i] = {s, false};
                    for (const ImportedGeom& g : b.geoms) geomsOf[static_cast<size_t>(s)].push_back(&g);
                    continue;
                }
                if (b.mass < kMinMass) {
                    // A massless frame welded to a moving body: its shapes join that body.
                    anchor[i] = parent;
                    for (const ImportedGeom& g : b.geoms)
                        geomsOf[static_cast<size_t>(parent.body)].push_back(&g);
                    continue;
                }
                const int s = addBody(b, i, MotionType::Dynamic, b.inertial);
                anchor[i] = {s, true};
                for (const ImportedGeom& g : b.geoms) geomsOf[static_cast<size_t>(s)].push_back(&g);
                makeFixed(scene.bodies[static_cast<size_t>(s)].name + "_weld", parent.body, s);
                continue;
            }
            // The joint that turns this body last (the last of a chain) gives it its armature.
            const ImportedBody turned = free ? b : withArmature(b, m.joints[static_cast<size_t>(js.back())]);
            const int s = addBody(turned, i, MotionType::Dynamic, turned.inertial);
            anchor[i] = {s, true};
            for (const ImportedGeom& g : b.geoms) geomsOf[static_cast<size_t>(s)].push_back(&g);
            if (!free) makeJoints(i, parent.body, s);
        }
        for (size_t s = 0; s < scene.bodies.size(); ++s)
            makeShapes(scene.bodies[s], pose[s], geomsOf[s], notes);
        for (const ImportedEquality& e : m.equalities) makeEquality(e);
        return true;
    }

    /// Slides a (e.joint1, moving scene body `follower`) and b (e.joint2, `leader`) on one moving
    /// scene body `hand`, coupled q_a = ratio·q_b + offset relative to it: a light pinion hinged to
    /// the hand and a relative rack from it to each finger (import_chain.h, DifferentialPinion).
    void makePinion(const ImportedEquality& e, int hand, int follower, int leader) {
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

    void makeEquality(const ImportedEquality& e) {
        if (e.kind == ImportedEquality::Kind::Coupling) {
            const ImportedJoint& a = m.joints[static_cast<size_t>(e.joint1)];
            const ImportedJoint& b = m.joints[static_cast<size_t>(e.joint2)];
            const bool angular = a.kind == ImportedJoint::Kind::Hinge;
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
            const Transform fa{interop::toYUp(a.anchor),
                               rotationFromX(glm::normalize(interop::toYUp(a.axis)))};
            const Transform fb{interop::toYUp(b.anchor),
                               rotationFromX(glm::normalize(interop::toYUp(b.axis)))};
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
            j.params = g;
            if (!parentsStill && !turnTogether && !g.relative)
                notes.add(
                    "couplings measure turns relative to the world (JointLab's gear), exact only while the "
                    "coupled joints' parents do not turn",
                    j.name);
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
};

/// Camera on the imported bodies: their centre, far enough to see them all.
void frameCamera(Scene& s) {
    if (s.bodies.empty()) return;
    Vec3 lo(kInf), hi(-kInf);
    for (const BodyDesc& b : s.bodies) lo = glm::min(lo, b.position), hi = glm::max(hi, b.position);
    s.camera.target = 0.5 * (lo + hi);
    // Three times the bodies' spread (a 0.5 m arm fills the view), at least 1 m.
    s.camera.distance = std::clamp(3.0 * glm::length(hi - lo), 1.0, 500.0);
}

}  // namespace

bool buildScene(ImportedModel& model, Scene& out, std::string& warning, std::string& error) {
    Builder b{model, Scene{}, model.notes, {}, {}, {}, {}, {}, {}, {}, {}};
    if (!b.run(error)) return false;
    Scene& s = b.scene;
    if (model.timestep > 0.0) {
        s.settings.dt = std::clamp(model.timestep, 1e-5, 0.1);
        if (s.settings.dt != model.timestep)
            model.notes.add("the time step is outside JointLab's range [1e-5, 0.1] s and was clamped");
    }
    s.settings.gravity = toYUp(model.gravity);
    s.settings.groundPlane = model.groundPlane && model.contacts;
    if (!model.contacts) s.settings.bodyCollisions = false;
    s.description = "Imported from " + model.source + ".";
    frameCamera(s);
    if (std::string e = validateScene(s); !e.empty()) {
        error = "the imported scene is not valid (" + e + "); this is a bug in the importer";
        return false;
    }
    warning = model.notes.empty() ? "" : "Not imported or changed: " + model.notes.text() + ".";
    out = std::move(s);
    return true;
}

}  // namespace jl::interop
