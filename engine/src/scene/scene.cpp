#include "jointlab/scene.h"

namespace jl {

Real WorldSettings::effectiveBaumgarte() const {
    if (!autoBaumgarte) return baumgarte;
    // physx-1d-constraint-formulation.md, "PhysX API": 1 for PGS, 1/sqrt(nbPosIters) for TGS.
    return solver == SolverType::PGS ? 1.0 : 1.0 / std::sqrt(static_cast<Real>(posIters > 0 ? posIters : 1));
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
