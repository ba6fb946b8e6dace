// Import builder, couplings in a plane (import_build.h): a joint coupling whose hinges' parents move
// is exact as a world-measured gear only in special cases (import_equalities.cpp). When every hinge
// from the coupled bodies down to a body that does not move turns about one world axis u (slides
// do not turn a body), each body b turns in that plane by θ_b, and each coupled hinge's coordinate
// is a difference of two such turns: Δq_i = s_i·(θ_child − θ_parent), s_i = ±1 the hinge's sense
// along u. A coupling Δq_a − r·Δq_b − c = 0 is then a linear law over up to four turns; when it
// skips a link (MuJoCo's active_adhesion: arm3 with arm1, arm2 between) it holds three or four
// moving bodies, which a gear's one row between two bodies cannot. Adding a multiple of another
// coupling of the same plane can take one body out: the pair of laws is the same pair either way,
// so the sum, when it holds two bodies, is an exact world gear between them.
#include <cmath>
#include <map>
#include <set>

#include "interop/import_build.h"

namespace jl::interop::build {

namespace {

/// A law Σ c_b·θ_b + constant = 0 over the turns of moving scene bodies (std::map: a fixed order).
struct PlanarLaw {
    std::map<int, Real> coeff;
    Real constant = 0.0;

    void add(int body, Real c) {
        if (body < 0) return;  // the world does not turn
        coeff[body] += c;
    }
    void dropZeros() {
        for (auto it = coeff.begin(); it != coeff.end();)
            it = std::abs(it->second) < 1e-12 ? coeff.erase(it) : std::next(it);
    }
};

}  // namespace

bool Builder::planarCoupling(const ImportedEquality& e, JointDesc& j, GearJoint& g, std::string& with) {
    const Vec3 u = glm::normalize(interop::toYUp(m.joints[static_cast<size_t>(e.joint1)].axis));
    if (!planarIndex.built) {  // once per import: each call is then linear in what it looks at
        planarIndex.built = true;
        planarIndex.moves.assign(scene.bodies.size(), -1);
        for (size_t i = 0; i < jointChild.size(); ++i)
            if (jointChild[i] >= 0)
                planarIndex.moves[static_cast<size_t>(jointChild[i])] = static_cast<int>(i);
        planarIndex.couplingsOf.assign(scene.bodies.size(), {});
        for (size_t k = 0; k < m.equalities.size(); ++k) {
            const ImportedEquality& q = m.equalities[k];
            if (q.kind != ImportedEquality::Kind::Coupling || q.joint1 < 0 || q.joint2 < 0) continue;
            std::set<int> bodies;
            for (const int j : {q.joint1, q.joint2})
                for (const int b : {jointChild[static_cast<size_t>(j)], jointParent[static_cast<size_t>(j)]})
                    if (b >= 0) bodies.insert(b);
            for (const int b : bodies) planarIndex.couplingsOf[static_cast<size_t>(b)].push_back(k);
        }
    }
    const std::vector<int>& moves = planarIndex.moves;  // per scene body: the source joint that moves it
    const auto still = [&](int b) {
        return b < 0 || scene.bodies[static_cast<size_t>(b)].motion != MotionType::Dynamic;
    };
    // s_i of hinge i along u, or 0 when it is not a hinge about u.
    const auto sense = [&](size_t i) -> Real {
        const ImportedJoint& jt = m.joints[i];
        if (jt.kind != ImportedJoint::Kind::Hinge) return 0.0;
        const Real c = glm::dot(glm::normalize(interop::toYUp(jt.axis)), u);
        return std::abs(std::abs(c) - 1.0) < 1e-9 ? (c > 0 ? 1.0 : -1.0) : 0.0;
    };
    // Body b turns in the plane: hinges about u and slides down to a body that does not move.
    const auto planar = [&](int b) {
        for (size_t guard = 0; !still(b) && guard <= scene.bodies.size(); ++guard) {
            const int i = moves[static_cast<size_t>(b)];
            if (i < 0) return false;  // free, or welded to its parent: not followed
            const ImportedJoint& jt = m.joints[static_cast<size_t>(i)];
            if (jt.kind != ImportedJoint::Kind::Slide && sense(static_cast<size_t>(i)) == 0.0) return false;
            b = jointParent[static_cast<size_t>(i)];
        }
        return still(b);
    };
    // The coupling's law over the turns, or false when it is not a law of that plane.
    const auto lawOf = [&](const ImportedEquality& q, PlanarLaw& law) {
        if (q.kind != ImportedEquality::Kind::Coupling || q.joint1 < 0 || q.joint2 < 0) return false;
        const size_t a = static_cast<size_t>(q.joint1), b = static_cast<size_t>(q.joint2);
        const Real sa = sense(a), sb = sense(b);
        if (sa == 0.0 || sb == 0.0 || m.joints[a].held || m.joints[b].held) return false;
        law = PlanarLaw{};
        law.add(jointChild[a], sa);
        law.add(jointParent[a], -sa);
        law.add(jointChild[b], -q.ratio * sb);
        law.add(jointParent[b], q.ratio * sb);
        law.constant = -q.offset;
        law.dropZeros();
        for (const auto& [body, c] : law.coeff)
            if (!planar(body)) return false;
        return true;
    };
    PlanarLaw law;
    if (!lawOf(e, law)) return false;
    with.clear();
    if (law.coeff.size() > 2) {  // take a body out with another coupling of the plane
        // Only couplings that share a body can take one out; tried in the model's order.
        std::set<size_t> candidates;
        for (const auto& [body, c] : law.coeff)
            for (const size_t k : planarIndex.couplingsOf[static_cast<size_t>(body)]) candidates.insert(k);
        bool found = false;
        for (const size_t k : candidates) {
            const ImportedEquality& other = m.equalities[k];
            if (&other == &e || found) continue;
            PlanarLaw o;
            if (!lawOf(other, o)) continue;
            for (const auto& [body, c] : law.coeff) {
                const auto it = o.coeff.find(body);
                if (it == o.coeff.end()) continue;
                PlanarLaw sum = law;
                const Real k = -c / it->second;
                for (const auto& [ob, oc] : o.coeff) sum.add(ob, k * oc);
                sum.constant += k * o.constant;
                sum.dropZeros();
                if (sum.coeff.size() <= 2 && !sum.coeff.empty()) {
                    law = sum;
                    with = other.name;
                    found = true;
                    break;
                }
            }
        }
        if (!found) return false;
    }
    if (law.coeff.empty()) return false;
    // c_A·θ_A + c_B·θ_B + γ = 0 as the gear's q0 + ratio·q1 + offset = 0 (q: the turn about the
    // frame's X = u since the start, in the world); B may be the world (q1 = 0).
    const auto first = law.coeff.begin();
    const int bodyA = first->first;
    const Real cA = first->second;
    const int bodyB = law.coeff.size() == 2 ? std::next(first)->first : -1;
    const Real cB = law.coeff.size() == 2 ? std::next(first)->second : 0.0;
    const Vec3 at = interop::toYUp(m.joints[static_cast<size_t>(e.joint1)].anchor);
    const Transform frame{at, rotationFromX(u)};
    j.body0 = scene.bodies[static_cast<size_t>(bodyA)].name;
    j.body1 = bodyB < 0 ? std::string() : scene.bodies[static_cast<size_t>(bodyB)].name;
    j.frame0 = poseOf(bodyA).inverse() * frame;
    j.frame1 = poseOf(bodyB).inverse() * frame;
    g.mode = GearMode::Angular;
    g.relative = false;
    g.ratio = cB / cA + 0.0;  // + 0.0: no "-0" in the scene
    g.offset = law.constant / cA + 0.0;
    return true;
}

}  // namespace jl::interop::build
