#include "jointlab/scene.h"

namespace jl {

/// PGS's stable α under the rattle correction (docs/solvers.md §9): its position pass closes half a
/// joint's error per iteration; at 0.3 the levers' period is 2.4% short at 4 + 1 (0.72% at 0.5) and
/// the double pendulum loses 89% in 60 s (67% at 0.5), and the 100- and 1000-link chains keep their
/// energy at 0.5 as at 0.3 (at 0.7 the 100-link chain gains 2% at 8 + 1).
constexpr Real kStableBaumgarteRattle = 0.5;

Real WorldSettings::effectiveBaumgarte() const {
    if (!autoBaumgarte) return baumgarte;
    if (solver == SolverType::PGS)
        return correction == Correction::Rattle ? kStableBaumgarteRattle : kStableBaumgartePgs;
    return kStableBaumgarteTgs;
}

Real WorldSettings::physxBaumgarte() const {
    // physx-1d-constraint-formulation.md, "PhysX API": 1 for PGS, 1/sqrt(nbPosIters) for TGS.
    return solver == SolverType::PGS ? 1.0 : 1.0 / std::sqrt(static_cast<Real>(posIters > 0 ? posIters : 1));
}

void WorldSettings::applyPhysXPreset() {
    posIters = 4;  // PxRigidDynamic's default solver iteration counts
    velIters = 1;
    autoBaumgarte = false;
    baumgarte = physxBaumgarte();
    pointSolve = PointSolve::Rows;
    correction = Correction::Baumgarte;
    gyroscopic = false;  // PxRigidBodyFlag::eENABLE_GYROSCOPIC_FORCES is off by default
}

int Scene::findBody(const std::string& name) const {
    for (size_t i = 0; i < bodies.size(); ++i)
        if (bodies[i].name == name) return static_cast<int>(i);
    return -1;
}

int Scene::findJoint(const std::string& name) const {
    for (size_t i = 0; i < joints.size(); ++i)
        if (joints[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace jl
