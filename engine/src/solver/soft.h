// JointLab engine — Box2D v3's soft constraint coefficients, the one copy that TGS's soft contacts
// and soft joints (WorldSettings::correction = soft; both in solver/soft_contact.h) call, in both
// TGS kernels (solver/reference/tgs_reference.cpp, solver/fast/tgs.cpp).
//
// A row held by a spring of angular frequency ω = 2π·f and damping ratio ζ, per unit effective
// mass m = K⁻¹, solved implicitly over a substep of h (Box2D v3, "Solver2D" soft step):
//   a1 = 2ζ + hω,  a2 = hω·a1,  a3 = 1/(1 + a2)
//   biasRate = ω/a1,  massScale = a2·a3,  impulseScale = a3
//   Δλ = −massScale·K⁻¹·(J·v + biasRate·C) − impulseScale·λ
// where λ is the impulse the row has applied in this substep. At Δλ = 0 (massScale +
// impulseScale = 1) the substep's velocity is v' = (v0 − h·ω²·C)/(1 + a2), v0 the velocity without
// the row's impulse: exactly implicit Euler of C'' + 2ζω·C' + ω²·C = 0 from (C, v0)
// (v'·(1 + 2ζωh + ω²h²) = v0 − hω²·C). Soft.CoefficientsAreImplicitEulerOfTheDampedSpring pins it.
#pragma once

#include "jointlab/math.h"

namespace jl::solver {

/// Box2D v3's soft constraint coefficients of a spring of `hertz` and damping ratio `zeta` over a
/// substep of h.
struct SoftCoefficients {
    Real hertz = 0.0, zeta = 0.0;
    Real biasRate = 0.0, massScale = 0.0, impulseScale = 0.0;
};
inline SoftCoefficients softCoefficients(Real hertz, Real zeta, Real h) {
    SoftCoefficients k;
    k.hertz = hertz;
    k.zeta = zeta;
    const Real w = 2.0 * kPi * hertz;
    const Real a1 = 2.0 * zeta + h * w, a2 = h * w * a1, a3 = 1.0 / (1.0 + a2);
    k.biasRate = w / a1;
    k.massScale = a2 * a3;
    k.impulseScale = a3;
    return k;
}

}  // namespace jl::solver
