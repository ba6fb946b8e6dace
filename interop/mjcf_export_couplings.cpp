// MJCF export, the couplings (interop/mjcf_export_parts.h): gears and racks as MuJoCo joint
// equalities where their law is one between at most two tree joints, pulleys as limited spatial
// tendons; every other coupling left out and named.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "interop/axes.h"
#include "interop/mjcf_export_parts.h"
#include "interop/mjcf_text.h"
#include "jointlab/xml_text.h"

namespace jl::interop::mjcf {

namespace {

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
/// `hinge` receives, per side, the hinge whose coordinate it reads (its own; across a middle link,
/// the middle's for P's side), on whose axis a parallel gear's origin must sit.
std::string relativeCoefficients(const Scene& s, const MjcfTree& tree, const RelativeSide (&sides)[2],
                                 std::map<int, Real>& coefficient, int (&hinge)[2]) {
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
        hinge[k] = a.first;
        hinge[o] = hung[o].first;
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
    for (int k = 0; k < 2; ++k) {
        coefficient[hung[k].first] += sides[k].weight * hung[k].second;
        hinge[k] = hung[k].first;
    }
    return "";
}

/// A length for messages, to three digits.
std::string metres(Real x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g m", x);
    return b;
}

/// Why relative gear `gear`, once its X axes were parallel at the start, would not be MuJoCo's joint
/// equality between `hinge[0]` and `hinge[1]` (the hinges whose coordinates relativeCoefficients
/// found for its two sides); "" when it would, and for axes at an angle, which it reads from the
/// bodies' rotation alone. Parallel, it reads each turn through its frames' origins (gear.h
/// "Parallel axes"), taking each as fixed on the carrier, i.e. on its side's hinge axis: an origin e
/// off that axis circles it as the body turns, moving d = p1 − p0 by up to 2e, so the reading strays
/// from the hinge's angle by up to about 2e/|d⊥|. Allowed up to 1e-6 rad: under what either engine
/// holds such a law to (JointLab's relative gear 2.6e-5 rad at best, MuJoCo's soft equality 5.7e-3
/// rad; docs/import.md), and far above rounding. Origins closer than kParallelGearMinDistance to each
/// other's axis leave no row at all.
std::string parallelReadingProblem(const Scene& s, const BodyNames& names, const JointDesc& gear,
                                   const int (&hinge)[2]) {
    const int body[2] = {names(gear.body0), names(gear.body1)};
    const Transform f[2] = {startPose(s, body[0]) * gear.frame0, startPose(s, body[1]) * gear.frame1};
    const Vec3 x[2] = {f[0].rotate(Vec3(1, 0, 0)), f[1].rotate(Vec3(1, 0, 0))};
    const Real c = glm::dot(x[0], x[1]);
    if (1.0 - c * c >= kRelativeGearParallelSin2) return "";
    const Vec3 d = f[1].p - f[0].p;
    const Real across =
        std::min(glm::length(d - glm::dot(d, x[0]) * x[0]), glm::length(d - glm::dot(d, x[1]) * x[1]));
    if (across < kParallelGearMinDistance)
        return "its frames' origins are " + metres(across) + " from each other's axis, under the " +
               metres(kParallelGearMinDistance) +
               " below which JointLab's gear, reading parallel hinges through their origins, writes no row";
    for (int k = 0; k < 2; ++k) {
        const JointDesc& h = s.joints[static_cast<size_t>(hinge[k])];
        const bool on0 = names(h.body0) == body[k];  // the hinge's frame on this side's body
        const Transform hf = startPose(s, names(on0 ? h.body0 : h.body1)) * (on0 ? h.frame0 : h.frame1);
        const Vec3 u = hf.rotate(Vec3(1, 0, 0)), r = f[k].p - hf.p;
        const Real off = glm::length(r - glm::dot(r, u) * u);
        if (2.0 * off / across > 1e-6)
            return std::string(k == 0 ? "body 0" : "body 1") + "'s frame origin is " + metres(off) +
                   " off the axis of its hinge " + quoted(h.name) +
                   ": the gear reads parallel hinges' turns through its frames' origins (gear.h), taking "
                   "them as fixed on the carrier, so its law is not the one between the hinges' coordinates";
    }
    return "";
}

}  // namespace

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
void exportCouplings(const Scene& scene, const BodyNames& names, const std::vector<int>& couplings,
                     MjcfExport& result, ExtraElements& out) {
    MjcfTree& tree = result.tree;
    for (const int j : couplings) {
        const JointDesc& jd = scene.joints[static_cast<size_t>(j)];
        const std::string who = "joint " + quoted(jd.name) + " (" + jd.typeInfo().name + ")";
        const int a = names(jd.body0), b = names(jd.body1);
        if (const auto* pulley = std::get_if<PulleyJoint>(&jd.params)) {
            // A rope over two fixed points: one spatial tendon of two branches, the second divided
            // by 1/ratio (MuJoCo's pulley divisor), so its length is l0 + ratio·l1, limited to the
            // rope's length: unilateral, like JointLab's row (a rope only pulls).
            const std::string base = "pulley" + std::to_string(j);
            const auto end = [&](int body, const Transform& frame, const Vec3& anchor, int side) {
                const std::string n = base + "_" + std::to_string(side);
                out.worldSites.push_back("<site name=\"" + n + "_over\" pos=\"" + vec(toZUp(anchor)) +
                                         "\"/>");
                if (body >= 0 && tree.moving[static_cast<size_t>(body)])
                    out.bodySites[static_cast<size_t>(body)].push_back("<site name=\"" + n + "\" pos=\"" +
                                                                       vec(frame.p) + "\"/>");
                else
                    out.worldSites.push_back("<site name=\"" + n + "\" pos=\"" +
                                             vec(toZUp((startPose(scene, body) * frame).p)) + "\"/>");
                return "<site site=\"" + n + "_over\"/><site site=\"" + n + "\"/>";
            };
            const std::string first = end(a, jd.frame0, pulley->anchor0, 0);
            const std::string second = end(b, jd.frame1, pulley->anchor1, 1);
            out.tendons.push_back("<spatial name=\"" + xmlEscape(jd.name) + "\" limited=\"true\" range=\"0 " +
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
            int hinge[2];
            why = relativeCoefficients(scene, tree, rs, coefficient, hinge);
            sides[0].body = sides[1].body = -1;  // the coefficients are complete
        } else if (relativeGear && relativeGear->relative) {
            // Each turn measured on the parent holding both hinges (gear.h): q = σ·Δq_hinge.
            const RelativeSide rs[2] = {{a, ExportedAs::Hinge, "body 0", &jd.frame0, 1.0},
                                        {b, ExportedAs::Hinge, "body 1", &jd.frame1, relativeGear->ratio}};
            int hinge[2];
            why = relativeCoefficients(scene, tree, rs, coefficient, hinge);
            if (why.empty()) why = parallelReadingProblem(scene, names, jd, hinge);
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
        std::string e = "<joint name=\"" + xmlEscape(jd.name) + "\" joint1=\"" +
                        xmlEscape(scene.joints[static_cast<size_t>(j1)].name) + "\"";
        Real p0 = -gamma / c1 + 0.0, p1 = 0.0;  // + 0.0: no "-0" in the file
        if (terms.size() == 2) {
            e += " joint2=\"" + xmlEscape(scene.joints[static_cast<size_t>(terms[1].first)].name) + "\"";
            p1 = -terms[1].second / c1 + 0.0;
        }
        // A relative rack's pinion is light (the import's is a tenth of its fingers' inertia on θ), so
        // MuJoCo's default time constant, which scales the equality's stiffness by that small
        // constraint-space inertia, would let the fingers push it around by millimetres: such an
        // equality gets MuJoCo's stiffest safe time constant, two steps (docs/reference.md).
        const bool stiff = relativeRack && relativeRack->relative;
        const std::string solref = stiff ? num(2.0 * scene.settings.dt) : std::string("0.02");
        out.equalities.push_back(e + " polycoef=\"" + num(p0) + " " + num(p1) + " 0 0 0\"" +
                                 (stiff ? " solref=\"" + solref + " 1\"" : std::string()) + "/>");
        tree.as[static_cast<size_t>(j)] = ExportedAs::Equality;
        result.notes.push_back(who + ": a joint equality, which MuJoCo solves as a soft constraint (solref " +
                               solref + " s)");
    }
}

}  // namespace jl::interop::mjcf
