// A drive as a second-order system (jointlab/drive_tuning.h): ω_n and ζ ⇄ gains, the effective
// mass from the joint's rows, and the predicted step responses.
#include "jointlab/drive_tuning.h"

#include <algorithm>
#include <cmath>

#include "jointlab/row_equation.h"
#include "jointlab/world.h"

namespace jl {

DriveModes driveModes(Real stiffness, Real damping, Real mEff) {
    DriveModes m;
    if (!(mEff > 0.0)) return m;
    m.omegaN = std::sqrt(std::max(stiffness, 0.0) / mEff);
    const Real s = std::sqrt(std::max(stiffness, 0.0) * mEff);
    m.zeta = s > 0.0 ? damping / (2.0 * s) : (damping > 0.0 ? kInf : 0.0);
    return m;
}

DriveGains driveGains(Real omegaN, Real zeta, Real mEff) {
    return {mEff * omegaN * omegaN, 2.0 * zeta * mEff * omegaN};
}

namespace {

/// J_i M⁻¹ J_jᵀ between two rows of one joint (same bodies, same M⁻¹): F 21 for i ≠ j too.
Real coupling(const RowEquation& a, const RowEquation& b) {
    const Row& i = a.row;
    const Row& j = b.row;
    return a.invMass0 * glm::dot(i.linear0, j.linear0) + glm::dot(i.angular0, a.invInertia0 * j.angular0) +
           a.invMass1 * glm::dot(i.linear1, j.linear1) + glm::dot(i.angular1, a.invInertia1 * j.angular1);
}

}  // namespace

Real driveEffectiveMass(const World& world, int joint, int row) {
    RowEquation drive;
    if (!world.rowEquation(joint, row, drive) || !drive.active) return 0.0;
    std::vector<RowEquation> rows{drive};  // the drive first, then the rows that hold
    for (int i = 0;; ++i) {
        RowEquation e;
        if (!world.rowEquation(joint, i, e)) break;
        if (i == row || !e.active || e.spring || e.row.solveHint != SolveHint::Equality) continue;
        rows.push_back(e);
    }
    const size_t n = rows.size();
    std::vector<Real> K(n * n);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) K[i * n + j] = coupling(rows[i], rows[j]);
    // Eliminate the held rows (Schur complement onto the drive's entry K[0][0]); a row that
    // depends on the ones before it (pivot ~ 0) adds no constraint and is skipped.
    Real scale = 0.0;
    for (size_t i = 0; i < n; ++i) scale = std::max(scale, K[i * n + i]);
    for (size_t p = 1; p < n; ++p) {
        const Real pivot = K[p * n + p];
        if (!(pivot > 1e-12 * scale)) continue;
        for (size_t i = 0; i < n; ++i) {
            if (i == p) continue;
            const Real f = K[i * n + p] / pivot;
            if (f == 0.0) continue;
            for (size_t j = 0; j < n; ++j) K[i * n + j] -= f * K[p * n + j];
        }
    }
    const Real kEff = K[0];
    if (!(kEff > 1e-12 * scale)) return 0.0;
    // An acceleration drive's gains are divided by the drive row's own K (D 35–36), while what
    // moves the coordinate is K_eff: its "mass" in the second-order model is K/K_eff (see the
    // header), 1 when no other row couples to the drive.
    return drive.accelerationSpring ? drive.K / kEff : 1.0 / kEff;
}

std::vector<Real> driveResponseContinuous(const DriveResponseInput& in) {
    std::vector<Real> out;
    out.reserve(static_cast<size_t>(in.steps) + 1);
    const Real m = in.mEff, k = in.stiffness, c = in.damping;
    for (int i = 0; i <= in.steps; ++i) {
        const Real t = i * in.dt;
        Real e;
        if (!(k > 0.0)) {  // a damper (or nothing): ė relaxes to v_T at rate c/m
            const Real rate = c / m;
            e = rate > 0.0 ? in.e0 + in.vT * t + (in.de0 - in.vT) * (1.0 - std::exp(-rate * t)) / rate
                           : in.e0 + in.de0 * t;
        } else {
            const Real ep = c * in.vT / k;  // where the damper's pull on v_T balances the spring
            const Real u0 = in.e0 - ep, du0 = in.de0;
            const Real w = std::sqrt(k / m), z = c / (2.0 * std::sqrt(k * m));
            Real u;
            if (std::abs(z - 1.0) < 1e-9) {
                u = std::exp(-w * t) * (u0 + (du0 + w * u0) * t);
            } else if (z < 1.0) {
                const Real wd = w * std::sqrt(1.0 - z * z);
                u = std::exp(-z * w * t) *
                    (u0 * std::cos(wd * t) + (du0 + z * w * u0) / wd * std::sin(wd * t));
            } else {
                const Real s = std::sqrt(z * z - 1.0);
                const Real r1 = -w * (z - s), r2 = -w * (z + s);
                const Real A = (du0 - r2 * u0) / (r1 - r2);
                u = A * std::exp(r1 * t) + (u0 - A) * std::exp(r2 * t);
            }
            e = ep + u;
        }
        out.push_back(e);
    }
    return out;
}

std::vector<Real> driveResponseImplicit(const DriveResponseInput& in) {
    std::vector<Real> out;
    out.reserve(static_cast<size_t>(in.steps) + 1);
    const int n = std::max(1, in.substeps);
    const Real h = in.dt / n, m = in.mEff, k = in.stiffness, c = in.damping;
    Real e = in.e0, v = in.de0;
    out.push_back(e);
    for (int i = 0; i < in.steps; ++i) {
        for (int s = 1; s <= n; ++s) {
            // TGS measures the error against the target's position at the end of the step (D 41);
            // PGS (one substep of dt) against it at the end of the step too: (dt − s·h) = 0.
            const Real eSub = e + (in.dt - s * h) * in.vT;
            v = (m * v - h * k * eSub + h * c * in.vT) / (m + h * h * k + h * c);  // D 9–12
            e += h * v;
        }
        out.push_back(e);
    }
    return out;
}

}  // namespace jl
