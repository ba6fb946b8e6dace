// MJCF export, the tree (interop/mjcf_export_parts.h): each body as a <body> element at its pose
// relative to its parent, with its inertial, its joint (the one that attaches it to its parent),
// its geoms and sites, and its children inside it.
#include <algorithm>
#include <cmath>

#include "interop/axes.h"
#include "interop/mjcf_export_parts.h"
#include "interop/mjcf_text.h"
#include "jointlab/xml_text.h"

namespace jl::interop::mjcf {

namespace {

constexpr int kMaxIndent = 24;

/// Indented by depth up to a point: a deep chain's text stays linear in its length.
std::string indent(int depth) {
    return std::string(static_cast<size_t>(2 * std::min(depth, kMaxIndent)), ' ');
}

}  // namespace

void TreeWriter::openBody(std::string& out, int b, int depth) {
    const BodyDesc& d = scene.bodies[static_cast<size_t>(b)];
    const std::string in = indent(depth);
    const int parent = result.tree.parent[static_cast<size_t>(b)];
    // Relative to the parent's pose in the scene; a body of the world in Z-up coordinates.
    Transform rel = startPose(scene, parent).inverse() * startPose(scene, b);
    if (parent == kWorld) rel = {toZUp(rel.p), toZUp(rel.q)};
    result.tree.order.push_back(b);
    out += in + "<body name=\"" + xmlEscape(d.name) + "\" pos=\"" + vec(rel.p) + "\" quat=\"" + quat(rel.q) +
           "\">\n";
    const MassProperties mp = computeMassProperties(d);
    out += in + "  <inertial pos=\"0 0 0\" mass=\"" + num(mp.mass) + "\" diaginertia=\"" + vec(mp.inertia) +
           "\"/>\n";
    if (result.tree.free[static_cast<size_t>(b)])
        out += in + "  <freejoint name=\"" + xmlEscape(d.name) + "\"/>\n";
    const int j = result.tree.joint[static_cast<size_t>(b)];
    if (j >= 0) writeJoint(out, in + "  ", j);
    // A body that touches nothing (a multi-joint chain's frame, import_chain.h) takes no contacts.
    const bool none = d.collisionGroup == 0 || d.collisionMask == 0;
    writeBodyGeoms(out, in + "  ", d, b, Transform{}, none ? " contype=\"0\" conaffinity=\"0\"" : geomExtra);
    for (const std::string& site : extra.bodySites[static_cast<size_t>(b)]) out += in + "  " + site + "\n";
}

void TreeWriter::writeTree(std::string& out) {
    // Depth first with a stack of its own, not by recursion: a scene's chain may be far deeper
    // than the call stack (MuJoCo refuses it, but the text is still written, and says where).
    struct Open {
        int body;
        size_t next;  // its next child to write
    };
    std::vector<Open> open;
    for (const int root : worldChildren) {
        openBody(out, root, 2);
        open.push_back({root, 0});
        while (!open.empty()) {
            Open& top = open.back();
            const std::vector<int>& kids = children[static_cast<size_t>(top.body)];
            const int depth = 1 + static_cast<int>(open.size());  // the body's own depth (roots: 2)
            if (top.next < kids.size()) {
                const int c = kids[top.next++];
                openBody(out, c, depth + 1);
                open.push_back({c, 0});
            } else {
                out += indent(depth) + "</body>\n";
                open.pop_back();
            }
        }
    }
}

void TreeWriter::writeJoint(std::string& out, const std::string& in, int j) {
    const JointDesc& jd = scene.joints[static_cast<size_t>(j)];
    const int sign = result.tree.sign[static_cast<size_t>(j)];
    const Transform& frame = sign > 0 ? jd.frame1 : jd.frame0;  // on the MuJoCo child
    const Vec3 axis = frame.rotate(Vec3(1, 0, 0));
    const std::string name = xmlEscape(jd.name);
    const std::string who = "joint " + quoted(jd.name);
    if (std::holds_alternative<FixedJoint>(jd.params)) return;  // welded: no joint
    // The coordinate at the start, from the scene's poses: MuJoCo's `ref`.
    const Real start =
        sign * jointCoordinate(jd, startPose(scene, names(jd.body0)), startPose(scene, names(jd.body1)));
    if (const auto* s = std::get_if<SphericalJoint>(&jd.params)) {
        out += in + "<joint name=\"" + name + "\" type=\"ball\" pos=\"" + vec(frame.p) + "\"/>\n";
        if (s->cone.enabled)
            result.notes.push_back(who +
                                   ": its cone limit is not written (MuJoCo's ball range bounds the whole "
                                   "rotation angle, twist included)");
        return;
    }
    const bool hinge = std::holds_alternative<RevoluteJoint>(jd.params);
    const LimitPair& limit =
        hinge ? std::get<RevoluteJoint>(jd.params).limit : std::get<PrismaticJoint>(jd.params).limit;
    const Drive& drive =
        hinge ? std::get<RevoluteJoint>(jd.params).drive : std::get<PrismaticJoint>(jd.params).drive;
    const Real target = hinge ? std::get<RevoluteJoint>(jd.params).driveTarget
                              : std::get<PrismaticJoint>(jd.params).driveTarget;
    const Real targetVelocity = hinge ? std::get<RevoluteJoint>(jd.params).driveTargetVelocity
                                      : std::get<PrismaticJoint>(jd.params).driveTargetVelocity;
    out += in + "<joint name=\"" + name + "\" type=\"" + (hinge ? "hinge" : "slide") + "\" pos=\"" +
           vec(frame.p) + "\" axis=\"" + vec(axis) + "\" ref=\"" + num(start) + "\"";
    const bool held = limit.enabled && limit.lower == limit.upper;
    if (held) {
        // Held at one value (an imported joint equality, import_build.h limitOf): MuJoCo refuses an
        // empty range, so the joint equality that holds it, qpos − qpos0 = polycoef[0], qpos0 = ref.
        extra.equalities.push_back("<joint name=\"" + name + "\" joint1=\"" + name + "\" polycoef=\"" +
                                   num(sign * limit.lower - start + 0.0) + " 0 0 0 0\"/>");
        result.notes.push_back(who +
                               ": held at one value by its limit, written as a joint equality, which MuJoCo "
                               "solves as a soft constraint (solref 0.02 s)");
    } else if (limit.enabled) {
        const Real lo = sign > 0 ? limit.lower : -limit.upper, hi = sign > 0 ? limit.upper : -limit.lower;
        out += " limited=\"true\" range=\"" + num(lo) + " " + num(hi) + "\"";
        ++limitRows;
        if (limit.soft() || limit.restitution > 0)
            result.notes.push_back(who +
                                   ": its limit's stiffness, damping and restitution are not written "
                                   "(MuJoCo's limit is its own soft constraint, solref 0.02 s)");
    }
    if (drive.enabled) {
        if (drive.acceleration || std::isfinite(drive.forceLimit) || targetVelocity != 0.0) {
            result.notes.push_back(who +
                                   ": its drive is not written (acceleration drives, force limits and target "
                                   "velocities have no MuJoCo joint counterpart)");
        } else {
            // F = k·(target − x) − c·ẋ: MuJoCo's joint spring about springref and joint damping.
            out += " stiffness=\"" + num(drive.stiffness) + "\" springref=\"" + num(sign * target) +
                   "\" damping=\"" + num(drive.damping) + "\"";
        }
    }
    if (hinge && std::get<RevoluteJoint>(jd.params).motor.enabled)
        result.notes.push_back(who + ": its motor is not written (MuJoCo would need a velocity actuator)");
    out += "/>\n";
}

}  // namespace jl::interop::mjcf
