#include "editor/reseat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>

#include "editor/field_access.h"

namespace jl::app {

namespace {

constexpr int kMaxIterations = 40;
constexpr Real kHeld = 1e-11;  ///< [m or rad]

struct RowSet {
    std::array<Row, kMaxRowsPerJoint> rows;
    int count = 0;
};

/// Preps the joint's rows with body 1 at `moved` (memory: tracked angles, coupling references).
void prepRows(const JointDesc& joint, const Transform& pose0, const Transform& moved, Real dt,
              JointMemory& memory, RowSet& out) {
    PrepContext ctx = PrepContext::make(pose0, joint.frame0, moved, joint.frame1, dt);
    ctx.memory = &memory;
    RowWriter writer{out.rows.data(), kMaxRowsPerJoint};
    std::visit([&](const auto& params) { prep(params, ctx, writer); }, joint.params);
    out.count = writer.count;
}

/// What a row asks of C, if anything: an equality row to bring it to 0, a one-sided row only
/// when it is beyond its bound (to bring it back to the bound); soft rows, motors and drives nothing.
std::optional<Real> demand(const Row& r) {
    if (r.isSpring() || (r.flags & kRowVelocityOnly)) return std::nullopt;
    const Real c = r.geometricError;
    if (r.minImpulse >= 0.0) return c < 0.0 ? std::optional<Real>(c) : std::nullopt;  // C ≥ 0 holds
    if (r.maxImpulse <= 0.0) return c > 0.0 ? std::optional<Real>(c) : std::nullopt;  // C ≤ 0 holds
    if (std::isfinite(r.minImpulse) || std::isfinite(r.maxImpulse)) return std::nullopt;
    return c;
}

/// The largest demand of the linear rows [m] and of the angular rows [rad], apart.
HoldGap worstGap(const RowSet& s) {
    HoldGap w;
    for (int i = 0; i < s.count; ++i) {
        const Row& r = s.rows[static_cast<size_t>(i)];
        Real& kind = (r.flags & kRowAngular) ? w.angular : w.linear;
        kind = std::max(kind, std::abs(demand(r).value_or(0.0)));
    }
    return w;
}

Real worst(const RowSet& s) {
    return worstGap(s).largest();
}

/// The smallest twist (Δv, Δω) of body 1 with linear1·Δv + angular1·Δω = violation, for every
/// hard row: δ = Aᵀ (A Aᵀ + εI)⁻¹ b, solved by elimination (at most 16 rows).
bool smallestTwist(const RowSet& s, Vec3& dv, Vec3& dw) {
    std::array<std::array<Real, 6>, kMaxRowsPerJoint> a{};
    std::array<Real, kMaxRowsPerJoint> b{};
    int m = 0;
    for (int i = 0; i < s.count; ++i) {
        const Row& r = s.rows[static_cast<size_t>(i)];
        const std::optional<Real> want = demand(r);
        if (!want) continue;
        for (int k = 0; k < 3; ++k) a[m][k] = r.linear1[k], a[m][k + 3] = r.angular1[k];
        b[m++] = *want;
    }
    if (m == 0) return false;
    // K = A Aᵀ + εI, then solve K y = b with partial pivoting.
    std::array<std::array<Real, kMaxRowsPerJoint + 1>, kMaxRowsPerJoint> k{};
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            Real dot = 0.0;
            for (int c = 0; c < 6; ++c) dot += a[i][c] * a[j][c];
            k[i][j] = dot + (i == j ? 1e-12 : 0.0);
        }
        k[i][m] = b[i];
    }
    for (int col = 0; col < m; ++col) {
        int pivot = col;
        for (int r = col + 1; r < m; ++r)
            if (std::abs(k[r][col]) > std::abs(k[pivot][col])) pivot = r;
        std::swap(k[col], k[pivot]);
        if (std::abs(k[col][col]) < 1e-18) return false;
        for (int r = 0; r < m; ++r) {
            if (r == col) continue;
            const Real f = k[r][col] / k[col][col];
            for (int c = col; c <= m; ++c) k[r][c] -= f * k[col][c];
        }
    }
    dv = dw = Vec3(0.0);
    for (int i = 0; i < m; ++i) {
        const Real y = k[i][m] / k[i][i];
        dv += y * Vec3(a[i][0], a[i][1], a[i][2]);
        dw += y * Vec3(a[i][3], a[i][4], a[i][5]);
    }
    return isFinite(dv) && isFinite(dw);
}

Transform turned(const Transform& t, const Vec3& dv, const Vec3& dw) {
    Transform out = t;
    out.p += dv;
    const Real angle = glm::length(dw);
    if (angle > 0.0) out.q = glm::normalize(glm::angleAxis(angle, dw / angle) * t.q);
    return out;
}

/// A coupling measured from the start pose (one with an offset γ) holds at γ = 0 once the World
/// measures it from the current poses.
void zeroCouplingOffset(JointDesc& joint) {
    if (!joint.typeInfo().isCoupling) return;
    Scene scratch;
    scratch.joints.push_back(joint);
    const FieldOwner owner = FieldOwner::joint(joint.name);
    if (writeField(scratch, owner, "offset", FieldValue(0.0)).empty()) joint = scratch.joints[0];
}

}  // namespace

HoldGap jointHoldGap(const JointDesc& joint, const Transform& pose0, const Transform& pose1, Real dt) {
    JointMemory memory;
    RowSet rows;
    prepRows(joint, pose0, pose1, dt, memory, rows);
    return worstGap(rows);
}

Real jointHoldError(const JointDesc& joint, const Transform& pose0, const Transform& pose1, Real dt) {
    return jointHoldGap(joint, pose0, pose1, dt).largest();
}

std::string holdGapText(const HoldGap& gap) {
    constexpr Real kShown = 5e-4;  // below what "%.3g" of a gap of this size would make worth reading
    char text[128];
    if (gap.linear >= kShown && gap.angular >= kShown)
        std::snprintf(text, sizeof text, "%.3g m apart at its anchor and %.3g rad (%.0f°) off its axes",
                      gap.linear, gap.angular, gap.angular * 180.0 / kPi);
    else if (gap.linear >= kShown)
        std::snprintf(text, sizeof text, "%.3g m apart at its anchor", gap.linear);
    else if (gap.angular >= kShown)
        std::snprintf(text, sizeof text, "%.3g rad (%.0f°) off its axes", gap.angular,
                      gap.angular * 180.0 / kPi);
    else
        std::snprintf(text, sizeof text, "where it holds");
    return text;
}

Reseat reseatJoint(const JointDesc& joint, const Transform& pose0, const Transform& pose1, Real dt) {
    const HoldGap before = jointHoldGap(joint, pose0, pose1, dt);
    Reseat out{joint, before.largest(), 0.0, before};
    zeroCouplingOffset(out.joint);
    JointMemory memory;  // shared by the iterations: angles and references from the first one
    RowSet rows;
    Transform moved = pose1;
    Real error = kInf;
    for (int it = 0; it < kMaxIterations; ++it) {
        prepRows(out.joint, pose0, moved, dt, memory, rows);
        const Real now = worst(rows);
        if (now >= error * 0.999 && it > 3) break;  // not getting better: keep the best so far
        error = now;
        if (error < kHeld) break;
        Vec3 dv, dw;
        if (!smallestTwist(rows, dv, dw)) break;
        moved = turned(moved, dv, dw);
    }
    // Body 1 stays at pose1; its frame goes where the moved body would carry it.
    Transform frame1 = pose1.inverse() * moved * joint.frame1;
    frame1.q = glm::normalize(frame1.q);
    out.joint.frame1 = frame1;
    out.errorAfter = jointHoldError(out.joint, pose0, pose1, dt);
    return out;
}

Transform blendFrames(const Transform& from, const Transform& to, Real t) {
    Transform out;
    out.p = from.p + (to.p - from.p) * t;
    out.q = glm::normalize(glm::slerp(from.q, to.q, t));
    return out;
}

}  // namespace jl::app
