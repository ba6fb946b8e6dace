// MJCF export (interop/mjcf_export.h): the scene's joint graph walked into a kinematic tree, then
// written depth first as nested <body> elements. Linear in bodies and joints: names are looked up
// through one map, each joint is visited once by the walk, and each body is written once.
#include "interop/mjcf_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <set>

#include "interop/axes.h"
#include "interop/mjcf_text.h"
#include "jointlab/collision_filter.h"
#include "jointlab/scenario_io.h"

namespace jl::interop {

namespace {

constexpr int kWorld = -1;
constexpr int kMaxIndent = 24;
/// MuJoCo 2.2.2 reads MJCF with tinyxml2, which refuses elements nested 100 deep: a body at depth
/// d (the world's children at 1) holds elements at XML depth d + 3, so trees up to 96 bodies deep
/// load (measured: a 96-link chain loads, a 97-link one does not).
constexpr int kMaxMujocoDepth = 96;

std::string quoted(const std::string& name) {
    return "\"" + name + "\"";
}

bool isTreeType(const JointDesc& j) {
    return std::holds_alternative<RevoluteJoint>(j.params) ||
           std::holds_alternative<PrismaticJoint>(j.params) ||
           std::holds_alternative<SphericalJoint>(j.params) || std::holds_alternative<FixedJoint>(j.params);
}

struct Writer {
    const Scene& scene;
    MjcfExport& result;
    std::vector<std::vector<int>> children;  // per body; the world's in worldChildren
    std::vector<int> worldChildren;
    std::string geomExtra;
    std::vector<std::string> equalities;
    const std::vector<std::vector<std::string>>* sites = nullptr;  ///< per body (pulley ends)

    /// The world pose of body `b` in the scene (identity for the world).
    Transform startPose(int b) const {
        if (b < 0) return {};
        const BodyDesc& d = scene.bodies[static_cast<size_t>(b)];
        return {d.position, d.orientation};
    }

    void writeBody(std::string& out, int b, int depth) {
        const BodyDesc& d = scene.bodies[static_cast<size_t>(b)];
        // Indented by depth up to a point: a deep chain's text stays linear in its length.
        const std::string in(static_cast<size_t>(2 * std::min(depth, kMaxIndent)), ' ');
        const int parent = result.tree.parent[static_cast<size_t>(b)];
        // Relative to the parent's pose in the scene; a body of the world in Z-up coordinates.
        Transform rel = startPose(parent).inverse() * startPose(b);
        if (parent == kWorld) rel = {toZUp(rel.p), toZUp(rel.q)};
        result.tree.order.push_back(b);
        out += in + "<body name=\"" + attr(d.name) + "\" pos=\"" + vec(rel.p) + "\" quat=\"" + quat(rel.q) +
               "\">\n";
        const MassProperties mp = computeMassProperties(d);
        out += in + "  <inertial pos=\"0 0 0\" mass=\"" + num(mp.mass) + "\" diaginertia=\"" +
               vec(mp.inertia) + "\"/>\n";
        if (result.tree.free[static_cast<size_t>(b)])
            out += in + "  <freejoint name=\"" + attr(d.name) + "\"/>\n";
        const int j = result.tree.joint[static_cast<size_t>(b)];
        if (j >= 0) writeJoint(out, in + "  ", j);
        // A body that touches nothing (a multi-joint chain's frame, import_chain.h) takes no contacts.
        const bool none = d.collisionGroup == 0 || d.collisionMask == 0;
        writeBodyGeoms(out, in + "  ", d, b, Transform{},
                       none ? " contype=\"0\" conaffinity=\"0\"" : geomExtra);
        if (sites)
            for (const std::string& site : (*sites)[static_cast<size_t>(b)]) out += in + "  " + site + "\n";
        for (const int c : children[static_cast<size_t>(b)]) writeBody(out, c, depth + 1);
        out += in + "</body>\n";
    }

    void writeJoint(std::string& out, const std::string& in, int j) {
        const JointDesc& jd = scene.joints[static_cast<size_t>(j)];
        const int sign = result.tree.sign[static_cast<size_t>(j)];
        const Transform& frame = sign > 0 ? jd.frame1 : jd.frame0;  // on the MuJoCo child
        const Vec3 axis = frame.rotate(Vec3(1, 0, 0));
        const std::string name = attr(jd.name);
        const std::string who = "joint " + quoted(jd.name);
        if (std::holds_alternative<FixedJoint>(jd.params)) return;  // welded: no joint
        // The coordinate at the start, from the scene's poses: MuJoCo's `ref`.
        const Real start =
            sign * jointCoordinate(jd, startPose(bodyIndex(jd.body0)), startPose(bodyIndex(jd.body1)));
        if (const auto* s = std::get_if<SphericalJoint>(&jd.params)) {
            out += in + "<joint name=\"" + name + "\" type=\"ball\" pos=\"" + vec(frame.p) + "\"/>\n";
            if (s->cone.enabled)
                result.notes.push_back(
                    who +
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
        if (limit.enabled) {
            const Real lo = sign > 0 ? limit.lower : -limit.upper, hi = sign > 0 ? limit.upper : -limit.lower;
            out += " limited=\"true\" range=\"" + num(lo) + " " + num(hi) + "\"";
            if (limit.soft() || limit.restitution > 0)
                result.notes.push_back(who +
                                       ": its limit's stiffness, damping and restitution are not written "
                                       "(MuJoCo's limit is its own soft constraint, solref 0.02 s)");
        }
        if (drive.enabled) {
            if (drive.acceleration || std::isfinite(drive.forceLimit) || targetVelocity != 0.0) {
                result.notes.push_back(
                    who +
                    ": its drive is not written (acceleration drives, force limits and target "
                    "velocities have no MuJoCo joint counterpart)");
            } else {
                // F = k·(target − x) − c·ẋ: MuJoCo's joint spring about springref and joint damping.
                out += " stiffness=\"" + num(drive.stiffness) + "\" springref=\"" + num(sign * target) +
                       "\" damping=\"" + num(drive.damping) + "\"";
            }
        }
        if (hinge && std::get<RevoluteJoint>(jd.params).motor.enabled)
            result.notes.push_back(who +
                                   ": its motor is not written (MuJoCo would need a velocity actuator)");
        out += "/>\n";
    }

    std::map<std::string, int> names;
    int bodyIndex(const std::string& name) const {
        if (name.empty()) return kWorld;
        const auto it = names.find(name);
        return it == names.end() ? kWorld : it->second;
    }
};

/// What a scene joint's body is in the tree: itself when dynamic, the world when static or
/// kinematic or empty.
int node(const Scene& s, int b) {
    return b >= 0 && s.bodies[static_cast<size_t>(b)].motion == MotionType::Dynamic ? b : kWorld;
}

/// One side of a relative coupling: its body, the joint it must hang from, its name in messages,
/// its coupling frame and its weight in the coupling row.
struct RelativeSide {
    int body;
    ExportedAs kind;
    const char* which;  ///< "pinion (body 0)", ...
    const Transform* frame;
    Real weight;
};

/// The joint of `kind` body b hangs from (−1: none) and σ = ±1, its axis against x (0: not along it).
std::pair<int, Real> hungFrom(const Scene& s, const MjcfTree& tree, int b, ExportedAs kind, const Vec3& x) {
    if (b < 0 || !tree.moving[static_cast<size_t>(b)] || tree.free[static_cast<size_t>(b)]) return {-1, 0.0};
    const int hj = tree.joint[static_cast<size_t>(b)];
    if (hj < 0 || tree.as[static_cast<size_t>(hj)] != kind) return {-1, 0.0};
    const JointDesc& h = s.joints[static_cast<size_t>(hj)];
    const Transform& hf = tree.sign[static_cast<size_t>(hj)] > 0 ? h.frame1 : h.frame0;
    const Real d = glm::dot(s.bodies[static_cast<size_t>(b)].orientation * hf.rotate(Vec3(1, 0, 0)), x);
    return {hj, std::abs(std::abs(d) - 1.0) > 1e-9 ? 0.0 : (d > 0 ? 1.0 : -1.0)};
}

/// The joint-equality coefficients of a relative coupling (rack_pinion.h and gear.h, relative):
/// c_j = weight·σ_j for the joint j each side hangs from, when both hang from joints of the given
/// kinds on one common parent with their axes along the coupling's frames' X (σ = ±1, the axis
/// against the frame's X); otherwise why not. Or a gear across a middle link A (successive hinges:
/// B on b to A, A on a to P) reads −σ_a·q_a on P's side (P turns by −q_a on A) and σ_b·q_b on B's.
std::string relativeCoefficients(const Scene& s, const MjcfTree& tree, const RelativeSide (&sides)[2],
                                 std::map<int, Real>& coefficient) {
    Vec3 x[2];
    std::pair<int, Real> hung[2];
    for (int k = 0; k < 2; ++k) {
        const int b = sides[k].body;
        x[k] = (b < 0 ? Quat(1, 0, 0, 0) : s.bodies[static_cast<size_t>(b)].orientation) *
               sides[k].frame->rotate(Vec3(1, 0, 0));
        hung[k] = hungFrom(s, tree, b, sides[k].kind, x[k]);
    }
    for (int k = 0; k < 2 && sides[0].kind == ExportedAs::Hinge && sides[1].kind == ExportedAs::Hinge; ++k) {
        const int o = 1 - k,
                  middle = hung[o].first < 0 ? kWorld : tree.parent[static_cast<size_t>(sides[o].body)];
        const auto a = hungFrom(s, tree, middle, ExportedAs::Hinge, x[k]);
        if (hung[o].second == 0.0 || a.first < 0 || a.second == 0.0 ||
            tree.parent[static_cast<size_t>(middle)] != node(s, sides[k].body))
            continue;
        coefficient[a.first] -= sides[k].weight * a.second;
        coefficient[hung[o].first] += sides[o].weight * hung[o].second;
        return "";
    }
    for (int k = 0; k < 2; ++k) {
        const std::string which = sides[k].which,
                          what = sides[k].kind == ExportedAs::Hinge ? "a hinge" : "a slide";
        if (hung[k].first < 0) return "its " + which + " does not hang from " + what;
        if (hung[k].second == 0.0) return "the axis of its " + which + "'s joint is not along its X axis";
    }
    if (tree.parent[static_cast<size_t>(sides[0].body)] != tree.parent[static_cast<size_t>(sides[1].body)])
        return std::string("its ") + sides[0].which + " and its " + sides[1].which +
               " hang from different bodies";
    for (int k = 0; k < 2; ++k) coefficient[hung[k].first] += sides[k].weight * hung[k].second;
    return "";
}

}  // namespace

MjcfExport exportScene(const Scene& scene) {
    MjcfExport result;
    if (std::string e = validateScene(scene); !e.empty()) {
        result.error = "the scene is not valid: " + e;
        return result;
    }
    const size_t nb = scene.bodies.size(), nj = scene.joints.size();
    MjcfTree& tree = result.tree;
    tree.parent.assign(nb, kWorld);
    tree.joint.assign(nb, -1);
    tree.moving.assign(nb, false);
    tree.free.assign(nb, false);
    tree.as.assign(nj, ExportedAs::Omitted);
    tree.sign.assign(nj, 0);

    Writer w{scene, result, std::vector<std::vector<int>>(nb), {}, {}, {}, {}};
    for (size_t b = 0; b < nb; ++b) w.names.emplace(scene.bodies[b].name, static_cast<int>(b));

    // The joint graph: per node (body, or the world at index nb), its joints in scene order.
    std::vector<std::vector<int>> adjacent(nb + 1);
    const auto slot = [&](int n) { return n == kWorld ? nb : static_cast<size_t>(n); };
    std::vector<int> end0(nj), end1(nj);
    std::vector<int> couplings;
    for (size_t j = 0; j < nj; ++j) {
        const JointDesc& jd = scene.joints[j];
        const std::string who = "joint " + quoted(jd.name) + " (" + jd.typeInfo().name + ")";
        end0[j] = node(scene, w.bodyIndex(jd.body0));
        end1[j] = node(scene, w.bodyIndex(jd.body1));
        if (jd.startBroken) {
            result.omitted.push_back(who + ": starts broken");
        } else if (jd.typeInfo().isCoupling) {
            couplings.push_back(static_cast<int>(j));
        } else if (!isTreeType(jd)) {
            result.omitted.push_back(who + ": MuJoCo has no such joint");
        } else if (end0[j] == end1[j]) {
            result.omitted.push_back(who + ": joins the world (or static bodies) to itself");
        } else {
            adjacent[slot(end0[j])].push_back(static_cast<int>(j));
            adjacent[slot(end1[j])].push_back(static_cast<int>(j));
        }
    }
    for (size_t b = 0; b < nb; ++b) {
        const BodyDesc& d = scene.bodies[b];
        if (d.motion == MotionType::Kinematic)
            result.omitted.push_back(
                "body " + quoted(d.name) +
                " (kinematic): written as fixed geometry of the world; it does not move in MuJoCo");
        tree.moving[b] = d.motion == MotionType::Dynamic;
    }

    // Breadth first from the world, then from each dynamic body no joint reached (a free joint).
    std::vector<bool> visited(nb + 1, false), used(nj, false);
    std::vector<int> depth(nb, 1);  // a body of the world: 1
    const auto walk = [&](int root) {
        std::deque<int> queue{root};
        visited[slot(root)] = true;
        while (!queue.empty()) {
            const int u = queue.front();
            queue.pop_front();
            for (const int j : adjacent[slot(u)]) {
                if (used[static_cast<size_t>(j)]) continue;
                used[static_cast<size_t>(j)] = true;
                const JointDesc& jd = scene.joints[static_cast<size_t>(j)];
                const int v = end0[static_cast<size_t>(j)] == u ? end1[static_cast<size_t>(j)]
                                                                : end0[static_cast<size_t>(j)];
                if (visited[slot(v)]) {
                    if (result.loopJoint.empty()) result.loopJoint = jd.name;
                    result.omitted.push_back("joint " + quoted(jd.name) + " (" + jd.typeInfo().name +
                                             "): closes a loop (its bodies are already joined through other "
                                             "joints; MuJoCo's tree cannot hold it)");
                    continue;
                }
                visited[slot(v)] = true;
                tree.parent[static_cast<size_t>(v)] = u;
                depth[static_cast<size_t>(v)] = (u == kWorld ? 0 : depth[static_cast<size_t>(u)]) + 1;
                tree.joint[static_cast<size_t>(v)] = j;
                tree.sign[static_cast<size_t>(j)] = end1[static_cast<size_t>(j)] == v ? 1 : -1;
                tree.as[static_cast<size_t>(j)] =
                    std::holds_alternative<RevoluteJoint>(jd.params)    ? ExportedAs::Hinge
                    : std::holds_alternative<PrismaticJoint>(jd.params) ? ExportedAs::Slide
                    : std::holds_alternative<SphericalJoint>(jd.params) ? ExportedAs::Ball
                                                                        : ExportedAs::Weld;
                (u == kWorld ? w.worldChildren : w.children[static_cast<size_t>(u)]).push_back(v);
                queue.push_back(v);
            }
        }
    };
    walk(kWorld);
    for (size_t b = 0; b < nb; ++b) {
        if (!tree.moving[b] || visited[b]) continue;
        tree.free[b] = true;
        w.worldChildren.push_back(static_cast<int>(b));
        walk(static_cast<int>(b));
    }

    const auto deepest = std::max_element(depth.begin(), depth.end());
    result.depth = nb == 0 ? 0 : *deepest;
    if (result.depth > kMaxMujocoDepth)
        result.tooDeep =
            "the tree is " + std::to_string(result.depth) + " bodies deep (body " +
            quoted(scene.bodies[static_cast<size_t>(deepest - depth.begin())].name) +
            "): MuJoCo 2.2.2's XML reader (tinyxml2) refuses elements nested 100 deep, so it loads trees "
            "up to " +
            std::to_string(kMaxMujocoDepth) + " bodies deep";

    // Couplings. JointLab's gear and rack-and-pinion couple each body's frame angle (its turn about
    // the frame's X since the start, in the world) or frame slide (its frame origin's travel along
    // the X it had at the start, in the world): coupling.h. MuJoCo's joint equality couples two
    // joint coordinates, each relative to its parent. The two are the same law when each body's
    // world coordinate is a fixed linear sum of tree joint coordinates:
    //  - an angle, when every hinge from the body up to the world turns about one common world axis
    //    u along the frame's X (x = s·u): the body's turn is Σ σ_j·Δq_j (σ_j = ±1, hinge j's axis
    //    against u; slides and welds do not turn it), so q = s·Σ σ_j·Δq_j;
    //  - a slide, when nothing from the body up to the world turns (only slides and welds): the
    //    frame origin moves by Σ a_j·Δq_j (a_j the slide's world axis), so q = Σ (x·a_j)·Δq_j.
    // The coupling row C = g0·q0 + g1·q1 + γ is then Σ c_j·Δq_j + γ over the tree joints, with
    // Δq = qpos − ref (= qpos0, the start, where JointLab measures from too); MuJoCo can hold it
    // when at most two c_j are not zero: Δq1 = −γ/c1 − (c2/c1)·Δq2 (polycoef). A gear between two
    // bodies on world hinges is the simplest case; so is one between two hinges on one parent
    // whose axes are parallel, when the gear turns them together (the parent's turn τ enters as
    // (s0·g0 + s1·g1)·τ, which vanishes exactly then).
    std::vector<std::string> tendons;
    std::vector<std::string> worldSites;
    std::vector<std::vector<std::string>> bodySites(nb);
    for (const int j : couplings) {
        const JointDesc& jd = scene.joints[static_cast<size_t>(j)];
        const std::string who = "joint " + quoted(jd.name) + " (" + jd.typeInfo().name + ")";
        const int a = w.bodyIndex(jd.body0), b = w.bodyIndex(jd.body1);
        if (const auto* pulley = std::get_if<PulleyJoint>(&jd.params)) {
            // A rope over two fixed points: one spatial tendon of two branches, the second divided
            // by 1/ratio (MuJoCo's pulley divisor), so its length is l0 + ratio·l1, limited to the
            // rope's length: unilateral, like JointLab's row (a rope only pulls).
            const std::string base = "pulley" + std::to_string(j);
            const auto end = [&](int body, const Transform& frame, const Vec3& anchor, int side) {
                const std::string n = base + "_" + std::to_string(side);
                worldSites.push_back("<site name=\"" + n + "_over\" pos=\"" + vec(toZUp(anchor)) + "\"/>");
                if (body >= 0 && tree.moving[static_cast<size_t>(body)])
                    bodySites[static_cast<size_t>(body)].push_back("<site name=\"" + n + "\" pos=\"" +
                                                                   vec(frame.p) + "\"/>");
                else
                    worldSites.push_back("<site name=\"" + n + "\" pos=\"" +
                                         vec(toZUp((w.startPose(body) * frame).p)) + "\"/>");
                return "<site site=\"" + n + "_over\"/><site site=\"" + n + "\"/>";
            };
            const std::string first = end(a, jd.frame0, pulley->anchor0, 0);
            const std::string second = end(b, jd.frame1, pulley->anchor1, 1);
            tendons.push_back("<spatial name=\"" + attr(jd.name) + "\" limited=\"true\" range=\"0 " +
                              num(pulley->length) + "\">" + first + "<pulley divisor=\"" +
                              num(1.0 / pulley->ratio) + "\"/>" + second + "</spatial>");
            tree.as[static_cast<size_t>(j)] = ExportedAs::Equality;
            result.notes.push_back(who +
                                   ": a spatial tendon limited to the rope's length, which MuJoCo solves as "
                                   "a soft limit (solref 0.02 s)");
            continue;
        }
        // The two coupled coordinates: angle or slide, body, gear frame, weight in the row.
        struct Side {
            int body;
            const Transform* frame;
            bool angle;
            Real weight;
        };
        Side sides[2];
        Real gamma = 0.0;
        if (const auto* gear = std::get_if<GearJoint>(&jd.params)) {
            const bool angle = gear->mode == GearMode::Angular;
            sides[0] = {a, &jd.frame0, angle, 1.0};
            sides[1] = {b, &jd.frame1, angle, gear->ratio};
            gamma = gear->offset;
        } else if (const auto* rack = std::get_if<RackPinionJoint>(&jd.params)) {
            sides[0] = {a, &jd.frame0, true, -rack->ratio};  // C = −ratio·θ0 + x1 − offset
            sides[1] = {b, &jd.frame1, false, 1.0};
            gamma = -rack->offset;
        } else {
            result.omitted.push_back(who + ": MuJoCo has no such coupling");
            continue;
        }
        std::map<int, Real> coefficient;  // scene joint → c_j
        std::string why;
        const auto* relativeRack = std::get_if<RackPinionJoint>(&jd.params);
        const auto* relativeGear = std::get_if<GearJoint>(&jd.params);
        if (relativeRack && relativeRack->relative) {
            // Measured between the two bodies (rack_pinion.h): a pinion hinged and a rack sliding on
            // one common parent give θ = σ_h·Δq_hinge (the rack does not turn on the parent) and
            // x = σ_s·Δq_slide (σ = ±1, the axes against the frames' X), whatever the parent does:
            // MuJoCo's joint equality, whose coordinates are relative to the parent, is the same law.
            const RelativeSide rs[2] = {
                {a, ExportedAs::Hinge, "pinion (body 0)", &jd.frame0, -relativeRack->ratio},
                {b, ExportedAs::Slide, "rack (body 1)", &jd.frame1, 1.0}};
            why = relativeCoefficients(scene, tree, rs, coefficient);
            sides[0].body = sides[1].body = -1;  // the coefficients are complete
        } else if (relativeGear && relativeGear->relative) {
            // Each turn measured on the parent holding both hinges (gear.h): q = σ·Δq_hinge.
            const RelativeSide rs[2] = {{a, ExportedAs::Hinge, "body 0", &jd.frame0, 1.0},
                                        {b, ExportedAs::Hinge, "body 1", &jd.frame1, relativeGear->ratio}};
            why = relativeCoefficients(scene, tree, rs, coefficient);
            sides[0].body = sides[1].body = -1;
        }
        for (int side = 0; side < 2 && why.empty(); ++side) {
            const Side& sd = sides[side];
            const std::string body = side == 0 ? "body 0" : "body 1";
            if (sd.body < 0 || !tree.moving[static_cast<size_t>(sd.body)]) continue;  // q = 0
            const Vec3 x =
                scene.bodies[static_cast<size_t>(sd.body)].orientation * sd.frame->rotate(Vec3(1, 0, 0));
            for (int v = sd.body; v != kWorld && why.empty(); v = tree.parent[static_cast<size_t>(v)]) {
                if (tree.free[static_cast<size_t>(v)]) {
                    why = body + " hangs from " + quoted(scene.bodies[static_cast<size_t>(v)].name) +
                          ", a free body";
                    break;
                }
                const int hj = tree.joint[static_cast<size_t>(v)];
                if (hj < 0) continue;
                const ExportedAs as = tree.as[static_cast<size_t>(hj)];
                const std::string hname = quoted(scene.joints[static_cast<size_t>(hj)].name);
                if (as == ExportedAs::Weld) continue;
                if (as == ExportedAs::Ball) {
                    why =
                        body + "'s " + (sd.angle ? "turn" : "travel") + " depends on the ball joint " + hname;
                    break;
                }
                const JointDesc& h = scene.joints[static_cast<size_t>(hj)];
                const Transform& hf = tree.sign[static_cast<size_t>(hj)] > 0 ? h.frame1 : h.frame0;
                const Vec3 axis = scene.bodies[static_cast<size_t>(v)].orientation * hf.rotate(Vec3(1, 0, 0));
                if (as == ExportedAs::Hinge && !sd.angle) {
                    why = body + "'s travel depends on the hinge " + hname +
                          " (a slide measured in the world is not linear in a turn)";
                    break;
                }
                if (as == ExportedAs::Slide && sd.angle) continue;  // a slide does not turn the body
                const Real d = glm::dot(axis, x);
                if (sd.angle && std::abs(std::abs(d) - 1.0) > 1e-9) {
                    why = body + "'s turn depends on the hinge " + hname + ", whose axis is not along the " +
                          jd.typeInfo().name + "'s X axis on " + body;
                    break;
                }
                coefficient[hj] += sd.weight * (sd.angle ? (d > 0 ? 1.0 : -1.0) : d);
            }
        }
        std::vector<std::pair<int, Real>> terms;
        Real largest = 0.0;
        for (const auto& [joint, c] : coefficient) largest = std::max(largest, std::abs(c));
        for (const auto& [joint, c] : coefficient)
            if (std::abs(c) > 1e-12 * std::max(largest, 1.0)) terms.emplace_back(joint, c);
        if (why.empty() && terms.size() > 2) {
            why = "it couples " + std::to_string(terms.size()) + " joint coordinates (";
            for (size_t t = 0; t < terms.size(); ++t)
                why += (t ? ", " : "") + quoted(scene.joints[static_cast<size_t>(terms[t].first)].name);
            why += ") through the bodies' parents; MuJoCo's joint equality couples two";
        }
        if (why.empty() && terms.empty()) why = "neither coupled coordinate moves in the tree";
        if (!why.empty()) {
            result.omitted.push_back(who + ": not written as a joint equality: " + why);
            continue;
        }
        // Signs: a term's coefficient is on JointLab's sense of the gear frame; MuJoCo's qpos turns
        // (slides) its child about (along) the written axis, which the coefficients already use.
        const auto [j1, c1] = terms[0];
        std::string e = "<joint name=\"" + attr(jd.name) + "\" joint1=\"" +
                        attr(scene.joints[static_cast<size_t>(j1)].name) + "\"";
        Real p0 = -gamma / c1 + 0.0, p1 = 0.0;  // + 0.0: no "-0" in the file
        if (terms.size() == 2) {
            e += " joint2=\"" + attr(scene.joints[static_cast<size_t>(terms[1].first)].name) + "\"";
            p1 = -terms[1].second / c1 + 0.0;
        }
        // A relative rack's pinion is light (the import's is a tenth of its fingers' inertia on θ), so
        // MuJoCo's default time constant, which scales the equality's stiffness by that small
        // constraint-space inertia, would let the fingers push it around by millimetres: such an
        // equality gets MuJoCo's stiffest safe time constant, two steps (docs/reference.md).
        const bool stiff = relativeRack && relativeRack->relative;
        const std::string solref = stiff ? num(2.0 * scene.settings.dt) : std::string("0.02");
        w.equalities.push_back(e + " polycoef=\"" + num(p0) + " " + num(p1) + " 0 0 0\"" +
                               (stiff ? " solref=\"" + solref + " 1\"" : std::string()) + "/>");
        tree.as[static_cast<size_t>(j)] = ExportedAs::Equality;
        result.notes.push_back(who + ": a joint equality, which MuJoCo solves as a soft constraint (solref " +
                               solref + " s)");
    }

    // Settings. Contacts: the ground plane touches bodies (bit 1), bodies touch each other (bit 2)
    // only when JointLab's do, so the two have contacts in the same places.
    const WorldSettings& st = scene.settings;
    const bool contacts = st.groundPlane || st.bodyCollisions;
    const int bodyBits = st.bodyCollisions ? 2 : 0;
    w.geomExtra = " contype=\"" + std::to_string(bodyBits) + "\" conaffinity=\"" +
                  std::to_string(bodyBits | (st.groundPlane ? 1 : 0)) + "\" friction=\"" +
                  num(st.bodyFriction) + " 0.005 0.0001\"";
    bool damped = false, filtered = false;
    for (const BodyDesc& d : scene.bodies) {
        damped = damped || (d.motion == MotionType::Dynamic && (d.linearDamping > 0 || d.angularDamping > 0));
        const bool none = d.collisionGroup == 0 || d.collisionMask == 0;  // written: contype 0
        filtered = filtered || (!none && (d.collisionGroup != 1 || d.collisionMask != 0xFFFF));
    }
    if (damped)
        result.notes.push_back(
            "body damping (linearDamping, angularDamping) is not written: MuJoCo has none");
    if (filtered && st.bodyCollisions)
        result.notes.push_back("collision filters (collisionGroup, collisionMask) are not written");
    if (contacts)
        result.notes.push_back(
            "contacts: MuJoCo's soft contacts, not JointLab's; the runs agree only until a body touches");

    std::string out = "<mujoco model=\"jointlab\">\n";
    out +=
        "  <!-- written by JointLab (jointlab export); Y-up turned Z-up, frames at the centres of mass -->\n";
    out += "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n";
    out += "  <option timestep=\"" + num(st.dt) + "\" gravity=\"" + vec(toZUp(st.gravity)) +
           "\" integrator=\"Euler\">\n";
    out += std::string("    <flag contact=\"") + (contacts ? "enable" : "disable") + "\"/>\n  </option>\n";
    std::string assets;
    for (size_t b = 0; b < nb; ++b) {
        const BodyDesc& d = scene.bodies[b];
        if (d.shape != ShapeType::Hull) continue;
        assets += "    <mesh name=\"hull" + std::to_string(b) + "\" vertex=\"";
        for (size_t i = 0; i < d.hullPoints.size(); ++i) assets += (i ? " " : "") + vec(d.hullPoints[i]);
        assets += "\"/>\n";
    }
    if (!assets.empty()) out += "  <asset>\n" + assets + "  </asset>\n";
    out += "  <worldbody>\n";
    if (st.groundPlane)
        out +=
            "    <geom name=\"ground\" type=\"plane\" size=\"50 50 0.1\" contype=\"1\" conaffinity=\"0\" "
            "friction=\"" +
            num(st.groundFriction) + " 0.005 0.0001\"/>\n";
    for (const std::string& site : worldSites) out += "    " + site + "\n";
    w.sites = &bodySites;
    for (const int c : w.worldChildren) w.writeBody(out, c, 2);
    // Static (and kinematic) bodies after the moving ones, so that MuJoCo numbers those 1 to n as
    // tree.order says: each a body of its own without a joint (fixed to the world), so that the
    // contacts JointLab leaves out between joined bodies can be left out of MuJoCo by name too
    // (MuJoCo filters a body's contacts with its parent, but never with the world body).
    for (size_t b = 0; b < nb; ++b) {
        const BodyDesc& d = scene.bodies[b];
        if (d.motion == MotionType::Dynamic) continue;
        out += "    <body name=\"" + attr(d.name) + "\" pos=\"" + vec(toZUp(d.position)) + "\" quat=\"" +
               quat(toZUp(d.orientation)) + "\">\n";
        writeBodyGeoms(out, "      ", d, static_cast<int>(b), Transform{}, w.geomExtra);
        out += "    </body>\n";
    }
    out += "  </worldbody>\n";
    // Joined bodies do not touch (unless the joint's collideConnected says so), by JointLab's rule.
    std::set<std::pair<int, int>> excluded;
    for (const auto& [a, b] : jointExcludedPairs(scene))
        if (tree.moving[static_cast<size_t>(a)] || tree.moving[static_cast<size_t>(b)])
            excluded.emplace(a, b);
    if (!excluded.empty() && contacts) {
        out += "  <contact>\n";
        for (const auto& [a, b] : excluded)
            out += "    <exclude body1=\"" + attr(scene.bodies[static_cast<size_t>(a)].name) + "\" body2=\"" +
                   attr(scene.bodies[static_cast<size_t>(b)].name) + "\"/>\n";
        out += "  </contact>\n";
    }
    if (!tendons.empty()) {
        out += "  <tendon>\n";
        for (const std::string& t : tendons) out += "    " + t + "\n";
        out += "  </tendon>\n";
    }
    if (!w.equalities.empty()) {
        out += "  <equality>\n";
        for (const std::string& e : w.equalities) out += "    " + e + "\n";
        out += "  </equality>\n";
    }
    out += "</mujoco>\n";
    result.xml = std::move(out);
    for (const std::string& o : result.omitted)
        if (o.find(": starts broken") == std::string::npos) result.blocking.push_back(o);
    return result;
}

std::string exportMjcf(const Scene& scene, std::string& error, std::string* warning) {
    MjcfExport e = exportScene(scene);
    if (!e.error.empty()) {
        error = e.error;
        return "";
    }
    if (warning) {
        warning->clear();
        for (const std::string& s : e.omitted) *warning += "left out: " + s + "\n";
        for (const std::string& s : e.notes) *warning += "differs: " + s + "\n";
    }
    return e.xml;
}

}  // namespace jl::interop
