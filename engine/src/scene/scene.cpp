#include "jointlab/scene.h"

namespace jl {

Real WorldSettings::effectiveBaumgarte() const {
    if (!autoBaumgarte) return baumgarte;
    return solver == SolverType::PGS ? kStableBaumgartePgs : kStableBaumgarteTgs;
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
