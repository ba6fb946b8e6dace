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
#include "interop/mjcf_export_parts.h"
#include "interop/mjcf_text.h"
#include "jointlab/collision_filter.h"
#include "jointlab/scenario_io.h"
#include "jointlab/xml_text.h"

namespace jl::interop {

namespace {

/// MuJoCo 2.2.2 reads MJCF with tinyxml2, which refuses elements nested 100 deep: a body at depth
/// d (the world's children at 1) holds elements at XML depth d + 3, so trees up to 96 bodies deep
/// load (measured: a 96-link chain loads, a 97-link one does not).
constexpr int kMaxMujocoDepth = 96;

/// MuJoCo 2.2.2's constraint buffer by default: 500 rows (its warning when full says "Increase
/// njmax above 500"). When more are needed at once it drops every constraint of that step.
constexpr int kMujocoDefaultRows = 500;

/// The most a reference run's mjData may take for its constraint buffer: MuJoCo 2.2.2 allocates
/// its Jacobians at njmax × nv and its constraint matrix at njmax² (mjdata.h), and stops the
/// process (mju_error) when an allocation fails.
constexpr double kMaxConstraintBytes = 1024.0 * 1024.0 * 1024.0;

bool isTreeType(const JointDesc& j) {
    return std::holds_alternative<RevoluteJoint>(j.params) ||
           std::holds_alternative<PrismaticJoint>(j.params) ||
           std::holds_alternative<SphericalJoint>(j.params) || std::holds_alternative<FixedJoint>(j.params);
}

}  // namespace

namespace mjcf {

std::string quoted(const std::string& name) {
    std::string out = "\"";
    for (const char c : name) {  // escaped, so that groupedLines can tell where a name ends
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

int node(const Scene& s, int b) {
    return b >= 0 && s.bodies[static_cast<size_t>(b)].motion == MotionType::Dynamic ? b : kWorld;
}

Transform startPose(const Scene& s, int b) {
    if (b < 0) return {};
    const BodyDesc& d = s.bodies[static_cast<size_t>(b)];
    return {d.position, d.orientation};
}

BodyNames::BodyNames(const Scene& s) {
    for (size_t b = 0; b < s.bodies.size(); ++b) index.emplace(s.bodies[b].name, static_cast<int>(b));
}

int BodyNames::operator()(const std::string& name) const {
    if (name.empty()) return kWorld;
    const auto it = index.find(name);
    return it == index.end() ? kWorld : it->second;
}

}  // namespace mjcf

MjcfExport exportScene(const Scene& scene) {
    using namespace mjcf;
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

    const BodyNames names(scene);
    ExtraElements extra;
    extra.bodySites.assign(nb, {});
    TreeWriter w{scene, names, result, extra, std::vector<std::vector<int>>(nb), {}, {}};

    // The joint graph: per node (body, or the world at index nb), its joints in scene order.
    std::vector<std::vector<int>> adjacent(nb + 1);
    const auto slot = [&](int n) { return n == kWorld ? nb : static_cast<size_t>(n); };
    std::vector<int> end0(nj), end1(nj);
    std::vector<int> couplings;
    for (size_t j = 0; j < nj; ++j) {
        const JointDesc& jd = scene.joints[j];
        const std::string who = "joint " + quoted(jd.name) + " (" + jd.typeInfo().name + ")";
        end0[j] = node(scene, names(jd.body0));
        end1[j] = node(scene, names(jd.body1));
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

    // Couplings: joint equalities and tendons (mjcf_export_couplings.cpp).
    exportCouplings(scene, names, couplings, result, extra);

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

    // The tree first: what it writes (the limits) sizes MuJoCo's constraint buffer.
    std::string bodiesXml;
    w.writeTree(bodiesXml);
    // Rows MuJoCo may need at once: one per joint equality and per tendon equality, one per limit,
    // and with contacts MuJoCo's own default budget for those on top.
    result.constraintRows = static_cast<int>(extra.equalities.size()) + w.limitRows;
    const int rows = result.constraintRows + (contacts ? kMujocoDefaultRows : 0);
    int nv = 0;  // MuJoCo's degrees of freedom
    for (size_t b = 0; b < nb; ++b) {
        const int j = tree.joint[b];
        nv += tree.free[b] ? 6
              : j < 0      ? 0
                           : (tree.as[static_cast<size_t>(j)] == ExportedAs::Ball   ? 3
                              : tree.as[static_cast<size_t>(j)] == ExportedAs::Weld ? 0
                                                                                    : 1);
    }
    const double bytes = static_cast<double>(rows) * nv * 24.0 + static_cast<double>(rows) * rows * 12.0;
    if (rows > kMujocoDefaultRows && bytes > kMaxConstraintBytes) {
        char gb[32];
        std::snprintf(gb, sizeof gb, "%.1f", bytes / (1024.0 * 1024.0 * 1024.0));
        result.tooLarge =
            "the model has " + std::to_string(result.constraintRows) +
            " equality and limit rows: MuJoCo 2.2.2 would allocate about " + gb +
            " GB for its constraint buffer (njmax × degrees of freedom and njmax²), more than the 1 GB a "
            "reference run may take";
    }

    std::string out = "<mujoco model=\"jointlab\">\n";
    out +=
        "  <!-- written by JointLab (jointlab export); Y-up turned Z-up, frames at the centres of mass -->\n";
    out += "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n";
    out += "  <option timestep=\"" + num(st.dt) + "\" gravity=\"" + vec(toZUp(st.gravity)) +
           "\" integrator=\"Euler\">\n";
    out += std::string("    <flag contact=\"") + (contacts ? "enable" : "disable") + "\"/>\n  </option>\n";
    if (rows > kMujocoDefaultRows) out += "  <size njmax=\"" + std::to_string(rows) + "\"/>\n";
    std::string assets;
    auto meshAsset = [&](const std::string& name, const std::vector<Vec3>& points) {
        assets += "    <mesh name=\"" + name + "\" vertex=\"";
        for (size_t i = 0; i < points.size(); ++i) assets += (i ? " " : "") + vec(points[i]);
        assets += "\"/>\n";
    };
    for (size_t b = 0; b < nb; ++b) {
        const BodyDesc& d = scene.bodies[b];
        if (d.shape == ShapeType::Hull) meshAsset(hullMeshName(static_cast<int>(b), -1), d.hullPoints);
        if (d.shape != ShapeType::Compound) continue;
        for (size_t k = 0; k < d.children.size(); ++k)  // MuJoCo takes each mesh's convex hull itself
            if (d.children[k].shape == ShapeType::Hull)
                meshAsset(hullMeshName(static_cast<int>(b), static_cast<int>(k)), d.children[k].hullPoints);
    }
    if (!assets.empty()) out += "  <asset>\n" + assets + "  </asset>\n";
    out += "  <worldbody>\n";
    if (st.groundPlane)
        out +=
            "    <geom name=\"ground\" type=\"plane\" size=\"50 50 0.1\" contype=\"1\" conaffinity=\"0\" "
            "friction=\"" +
            num(st.groundFriction) + " 0.005 0.0001\"/>\n";
    for (const std::string& site : extra.worldSites) out += "    " + site + "\n";
    out += bodiesXml;
    // Static (and kinematic) bodies after the moving ones, so that MuJoCo numbers those 1 to n as
    // tree.order says: each a body of its own without a joint (fixed to the world), so that the
    // contacts JointLab leaves out between joined bodies can be left out of MuJoCo by name too
    // (MuJoCo filters a body's contacts with its parent, but never with the world body).
    for (size_t b = 0; b < nb; ++b) {
        const BodyDesc& d = scene.bodies[b];
        if (d.motion == MotionType::Dynamic) continue;
        out += "    <body name=\"" + xmlEscape(d.name) + "\" pos=\"" + vec(toZUp(d.position)) + "\" quat=\"" +
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
            out += "    <exclude body1=\"" + xmlEscape(scene.bodies[static_cast<size_t>(a)].name) +
                   "\" body2=\"" + xmlEscape(scene.bodies[static_cast<size_t>(b)].name) + "\"/>\n";
        out += "  </contact>\n";
    }
    if (!extra.tendons.empty()) {
        out += "  <tendon>\n";
        for (const std::string& t : extra.tendons) out += "    " + t + "\n";
        out += "  </tendon>\n";
    }
    if (!extra.equalities.empty()) {
        out += "  <equality>\n";
        for (const std::string& e : extra.equalities) out += "    " + e + "\n";
        out += "  </equality>\n";
    }
    out += "</mujoco>\n";
    result.xml = std::move(out);
    for (const std::string& o : result.omitted)
        if (o.find(": starts broken") == std::string::npos) result.blocking.push_back(o);
    return result;
}

std::vector<std::string> groupedLines(const std::vector<std::string>& lines) {
    constexpr size_t kShown = 6;  // names a line, as the import's warning (ImportNotes)
    struct Group {
        std::string head, tail;  // "joint " and " (gear): what"
        std::vector<std::string> names;
    };
    std::vector<Group> groups;
    std::map<std::pair<std::string, std::string>, size_t> index;
    for (const std::string& line : lines) {
        // "<kind> \"<name>\"<rest>", the name as quoted() wrote it (its quotes escaped).
        const size_t open = line.find('"');
        size_t close = open == std::string::npos ? open : open + 1;
        while (close < line.size() && line[close] != '"') close += line[close] == '\\' ? 2 : 1;
        if (open == std::string::npos || close >= line.size()) {
            groups.push_back({line, "", {}});  // no name: a line of its own
            continue;
        }
        std::pair<std::string, std::string> key{line.substr(0, open), line.substr(close + 1)};
        const auto [it, added] = index.emplace(key, groups.size());
        if (added) groups.push_back({key.first, key.second, {}});
        groups[it->second].names.push_back(line.substr(open, close + 1 - open));
    }
    std::vector<std::string> out;
    for (const Group& g : groups) {
        if (g.names.size() <= 1) {
            out.push_back(g.head + (g.names.empty() ? "" : g.names[0]) + g.tail);
            continue;
        }
        std::string head = g.head;  // "joint " → "joints ", "body " → "bodies "
        if (head == "joint ") head = "joints ";
        if (head == "body ") head = "bodies ";
        std::string s = head;
        for (size_t i = 0; i < std::min(g.names.size(), kShown); ++i) s += (i ? ", " : "") + g.names[i];
        if (g.names.size() > kShown) s += " and " + std::to_string(g.names.size() - kShown) + " more";
        out.push_back(s + g.tail);
    }
    return out;
}

std::string exportMjcf(const Scene& scene, std::string& error, std::string* warning) {
    MjcfExport e = exportScene(scene);
    if (!e.error.empty()) {
        error = e.error;
        return "";
    }
    if (!e.tooDeep.empty()) {  // MuJoCo's XML reader would refuse it
        error = e.tooDeep;
        return "";
    }
    if (warning) {
        warning->clear();
        for (const std::string& s : groupedLines(e.omitted)) *warning += "left out: " + s + "\n";
        for (const std::string& s : groupedLines(e.notes)) *warning += "differs: " + s + "\n";
        if (!e.tooLarge.empty()) *warning += "differs: " + e.tooLarge + "\n";
    }
    return e.xml;
}

}  // namespace jl::interop
