// The conditioning advisor (jointlab/advisor.h, docs/advisor.md).
#include "jointlab/advisor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>

#include "jointlab/name_index.h"
#include "jointlab/world.h"

namespace jl {

namespace {

std::string fmt(const char* format, double a, double b = 0.0, double c = 0.0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, format, a, b, c);
    return buf;
}

std::string quoted(const std::string& s) {
    return "\"" + s + "\"";
}

Advice makeAdvice(AdviceKind kind, int joint, Real value, Real limit) {
    Advice a;
    a.kind = kind;
    a.joint = joint;
    a.value = value;
    a.limit = limit;
    return a;
}

/// One side of a joint as the joint sees it.
struct Side {
    int body = -1;  ///< scene index, −1 for the world
    bool dynamic = false;
    Real mass = kInf;     ///< mass / invMassScale (inf for the world, static and kinematic bodies)
    Real inertia = kInf;  ///< largest principal moment / invInertiaScale
    Real minInertia = kInf;
    Vec3 principal{kInf};  ///< principal moments (unscaled)
    Real massScale = 1.0, inertiaScale = 1.0;
    Transform frame;  ///< the joint frame in the body's frame
    Quat orientation{1.0, 0.0, 0.0, 0.0};
    std::string name;  ///< the body's name, "the world" for none
};

Side sideOf(const Scene& scene, const JointDesc& j, int s) {
    Side out;
    out.name = s == 0 ? j.body0 : j.body1;
    out.body = scene.findBody(out.name);
    out.frame = s == 0 ? j.frame0 : j.frame1;
    out.massScale = s == 0 ? j.invMassScale0 : j.invMassScale1;
    out.inertiaScale = s == 0 ? j.invInertiaScale0 : j.invInertiaScale1;
    if (out.body < 0) {
        out.name = "the world";
        return out;
    }
    const BodyDesc& b = scene.bodies[static_cast<size_t>(out.body)];
    out.orientation = b.orientation;
    out.dynamic = b.motion == MotionType::Dynamic;
    if (!out.dynamic) return out;
    const MassProperties mp = computeMassProperties(b);
    out.principal = mp.inertia;
    const Real iMax = std::max({mp.inertia.x, mp.inertia.y, mp.inertia.z});
    out.minInertia = std::min({mp.inertia.x, mp.inertia.y, mp.inertia.z});
    out.mass = out.massScale > 0.0 ? mp.mass / out.massScale : kInf;
    out.inertia = out.inertiaScale > 0.0 ? iMax / out.inertiaScale : kInf;
    return out;
}

/// aᵀ I⁻¹ a for a side (world axis a), with the inertia scale; 0 for a side that does not move.
Real inverseInertiaAlong(const Side& s, const Vec3& a) {
    if (!s.dynamic) return 0.0;
    const Vec3 l = glm::conjugate(s.orientation) * a;  // in the body's principal frame
    return s.inertiaScale *
           (l.x * l.x / s.principal.x + l.y * l.y / s.principal.y + l.z * l.z / s.principal.z);
}

Real inverseMass(const Side& s) {
    return s.dynamic && std::isfinite(s.mass) ? 1.0 / s.mass : 0.0;
}

bool hasPointLock(const JointDesc& j) {
    const std::string type = j.typeInfo().name;
    return type == "revolute" || type == "spherical" || type == "fixed" || type == "d6";
}

/// The substep the solver advances springs by: dt for PGS, dt / posIters for TGS [D 40].
Real springStep(const WorldSettings& s) {
    return s.solver == SolverType::TGS ? s.dt / s.posIters : s.dt;
}

// [SECTION] The analyses, one per kind

void massRatio(const Scene& scene, int j, const Side& a, const Side& b, const AdvisorLimits& lim,
               std::vector<Advice>& out) {
    if (!a.dynamic || !b.dynamic || !std::isfinite(a.mass) || !std::isfinite(b.mass)) return;
    const bool aHeavy = a.mass >= b.mass;
    const Side& heavy = aHeavy ? a : b;
    const Side& light = aHeavy ? b : a;
    const Real ratio = heavy.mass / light.mass;
    if (ratio <= lim.massRatio) return;
    Advice x = makeAdvice(AdviceKind::MassRatio, j, ratio, lim.massRatio);
    x.title = fmt("mass ratio %.3g", ratio) + " across " + quoted(scene.joints[static_cast<size_t>(j)].name);
    x.explanation =
        "This joint ties " + quoted(heavy.name) + fmt(" (%.3g kg as the joint sees it)", heavy.mass) +
        " to " + quoted(light.name) + fmt(" (%.3g kg): %.3g times lighter. ", light.mass, ratio) +
        "Each impulse moves the light body almost all the way and the heavy one hardly at all, so in each "
        "sweep the heavy body's pull reaches the rest of the scene only in a small part: the joint "
        "stretches and jitters unless the solver sweeps many times. More iterations or TGS's substeps "
        "carry the correction further; mass scales make the joint see the two bodies as closer in mass "
        "(the joint then no longer conserves momentum exactly, a price games usually pay). Where the "
        "joints form no loop, point constraints = tree solves them exactly along their tree after every "
        "sweep, at several times the cost of a step.";
    x.fixes = {AdviceFix::MoreIterations, AdviceFix::UseTgs, AdviceFix::MassScales};
    out.push_back(std::move(x));
}

void inertiaRatio(const Scene& scene, int j, const Side& a, const Side& b, const AdvisorLimits& lim,
                  std::vector<Advice>& out) {
    if (!a.dynamic || !b.dynamic || !std::isfinite(a.inertia) || !std::isfinite(b.inertia)) return;
    const Real ratio = std::max(a.inertia, b.inertia) / std::min(a.inertia, b.inertia);
    if (ratio <= lim.inertiaRatio) return;
    const Side& big = a.inertia >= b.inertia ? a : b;
    const Side& small = a.inertia >= b.inertia ? b : a;
    Advice x = makeAdvice(AdviceKind::InertiaRatio, j, ratio, lim.inertiaRatio);
    x.title =
        fmt("inertia ratio %.3g", ratio) + " across " + quoted(scene.joints[static_cast<size_t>(j)].name);
    x.explanation = "Turning " + quoted(big.name) + " is " + fmt("%.3g", ratio) +
                    " times harder than turning " + quoted(small.name) +
                    ". The joint's angular rows then behave like a large mass ratio: the easy body "
                    "spins to meet each row while the hard one barely turns, and the error left over "
                    "shrinks only slowly from sweep to sweep. More iterations or TGS help; so does an "
                    "inertia scale that makes the joint see the two as closer, or, where the joints "
                    "form no loop, point constraints = tree (a limit on the easy body then holds the "
                    "hard one).";
    x.fixes = {AdviceFix::MoreIterations, AdviceFix::UseTgs, AdviceFix::MassScales};
    out.push_back(std::move(x));
}

void longLever(const Scene& scene, int j, const Side& a, const Side& b, const AdvisorLimits& lim,
               std::vector<Advice>& out) {
    const JointDesc& d = scene.joints[static_cast<size_t>(j)];
    if (!hasPointLock(d) || scene.settings.pointSolve != PointSolve::Rows) return;
    for (const Side* s : {&a, &b}) {
        if (!s->dynamic || !std::isfinite(s->mass) || !(s->minInertia > 0.0)) continue;
        const Real r = glm::length(s->frame.p);
        const Real beta = s->mass * s->massScale * r * r / s->minInertia;  // unscaled m r² / I
        if (beta <= lim.lever) continue;
        Advice x = makeAdvice(AdviceKind::LongLever, j, beta, lim.lever);
        x.title = fmt("lever β = %.3g", beta) + " on " + quoted(s->name) + " at " + quoted(d.name);
        x.explanation =
            "The joint holds " + quoted(s->name) + fmt(" at a point %.3g m from its centre of mass, ", r) +
            "and the body is light to turn for its size there: β = m·r²/I = " + fmt("%.3g. ", beta) +
            "A push along one of the joint's linear rows then mostly spins the body, which moves the anchor "
            "along the other rows as well: solved one after another, each row undoes part of the last, and "
            "the error falls by only about 1/(1 + β) per sweep. Solving the point's rows at once (block) "
            "removes the coupling; more iterations or TGS reduce it.";
        x.fixes = {AdviceFix::BlockPointSolve, AdviceFix::MoreIterations, AdviceFix::UseTgs};
        out.push_back(std::move(x));
        return;
    }
}

void weakRows(const Scene& scene, const World& world, int j, const AdvisorLimits& lim,
              std::vector<Advice>& out) {
    const auto results = world.jointRowResults(j);
    Real weakest = kInf;
    int dropped = 0;
    for (const RowResult& r : results) {
        if (!r.active)
            ++dropped;
        else
            weakest = std::min(weakest, r.unitResponse);
    }
    if (dropped == 0 && !(weakest < lim.weakResponse)) return;
    const JointDesc& d = scene.joints[static_cast<size_t>(j)];
    Advice x = makeAdvice(AdviceKind::WeakRow, j, dropped ? 0.0 : weakest, lim.weakResponse);
    x.title = dropped ? fmt("%.0f row(s) dropped", dropped) + " at " + quoted(d.name)
                      : fmt("weak row (response %.3g)", weakest) + " at " + quoted(d.name);
    x.explanation =
        "A row's unit response J·M⁻¹·Jᵀ says how fast the bodies move when the row pushes. Here it is " +
        std::string(dropped ? "below" : "close to") +
        fmt(" the solver's threshold (%.3g): ", World::minRowResponse()) +
        "both bodies are (nearly) infinitely heavy along the row, through their motion types, their masses "
        "or the joint's mass scales. The row can then barely act" +
        std::string(dropped ? ", and the solver switched it off." : ", and its impulse grows huge.") +
        " Check the mass scales (0 makes a body immovable for this joint) and which bodies are static.";
    const bool scaled = d.invMassScale0 < 1.0 || d.invMassScale1 < 1.0 || d.invInertiaScale0 < 1.0 ||
                        d.invInertiaScale1 < 1.0;
    if (scaled) x.fixes = {AdviceFix::ResetMassScales};
    out.push_back(std::move(x));
}

void stiffDrive(const Scene& scene, int j, const AdvisorLimits& lim, std::vector<Advice>& out) {
    const Real w = driveNaturalFrequency(scene, j);
    const Real h = springStep(scene.settings);
    if (!(w * h > lim.driveOmegaH)) return;
    const bool tgs = scene.settings.solver == SolverType::TGS;
    Advice x = makeAdvice(AdviceKind::StiffDrive, j, w * h, lim.driveOmegaH);
    x.title =
        fmt("stiff drive: ω_n·h = %.3g", w * h) + " at " + quoted(scene.joints[static_cast<size_t>(j)].name);
    x.explanation =
        fmt("This drive's natural frequency is ω_n = %.3g rad/s (a period of %.3g s), ", w,
            2.0 * 3.14159265 / w) +
        std::string("and ") + (tgs ? "TGS advances it in substeps" : "PGS advances it in steps") +
        fmt(" of h = %.3g s: ω_n·h = %.3g. ", h, w * h) +
        "The solver's implicit spring never blows up, but with so few steps per swing it loses a large part "
        "of the motion every step (implicit Euler's numerical damping) and rings slower than the real "
        "spring: the drive feels soft and sluggish. A smaller time step" +
        std::string(tgs ? " or more substeps" : " or TGS (which substeps the spring)") + " fixes it.";
    x.fixes = {AdviceFix::SmallerDt};
    if (!tgs) x.fixes.push_back(AdviceFix::UseTgs);
    if (tgs) x.fixes.push_back(AdviceFix::MoreIterations);
    out.push_back(std::move(x));
}

/// Each body's distance (in joints) from something that does not move, and its group's deepest.
struct ChainDepths {
    std::vector<int> bodyDepth;   ///< −1: not anchored (or not dynamic)
    std::vector<int> group;       ///< a body's group: the bodies joined to it through dynamic bodies
    std::vector<int> groupDepth;  ///< by group (indexed by the group's first body): its deepest body
};

int findGroup(std::vector<int>& parent, int b) {
    while (parent[static_cast<size_t>(b)] != b)
        b = parent[static_cast<size_t>(b)] = parent[static_cast<size_t>(parent[static_cast<size_t>(b)])];
    return b;
}

ChainDepths chainDepths(const Scene& scene) {
    const size_t n = scene.bodies.size();
    std::vector<std::vector<int>> next(n);
    std::deque<int> queue;
    ChainDepths d;
    d.bodyDepth.assign(n, -1);
    auto anchored = [&](int b) {
        return b < 0 || scene.bodies[static_cast<size_t>(b)].motion != MotionType::Dynamic;
    };
    const NameIndex bodies(scene.bodies);
    for (const JointDesc& j : scene.joints) {
        if (j.startBroken) continue;
        const int a = bodies.find(j.body0), b = bodies.find(j.body1);
        for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
            if (to < 0 || anchored(to)) continue;
            if (anchored(from)) {
                if (d.bodyDepth[static_cast<size_t>(to)] < 0) {
                    d.bodyDepth[static_cast<size_t>(to)] = 1;
                    queue.push_back(to);
                }
            } else {
                next[static_cast<size_t>(from)].push_back(to);
            }
        }
    }
    while (!queue.empty()) {  // breadth first: each body's fewest joints to an anchor
        const int b = queue.front();
        queue.pop_front();
        for (int c : next[static_cast<size_t>(b)])
            if (d.bodyDepth[static_cast<size_t>(c)] < 0) {
                d.bodyDepth[static_cast<size_t>(c)] = d.bodyDepth[static_cast<size_t>(b)] + 1;
                queue.push_back(c);
            }
    }
    std::vector<int> parent(n);
    for (size_t b = 0; b < n; ++b) parent[b] = static_cast<int>(b);
    for (size_t b = 0; b < n; ++b)
        for (int c : next[b])
            parent[static_cast<size_t>(findGroup(parent, c))] = findGroup(parent, static_cast<int>(b));
    d.group.resize(n);
    d.groupDepth.assign(n, 0);
    for (size_t b = 0; b < n; ++b) {
        d.group[b] = findGroup(parent, static_cast<int>(b));
        int& deepest = d.groupDepth[static_cast<size_t>(d.group[b])];
        deepest = std::max(deepest, d.bodyDepth[b]);
    }
    return d;
}

}  // namespace

int chainDepth(const Scene& scene, int joint) {
    const ChainDepths d = chainDepths(scene);
    const JointDesc& j = scene.joints[static_cast<size_t>(joint)];
    for (const std::string& name : {j.body0, j.body1})
        if (const int b = scene.findBody(name); b >= 0 && d.bodyDepth[static_cast<size_t>(b)] >= 0)
            return d.groupDepth[static_cast<size_t>(d.group[static_cast<size_t>(b)])];
    return 0;
}

Real driveNaturalFrequency(const Scene& scene, int joint) {
    const JointDesc& j = scene.joints[static_cast<size_t>(joint)];
    const Side a = sideOf(scene, j, 0), b = sideOf(scene, j, 1);
    const Quat frameA = a.body < 0 ? j.frame0.q : a.orientation * j.frame0.q;
    const Real invMass = inverseMass(a) + inverseMass(b);
    auto omega = [&](const Drive& d, bool angular, const Vec3& localAxis) {
        if (!d.enabled || !(d.stiffness > 0.0)) return 0.0;
        if (d.acceleration) return std::sqrt(d.stiffness);
        const Vec3 axis = frameA * localAxis;
        const Real inv = angular ? inverseInertiaAlong(a, axis) + inverseInertiaAlong(b, axis) : invMass;
        return std::sqrt(d.stiffness * inv);
    };
    const Vec3 X(1, 0, 0), Y(0, 1, 0), Z(0, 0, 1);
    return std::visit(
        [&](const auto& p) -> Real {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, RevoluteJoint>) return omega(p.drive, true, X);
            if constexpr (std::is_same_v<T, PrismaticJoint>) return omega(p.drive, false, X);
            if constexpr (std::is_same_v<T, D6Joint>)
                return std::max({omega(p.driveX, false, X), omega(p.driveY, false, Y),
                                 omega(p.driveZ, false, Z), omega(p.driveTwist, true, X),
                                 omega(p.driveSwing, true, Y), omega(p.driveSwing, true, Z),
                                 omega(p.driveSlerp, true, X), omega(p.driveSlerp, true, Y),
                                 omega(p.driveSlerp, true, Z)});
            return 0.0;
        },
        j.params);
}

std::vector<Advice> adviseScene(const Scene& scene, const World* world, const AdvisorLimits& limits) {
    std::vector<Advice> out;
    const ChainDepths depths = chainDepths(scene);
    std::vector<char> chainReported(scene.bodies.size(), 0);  // by group
    for (size_t i = 0; i < scene.joints.size(); ++i) {
        const int j = static_cast<int>(i);
        const JointDesc& d = scene.joints[i];
        if (d.startBroken) continue;
        const Side a = sideOf(scene, d, 0), b = sideOf(scene, d, 1);
        massRatio(scene, j, a, b, limits, out);
        inertiaRatio(scene, j, a, b, limits, out);
        longLever(scene, j, a, b, limits, out);
        if (world && i < world->scene().joints.size()) weakRows(scene, *world, j, limits, out);
        // A deep chain: reported once, at the joint that reaches its deepest body.
        for (const Side* s : {&a, &b}) {
            if (s->body < 0 || !s->dynamic) continue;
            const size_t body = static_cast<size_t>(s->body);
            const int depth = depths.bodyDepth[body];
            const size_t group = static_cast<size_t>(depths.group[body]);
            if (depth <= scene.settings.posIters || depth < depths.groupDepth[group]) continue;
            if (chainReported[group]) continue;
            chainReported[group] = 1;
            Advice x = makeAdvice(AdviceKind::DeepChain, j, static_cast<Real>(depth),
                                  static_cast<Real>(scene.settings.posIters));
            x.title = fmt("chain %.0f joints deep, %.0f iterations", depth, scene.settings.posIters) +
                      " (at " + quoted(d.name) + ")";
            x.explanation =
                fmt("%.0f joints lie between ", depth) + quoted(s->name) +
                " and the body that holds the chain still, but the solver sweeps the rows only " +
                fmt("%.0f times per step. ", scene.settings.posIters) +
                "Gauss–Seidel passes a correction from joint to joint; with fewer sweeps than joints, the "
                "far end "
                "never receives all of it within a step, so the chain sags and stretches under load and the "
                "error grows with its length. More position iterations (at least as many as the chain is "
                "deep) or TGS, whose substeps integrate between sweeps, carry it further.";
            x.fixes = {AdviceFix::MoreIterations, AdviceFix::UseTgs};
            out.push_back(std::move(x));
            break;
        }
        stiffDrive(scene, j, limits, out);
    }
    return out;
}

std::string applyAdviceFix(Scene& scene, const Advice& advice, AdviceFix fix, const AdvisorLimits& limits) {
    WorldSettings& s = scene.settings;
    const bool hasJoint = advice.joint >= 0 && static_cast<size_t>(advice.joint) < scene.joints.size();
    switch (fix) {
        case AdviceFix::MoreIterations: {
            int wanted = s.posIters * 2;
            if (advice.kind == AdviceKind::DeepChain)
                wanted = std::max(wanted, static_cast<int>(advice.value));
            if (advice.kind == AdviceKind::StiffDrive && hasJoint)
                wanted =
                    std::max(wanted, static_cast<int>(std::ceil(driveNaturalFrequency(scene, advice.joint) *
                                                                s.dt / (0.5 * limits.driveOmegaH))));
            wanted = std::min(wanted, 255);
            if (wanted <= s.posIters) return "";
            const std::string what = fmt("posIters %.0f → %.0f", s.posIters, wanted);
            s.posIters = wanted;
            return what;
        }
        case AdviceFix::UseTgs:
            if (s.solver == SolverType::TGS) return "";
            s.solver = SolverType::TGS;
            return "solver PGS → TGS";
        case AdviceFix::BlockPointSolve:
            if (s.pointSolve == PointSolve::Block) return "";
            s.pointSolve = PointSolve::Block;
            return "pointSolve rows → block";
        case AdviceFix::SmallerDt: {
            const Real w = hasJoint ? driveNaturalFrequency(scene, advice.joint) : 0.0;
            const Real perStep = s.solver == SolverType::TGS ? s.posIters : 1.0;
            // ω_n·h at half the limit, so the warning does not come back at the next small change.
            Real dt = w > 0.0 ? 0.5 * limits.driveOmegaH * perStep / w : 0.5 * s.dt;
            dt = std::max(dt, 1e-5);
            if (!(dt < s.dt)) return "";
            const std::string what = fmt("dt %.3g s → %.3g s", s.dt, dt);
            s.dt = dt;
            return what;
        }
        case AdviceFix::MassScales: {
            if (!hasJoint || advice.value <= advice.limit) return "";
            JointDesc& j = scene.joints[static_cast<size_t>(advice.joint)];
            const Side a = sideOf(scene, j, 0), b = sideOf(scene, j, 1);
            const Real factor = 0.9 * advice.limit / advice.value;  // < 1: the light side looks heavier
            const bool mass = advice.kind == AdviceKind::MassRatio;
            const bool lightIs0 = mass ? a.mass < b.mass : a.inertia < b.inertia;
            Real& m = lightIs0 ? j.invMassScale0 : j.invMassScale1;
            Real& in = lightIs0 ? j.invInertiaScale0 : j.invInertiaScale1;
            if (mass) m *= factor;
            in *= factor;
            return std::string(lightIs0 ? "invMassScale0" : "invMassScale1") + fmt(" × %.3g", factor) +
                   (mass ? " (and its inertia scale)" : "");
        }
        case AdviceFix::ResetMassScales: {
            if (!hasJoint) return "";
            JointDesc& j = scene.joints[static_cast<size_t>(advice.joint)];
            j.invMassScale0 = j.invMassScale1 = j.invInertiaScale0 = j.invInertiaScale1 = 1.0;
            return "mass scales → 1";
        }
    }
    return "";
}

}  // namespace jl
