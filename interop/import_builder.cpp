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

#include "interop/import_build.h"
#include "interop/import_chain.h"
#include "interop/import_shapes.h"
#include "jointlab/scenario_io.h"

namespace jl::interop {

namespace build {

Transform Builder::poseOf(int sceneBody) const {
    return sceneBody < 0 ? Transform{} : pose[static_cast<size_t>(sceneBody)];
}

int Builder::addBody(const ImportedBody& b, size_t index, MotionType motion, const Transform& worldZUp) {
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

void Builder::setFrames(JointDesc& j, int a, int b, const Transform& jointWorld) {
    j.body0 = a < 0 ? "" : scene.bodies[static_cast<size_t>(a)].name;
    j.body1 = b < 0 ? "" : scene.bodies[static_cast<size_t>(b)].name;
    j.frame0 = poseOf(a).inverse() * jointWorld;
    j.frame1 = poseOf(b).inverse() * jointWorld;
    j.frame0.q = glm::normalize(j.frame0.q);
    j.frame1.q = glm::normalize(j.frame1.q);
}

void Builder::setDrive(Drive& d, const ImportedJoint& src, Real& target) {
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

bool Builder::armatureCarried(const ImportedJoint& j) {
    return j.armature > 0.0 && (j.kind == ImportedJoint::Kind::Hinge || j.kind == ImportedJoint::Kind::Ball);
}

void Builder::noteJoint(const ImportedJoint& src) {
    if (src.armature > 0.0 && !armatureCarried(src))
        notes.add("armature (rotor inertia) on slides and free joints is not modelled", src.name);
    if (src.frictionLoss > 0.0) notes.add("joint dry friction (frictionloss) is not modelled", src.name);
}

ImportedBody Builder::withArmature(ImportedBody b, const ImportedJoint& j) {
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

void Builder::makeJoints(size_t bi, int parent, int child) {
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
            to = addBody(b, m.bodies.size() + static_cast<size_t>(js[k]), MotionType::Dynamic, b.inertial);
        }
        makeJoint(js[k], from, to);
        from = to;
    }
}

bool Builder::makeSlideD6(const std::vector<int>& js, int parent, int child) {
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
        const LimitPair range = limitOf(s, j.name);
        d.motion[k] = range.enabled ? D6Motion::Limited : D6Motion::Free;
        if (range.enabled) {
            d.linearLimit[k].enabled = true;
            d.linearLimit[k].lower = sign > 0 ? range.lower : -range.upper;
            d.linearLimit[k].upper = sign > 0 ? range.upper : -range.lower;
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

LimitPair Builder::limitOf(const ImportedJoint& src, const std::string& jointName) {
    LimitPair l;
    l.enabled = src.limited || src.held;
    l.lower = src.held ? src.heldValue : src.lower;
    l.upper = src.held ? src.heldValue : src.upper;
    if (src.held && src.limited && (src.heldValue < src.lower || src.heldValue > src.upper))
        notes.add("joints held at a value outside their range (the held value was kept)", jointName);
    return l;
}

void Builder::makeJoint(int index, int parent, int child) {
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
        r.limit = limitOf(src, j.name);
        setDrive(r.drive, src, r.driveTarget);
        j.params = r;
    } else if (src.kind == ImportedJoint::Kind::Slide) {
        PrismaticJoint p;
        p.limit = limitOf(src, j.name);
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

void Builder::makeFixed(const std::string& name, int parent, int child) {
    JointDesc j;
    j.name = jointNames.take(name, "weld");
    setFrames(j, parent, child, poseOf(child));
    j.params = FixedJoint{};
    scene.joints.push_back(std::move(j));
}

bool Builder::run(std::string& error) {
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
                for (const ImportedGeom& g : b.geoms) geomsOf[static_cast<size_t>(parent.body)].push_back(&g);
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
    for (size_t s = 0; s < scene.bodies.size(); ++s) makeShapes(scene.bodies[s], pose[s], geomsOf[s], notes);
    for (const ImportedEquality& e : m.equalities) makeEquality(e);
    return true;
}

}  // namespace build

namespace {

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
    build::Builder b{model, Scene{}, model.notes, {}, {}, {}, {}, {}, {}, {}, {}};
    if (!b.run(error)) return false;
    Scene& s = b.scene;
    if (model.timestep > 0.0) {
        s.settings.dt = std::clamp(model.timestep, 1e-5, 0.1);
        if (s.settings.dt != model.timestep)
            model.notes.add("the time step is outside JointLab's range [1e-5, 0.1] s and was clamped");
    }
    s.settings.gravity = toYUp(model.gravity);
    // A model is a tree of joints (MuJoCo's and URDF's bodies nest), which the tree solve takes
    // exactly, the nearest JointLab has to the joint coordinates the model was made for: on the
    // MuJoCo samples it holds every joint where the default block solve lets light bodies part
    // (docs/import.md "Solved along its tree").
    s.settings.pointSolve = PointSolve::Tree;
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
