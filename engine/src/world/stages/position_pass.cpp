// Stage 6a of the step: PGS's non-linear position pass (WorldSettings::correction = ngs or rattle;
// docs/solvers.md "Position correction"). After the velocity solve, which under both carries no
// joint bias, and the write-back, the joints' lock and limit rows are rebuilt by their own prep
// functions (joints/) at the bodies' current poses, iteration after iteration, and position
// impulses move the bodies onto them directly: Δx = M⁻¹Jᵀ·Δλ, with rotations. Reads and writes the
// World's body states; one copy of the maths for both kernels (it runs after either).
//
// A row of the pass ("position row", positionRow): a hard joint row with the world's α (no spring,
// drive, motor, restitution target or coupling erp), an Equality (a lock) or an Inequality (a limit,
// corrected only when violated). Each iteration, joint after joint in scene order:
//
//   C, J  from prep at the current poses; a point block's rows (Row::blockSize) together
//   Δλ = −K⁻¹·clamp(α·C)          K = J_d M⁻¹ J_dᵀ with the current inertia
//   Δx = M⁻¹·J_dᵀ·Δλ              each body moves and turns
//
// J_d, the direction the bodies move along, is where the two corrections differ:
//   * ngs (Box2D v2's and Jolt's position iterations): J_d = J at the current poses. The velocity
//     is left alone.
//   * rattle: J_d = J at the start of the step (SHAKE: the correction is along the constraint forces
//     of the step), the correction's displacement also changes the velocity (Δv = Δx/dt, as PBD
//     and XPBD derive their velocity), and the velocity is then projected onto the rows at the
//     end-of-step poses (unbiased, velIters + 1 sweeps: RATTLE's second half), so the velocity kept
//     is the chord's component along the end-of-step tangent: a point on a circle keeps its speed.
//     The kernel's velocity iterations leave the joints alone under rattle
//     (Params::contactVelocityOnly): after the integration they would change the velocity without
//     moving the bodies, and the chord (x₁ − x₀)/dt the pass builds the velocity from would count
//     their impulse a second time — along the start-of-step rows, which at the end of the step
//     lean into the motion: welded_pair gained 8.8% of its drop in 10 s (docs/solvers.md §9).
//     Gravity enters as RATTLE's two half kicks, which make the end-of-step velocity the on-step
//     one and the energy error second order (docs/solvers.md §9): a dynamic body on an unbroken
//     joint (markHalfKicks, before the forces) enters the kernel with ½·dt·g, and the other half is
//     added after the pass, before the projection. (Moving the bodies back by ½·g·dt² after a
//     whole kick, as this pass did first, is the same step once the pass converges, but it hands
//     the pass an error of ½·g·dt² along every row that holds a weight, of which posIters
//     iterations leave a share: door_hinge rested 0.5 mm out of its hinge, 0.9 mm high, and
//     gained 1.4% of its energy.) A body on a coupling joint (gear, rack, pulley) keeps the whole
//     kick: the projection does not hold a coupling's row.
//     Two bounds keep long whipping chains from exploding under it (docs/solvers.md measures
//     both): K is J_d M⁻¹ J_dᵀ, symmetric (SHAKE's J M⁻¹ J_dᵀ is not, and Gauss–Seidel along a
//     chain of such joints diverged), and a joint whose body turned by more than
//     kRattleMaxTurn in the step moves along its current rows instead (the start-of-step rows no
//     longer point where it can close).
#include <cmath>

#include "jointlab/correction.h"
#include "world/world_impl.h"

namespace jl {

namespace {

/// rattle: a joint whose bodies turned by more than this in the step [rad] moves along its current
/// rows, not its start-of-step rows. The grid's fastest lever (0.1 m) turns up to 0.23 rad a step at
/// 60 Hz; a 100-link chain's whipping end over 1 rad. 0.2 and 0.3 both keep the chains
/// (docs/solvers.md §9).
constexpr Real kRattleMaxTurn = 0.3;

/// Box2D's b2_maxLinearCorrection and b2_maxAngularCorrection: the most one iteration moves a row.
constexpr Real kMaxLinearCorrection = 0.2;                 // [m]
constexpr Real kMaxAngularCorrection = 8.0 * kPi / 180.0;  // [rad]

struct Side {
    BodyState* state = nullptr;  // null: the world or a static/kinematic body (does not move)
    Transform pose;              // the world's pose is the identity
    Real invMass = 0.0;          // times the joint's mass scale
    Vec3 invInertia{0.0};        // principal, times the joint's inertia scale
    Mat3 invInertiaWorld{0.0};   // R·diag(invInertia)·Rᵀ at the current orientation (refresh)
    /// I⁻¹ in world at the current orientation, applied to a world vector.
    Vec3 invInertiaTimes(const Vec3& v) const { return invInertiaWorld * v; }
    void refresh() {
        const Mat3 r = glm::mat3_cast(pose.q);
        invInertiaWorld = r * Mat3(invInertia.x, 0.0, 0.0, 0.0, invInertia.y, 0.0, 0.0, 0.0, invInertia.z) *
                          glm::transpose(r);
    }
};

/// What the pass uses of a row: its Jacobian, C and bounds.
bool positionRow(const Row& r) {
    if (r.flags & (kRowSpring | kRowVelocityOnly | kRowHasDriveLimit | kRowRestitution)) return false;
    if (r.erpOverride >= 0.0) return false;
    return r.solveHint == SolveHint::Equality || r.solveHint == SolveHint::Inequality;
}

/// K_ij = J_i M⁻¹ J_jᵀ over both sides (body 1's Jacobian is −linear1, −angular1; the signs cancel).
Real mixedResponse(const Row& a, const Row& d, const Side s[2]) {
    return s[0].invMass * glm::dot(a.linear0, d.linear0) +
           glm::dot(a.angular0, s[0].invInertiaTimes(d.angular0)) +
           s[1].invMass * glm::dot(a.linear1, d.linear1) +
           glm::dot(a.angular1, s[1].invInertiaTimes(d.angular1));
}

/// Turns a pose by the rotation vector `theta` (world).
void turnBy(Transform& pose, const Vec3& theta) {
    const Real angle = glm::length(theta);
    if (!(angle > 0.0)) return;
    const Real h = 0.5 * angle;
    const Vec3 v = theta * (std::sin(h) / angle);
    pose.q = glm::normalize(Quat(std::cos(h), v.x, v.y, v.z) * pose.q);
}

/// The motion Δx = M⁻¹J_dᵀ·Δλ of both sides for the position impulse dl along the direction row d,
/// added to dx and dtheta (the rotation vector). A block's rows add up before the bodies move: its
/// impulses along the three axes can be large and opposed (a light body far from the anchor) and
/// cancel only in their sum, which finite rotations applied one after the other would not.
void addPositionImpulse(const Row& d, Real dl, const Side s[2], Vec3 dx[2], Vec3 dtheta[2]) {
    for (int k = 0; k < 2; ++k) {
        if (!s[k].state) continue;
        const Real sign = k == 0 ? dl : -dl;
        dx[k] += (sign * s[k].invMass) * (k == 0 ? d.linear0 : d.linear1);
        dtheta[k] += s[k].invInertiaTimes(k == 0 ? d.angular0 : d.angular1) * sign;
    }
}

/// Moves and turns both sides; with `feedback` (rattle), the displacement enters the velocity too
/// (Δv = Δx/dt, Δω = Δθ/dt).
void move(Side s[2], const Vec3 dx[2], const Vec3 dtheta[2], bool feedback, Real dt) {
    for (int k = 0; k < 2; ++k) {
        if (!s[k].state) continue;
        s[k].pose.p += dx[k];
        turnBy(s[k].pose, dtheta[k]);
        s[k].refresh();
        if (feedback) {
            s[k].state->linearVelocity += dx[k] / dt;
            s[k].state->angularVelocity += dtheta[k] / dt;
        }
    }
}

/// Applies the velocity impulse dl along row r.
void applyVelocityImpulse(const Row& r, Real dl, Side s[2]) {
    for (int k = 0; k < 2; ++k) {
        if (!s[k].state) continue;
        const Real sign = k == 0 ? dl : -dl;
        s[k].state->linearVelocity += (sign * s[k].invMass) * (k == 0 ? r.linear0 : r.linear1);
        s[k].state->angularVelocity += s[k].invInertiaTimes(k == 0 ? r.angular0 : r.angular1) * sign;
    }
}

Real rowVelocity(const Row& r, const Side s[2]) {
    Real v = 0.0;
    if (s[0].state)
        v += glm::dot(r.linear0, s[0].state->linearVelocity) +
             glm::dot(r.angular0, s[0].state->angularVelocity);
    if (s[1].state)
        v -= glm::dot(r.linear1, s[1].state->linearVelocity) +
             glm::dot(r.angular1, s[1].state->angularVelocity);
    return v;
}

/// 3×3 (or smaller, padded with the identity) solve x = A⁻¹·b by cofactors; false when A is
/// singular against its diagonal (as solver/block.h decides).
bool solve3(const Real A[3][3], const Real b[3], Real x[3]) {
    const Real c00 = A[1][1] * A[2][2] - A[1][2] * A[2][1], c01 = A[1][2] * A[2][0] - A[1][0] * A[2][2],
               c02 = A[1][0] * A[2][1] - A[1][1] * A[2][0];
    const Real det = A[0][0] * c00 + A[0][1] * c01 + A[0][2] * c02;
    if (!(std::abs(det) > 1e-10 * std::abs(A[0][0] * A[1][1] * A[2][2]))) return false;
    const Real inv[3][3] = {
        {c00, A[0][2] * A[2][1] - A[0][1] * A[2][2], A[0][1] * A[1][2] - A[0][2] * A[1][1]},
        {c01, A[0][0] * A[2][2] - A[0][2] * A[2][0], A[0][2] * A[1][0] - A[0][0] * A[1][2]},
        {c02, A[0][1] * A[2][0] - A[0][0] * A[2][1], A[0][0] * A[1][1] - A[0][1] * A[1][0]}};
    for (int i = 0; i < 3; ++i) x[i] = (inv[i][0] * b[0] + inv[i][1] * b[1] + inv[i][2] * b[2]) / det;
    return true;
}

/// Whether an inequality row is active: its impulse bound and the sign of C (C ≥ 0 is allowed
/// for λ ≥ 0). Locks are always active.
bool violated(const Row& r, Real C) {
    if (r.solveHint == SolveHint::Equality) return true;
    return r.minImpulse == 0.0 ? C < 0.0 : C > 0.0;
}

/// One position iteration over one joint's rows `cur` (at the current poses, their C), moving along
/// `dir` (cur itself under ngs) with K from `dir`.
void correctJoint(const Row* cur, const Row* dir, int count, Side s[2], Real alpha, bool blocks,
                  bool feedback, Real dt) {
    int bn = 0;
    const int bt = blocks ? solver::findBlock(cur, count, bn) : -1;
    for (int i = 0; i < count; ++i) {
        if (i == bt) {
            Real A[3][3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
            Real c[3] = {0.0, 0.0, 0.0};
            Real len2 = 0.0;
            for (int a = 0; a < bn; ++a) {
                c[a] = alpha * cur[bt + a].geometricError;
                len2 += c[a] * c[a];
                for (int b = 0; b < bn; ++b) A[a][b] = mixedResponse(dir[bt + a], dir[bt + b], s);
            }
            if (len2 > kMaxLinearCorrection * kMaxLinearCorrection) {
                const Real f = kMaxLinearCorrection / std::sqrt(len2);
                for (Real& ci : c) ci *= f;
            }
            Real dl[3];
            if (solve3(A, c, dl)) {
                Vec3 dx[2] = {Vec3(0.0), Vec3(0.0)}, dtheta[2] = {Vec3(0.0), Vec3(0.0)};
                for (int a = 0; a < bn; ++a) addPositionImpulse(dir[bt + a], -dl[a], s, dx, dtheta);
                move(s, dx, dtheta, feedback, dt);
                i += bn - 1;
                continue;
            }
            // singular: the block's rows one by one, below (each against the current poses it left)
        }
        const Row& r = cur[i];
        if (!positionRow(r) || !violated(r, r.geometricError)) continue;
        const Real K = mixedResponse(dir[i], dir[i], s);
        if (!(K > 1e-12)) continue;  // as kMinResponse: nothing can move this row
        const Real maxC = (r.flags & kRowAngular) ? kMaxAngularCorrection : kMaxLinearCorrection;
        const Real C = std::clamp(alpha * r.geometricError, -maxC, maxC);
        Vec3 dx[2] = {Vec3(0.0), Vec3(0.0)}, dtheta[2] = {Vec3(0.0), Vec3(0.0)};
        addPositionImpulse(dir[i], -C / K, s, dx, dtheta);
        move(s, dx, dtheta, feedback, dt);
    }
}

/// One velocity sweep over one joint's rows at the current poses, unbiased (RATTLE's projection).
/// `accum` holds each row's impulse so far for the one-sided clamp.
void projectJointVelocity(const Row* cur, int count, Side s[2], bool blocks, Real* accum) {
    int bn = 0;
    const int bt = blocks ? solver::findBlock(cur, count, bn) : -1;
    for (int i = 0; i < count; ++i) {
        if (i == bt) {
            Real A[3][3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
            Real e[3] = {0.0, 0.0, 0.0};
            for (int a = 0; a < bn; ++a) {
                e[a] = rowVelocity(cur[bt + a], s) - cur[bt + a].velocityTarget;
                for (int b = 0; b < bn; ++b) A[a][b] = mixedResponse(cur[bt + a], cur[bt + b], s);
            }
            Real dl[3];
            if (solve3(A, e, dl)) {
                for (int a = 0; a < bn; ++a) applyVelocityImpulse(cur[bt + a], -dl[a], s);
                i += bn - 1;
                continue;
            }
        }
        const Row& r = cur[i];
        if (!positionRow(r)) continue;
        if (r.solveHint == SolveHint::Inequality &&
            !(r.minImpulse == 0.0 ? r.geometricError <= 0.0 : r.geometricError >= 0.0))
            continue;  // a limit not reached: nothing to hold
        const Real K = mixedResponse(r, r, s);
        if (!(K > 1e-12)) continue;
        const Real before = accum[i];
        const Real next =
            std::clamp(before - (rowVelocity(r, s) - r.velocityTarget) / K, r.minImpulse, r.maxImpulse);
        accum[i] = next;
        applyVelocityImpulse(r, next - before, s);
    }
}

/// The angle between two orientations [rad].
Real turnedBy(const Quat& a, const Quat& b) {
    return 2.0 * std::acos(std::min<Real>(1.0, std::abs(glm::dot(a, b))));
}

}  // namespace

void World::Impl::markHalfKicks(StepContext& step) {
    halfKicked.clear();  // (empty: every body takes the whole kick)
    if (step.tgs || effectiveCorrection(step.s.solver, step.s.correction) != Correction::Rattle) return;
    World& w = step.world;
    const Scene& scene = w.scene_;
    halfKicked.assign(w.bodies_.size(), 0);
    // A body on a coupling (gear, rack, pulley) keeps the whole kick: the end-of-step projection
    // does not hold a coupling's row (it keeps its own erp), so the second half kick would stay in
    // the velocity along it.
    std::vector<char>& coupled = couplingBody;
    coupled.assign(w.bodies_.size(), 0);
    for (size_t j = 0; j < w.joints_.size(); ++j) {
        if (w.joints_[j].broken ||
            !jointTypeInfo(static_cast<int>(scene.joints[j].params.index())).isCoupling)
            continue;
        for (const int b : {jointBody0[j], jointBody1[j]})
            if (b >= 0) coupled[static_cast<size_t>(b)] = 1;
    }
    for (size_t j = 0; j < w.joints_.size(); ++j) {
        if (w.joints_[j].broken) continue;
        for (const int b : {jointBody0[j], jointBody1[j]})
            if (b >= 0 && bodyConsts[static_cast<size_t>(b)].dynamic && !coupled[static_cast<size_t>(b)])
                halfKicked[static_cast<size_t>(b)] = 1;
    }
}

void World::Impl::positionPass(StepContext& step) {
    const Correction runs = effectiveCorrection(step.s.solver, step.s.correction);
    const bool rattle = runs == Correction::Rattle;
    if (runs != Correction::Ngs && !rattle) return;
    Impl& m = *this;
    World& w = step.world;
    const Scene& scene = w.scene_;
    const Real dt = step.params.dt;
    const Real alpha = step.params.erp;
    const bool blocks = step.params.blocks;
    const std::vector<BodyState>& before = *step.before;
    const size_t nj = w.joints_.size();

    auto sides = [&](size_t j, Side s[2]) {
        const JointFrames& f = m.jointFrames[j];
        for (int k = 0; k < 2; ++k) {
            s[k] = Side{};
            const int b = k == 0 ? m.jointBody0[j] : m.jointBody1[j];
            if (b < 0) continue;
            BodyState& st = w.bodies_[static_cast<size_t>(b)];
            s[k].pose = st.pose;
            const BodyStepConsts& c = m.bodyConsts[static_cast<size_t>(b)];
            if (!c.dynamic) continue;
            s[k].state = &st;
            s[k].invMass = c.invMass * (k == 0 ? f.invMassScale0 : f.invMassScale1);
            s[k].invInertia = c.sqrtInvInertiaLocal * c.sqrtInvInertiaLocal *
                              (k == 0 ? f.invInertiaScale0 : f.invInertiaScale1);
            s[k].refresh();
        }
    };
    // The joint's rows at the poses `s` holds (prep with a copy of its memory: the pass must not
    // move the angles it tracks across steps).
    auto prepAt = [&](size_t j, const Transform& p0, const Transform& p1, Row* rows) {
        const JointFrames& f = m.jointFrames[j];
        PrepContext ctx = PrepContext::make(p0, f.frame0, p1, f.frame1, dt);
        JointMemory memory = m.memory[j];
        ctx.memory = &memory;
        RowWriter out{rows, kMaxRowsPerJoint};
        std::visit([&](const auto& params) { prep(params, ctx, out); }, scene.joints[j].params);
        return out.count;
    };
    auto store = [](Side s[2]) {
        for (int k = 0; k < 2; ++k)
            if (s[k].state) s[k].state->pose = s[k].pose;
    };

    // rattle: the rows' Jacobians at the start of the step, per joint (their count may differ from
    // the current one when a limit comes or goes: then the current rows are the direction), and
    // none for a joint whose bodies turned by more than kRattleMaxTurn in the step (count 0).
    if (rattle) {
        startRows.resize(nj * kMaxRowsPerJoint);
        startCount.assign(nj, 0);
        for (size_t j = 0; j < nj; ++j) {
            if (w.joints_[j].broken) continue;
            const int b0 = m.jointBody0[j], b1 = m.jointBody1[j];
            bool turnedFar = false;
            for (int b : {b0, b1})
                if (b >= 0 && m.bodyConsts[static_cast<size_t>(b)].dynamic)
                    turnedFar =
                        turnedFar || turnedBy(before[static_cast<size_t>(b)].pose.q,
                                              w.bodies_[static_cast<size_t>(b)].pose.q) > kRattleMaxTurn;
            if (turnedFar) continue;
            startCount[j] = prepAt(j, b0 >= 0 ? before[static_cast<size_t>(b0)].pose : Transform{},
                                   b1 >= 0 ? before[static_cast<size_t>(b1)].pose : Transform{},
                                   &startRows[j * kMaxRowsPerJoint]);
        }
    }

    Row cur[kMaxRowsPerJoint];
    Side s[2];
    for (int it = 0; it < step.params.posIters; ++it)
        for (size_t j = 0; j < nj; ++j) {
            if (w.joints_[j].broken) continue;
            sides(j, s);
            if (!s[0].state && !s[1].state) continue;
            const int n = prepAt(j, s[0].pose, s[1].pose, cur);
            const Row* dir = cur;
            if (rattle && startCount[j] == n) {
                bool same = true;
                for (int i = 0; i < n; ++i)
                    same = same && startRows[j * kMaxRowsPerJoint + i].label == cur[i].label;
                if (same) dir = &startRows[j * kMaxRowsPerJoint];
            }
            correctJoint(cur, dir, n, s, alpha, blocks, rattle, dt);
            store(s);
        }
    if (!rattle) return;

    // RATTLE's second half kick of gravity (markHalfKicks gave the kernel the first).
    for (size_t b = 0; b < halfKicked.size(); ++b)
        if (halfKicked[b]) w.bodies_[b].linearVelocity += (0.5 * dt) * step.s.gravity;

    // RATTLE's second half: the velocity onto the rows at the end-of-step poses, in velIters + 1
    // sweeps: the velocity iterations the kernel no longer gives the joints under rattle
    // (Params::contactVelocityOnly), and one of its own.
    // The poses no longer change: each joint's rows are prepared once, in the first sweep, into
    // the start rows' place (done with).
    std::vector<Real>& accum = projectionImpulse;
    accum.assign(nj * kMaxRowsPerJoint, 0.0);
    for (int it = 0; it < step.params.velIters + 1; ++it)
        for (size_t j = 0; j < nj; ++j) {
            if (w.joints_[j].broken) continue;
            sides(j, s);
            if (!s[0].state && !s[1].state) continue;
            Row* end = &startRows[j * kMaxRowsPerJoint];
            if (it == 0) startCount[j] = prepAt(j, s[0].pose, s[1].pose, end);
            projectJointVelocity(end, startCount[j], s, blocks, &accum[j * kMaxRowsPerJoint]);
        }
}

}  // namespace jl
