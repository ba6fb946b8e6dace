// Closed forms for the reference curves (jointlab/closed_forms.h).
#include "jointlab/closed_forms.h"

#include <cmath>

namespace jl::closed {

namespace {

constexpr Real kPi = 3.14159265358979323846;
/// The AGM stops when c_n = (a − b)/2 is below this fraction of a_n: it then halves the digits'
/// error each step, so 1e-16 is the double's last bit.
constexpr Real kAgmTolerance = 1e-16;
/// Enough for any k < 1 representable in a double (the AGM converges quadratically).
constexpr int kMaxAgmSteps = 40;

}  // namespace

Real ellipticK(Real k) {
    Real a = 1.0, b = std::sqrt((1.0 - k) * (1.0 + k));
    for (int n = 0; n < kMaxAgmSteps && std::abs(a - b) > kAgmTolerance * a; ++n) {
        const Real next = 0.5 * (a + b);
        b = std::sqrt(a * b);
        a = next;
    }
    return kPi / (2.0 * a);
}

Jacobi jacobi(Real u, Real k) {
    if (k == 0.0) return {std::sin(u), std::cos(u), 1.0};
    // Descending: a_0 = 1, b_0 = k' = √(1 − k²), c_0 = k, down to c_N ≈ 0.
    Real a[kMaxAgmSteps + 1], c[kMaxAgmSteps + 1];
    a[0] = 1.0;
    c[0] = k;
    Real b = std::sqrt((1.0 - k) * (1.0 + k));
    int n = 0;
    while (n < kMaxAgmSteps && std::abs(c[n]) > kAgmTolerance * a[n]) {
        a[n + 1] = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = std::sqrt(a[n] * b);
        ++n;
    }
    // φ_N = 2^N a_N u, then back up: sin(2φ_{n−1} − φ_n) = (c_n / a_n) sin φ_n.
    Real phi = std::ldexp(a[n] * u, n);
    for (int m = n; m >= 1; --m) phi = 0.5 * (phi + std::asin(c[m] / a[m] * std::sin(phi)));
    const Real s = std::sin(phi);
    // dn from k²sn² + dn² = 1 (dn > 0 for real u): the quotient cos φ_0 / cos(φ_1 − φ_0) of A&S
    // 16.4.3 is 0/0 where cn vanishes (u = K).
    return {s, std::cos(phi), std::sqrt((1.0 - k * s) * (1.0 + k * s))};
}

Real pendulumSmallAngle(Real theta0, Real length, Real g, Real t) {
    return theta0 * std::cos(std::sqrt(g / length) * t);
}

Real pendulumPeriod(Real theta0, Real length, Real g) {
    return 4.0 * ellipticK(std::abs(std::sin(0.5 * theta0))) / std::sqrt(g / length);
}

Real pendulumAngle(Real theta0, Real length, Real g, Real t) {
    const Real k = std::sin(0.5 * theta0);  // signed: the swing starts on θ0's side
    const Real K = ellipticK(std::abs(k));
    const Real s = jacobi(K - std::sqrt(g / length) * t, std::abs(k)).sn;
    return 2.0 * std::asin(k * s);
}

Real secondOrderStep(Real mass, Real stiffness, Real damping, Real force, Real x0, Real target, Real t) {
    const Real rest = target + force / stiffness;  // where the spring balances the force
    const Real e0 = x0 - rest;
    const Real w = std::sqrt(stiffness / mass);
    const Real zeta = damping / (2.0 * std::sqrt(stiffness * mass));
    if (zeta < 1.0) {
        const Real wd = w * std::sqrt((1.0 - zeta) * (1.0 + zeta));
        return rest + e0 * std::exp(-zeta * w * t) * (std::cos(wd * t) + zeta * w / wd * std::sin(wd * t));
    }
    if (zeta == 1.0) return rest + e0 * std::exp(-w * t) * (1.0 + w * t);
    const Real root = w * std::sqrt((zeta - 1.0) * (zeta + 1.0));
    const Real r1 = -zeta * w + root, r2 = -zeta * w - root;  // both negative, r1 the slower
    return rest + e0 / (r2 - r1) * (r2 * std::exp(r1 * t) - r1 * std::exp(r2 * t));
}

namespace {

/// 3×3 matrices acting on (e, v, 1): the affine step of implicitEulerStep.
struct M3 {
    Real m[3][3];
};

M3 multiply(const M3& a, const M3& b) {
    M3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            Real s = 0.0;
            for (int k = 0; k < 3; ++k) s += a.m[i][k] * b.m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

}  // namespace

Real implicitEulerStep(Real mass, Real stiffness, Real damping, Real force, Real x0, Real target, Real h,
                       int64_t steps) {
    // With e = x − target: v' = (m v − h k e + h F)/D, e' = e + h v', D = m + h(h k + c).
    const Real D = mass + h * (h * stiffness + damping);
    const Real ve = -h * stiffness / D, vv = mass / D, v1 = h * force / D;
    const M3 step{{{1.0 + h * ve, h * vv, h * v1}, {ve, vv, v1}, {0.0, 0.0, 1.0}}};
    M3 power{{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}}};
    M3 base = step;
    for (int64_t n = steps; n > 0; n >>= 1) {
        if (n & 1) power = multiply(power, base);
        base = multiply(base, base);
    }
    const Real e0 = x0 - target;  // v0 = 0
    return target + power.m[0][0] * e0 + power.m[0][2];
}

Real atwoodHeight(Real mass, Real otherMass, Real g, Real y0, Real t) {
    const Real a = g * (mass - otherMass) / (mass + otherMass);
    return y0 - 0.5 * a * t * t;
}

}  // namespace jl::closed
