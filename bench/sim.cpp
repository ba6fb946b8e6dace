#include "sim.h"

#include <stdexcept>

namespace bench {

std::vector<EngineInfo> engines() {
#ifdef JOINTLAB_HAVE_BULLET
    constexpr bool kBullet = true;
#else
    constexpr bool kBullet = false;
#endif
#ifdef JOINTLAB_HAVE_ODE
    constexpr bool kOde = true;
#else
    constexpr bool kOde = false;
#endif
    return {{EngineKind::JointLabPGS, "jl-pgs", "JointLab PGS", true},
            {EngineKind::JointLabTGS, "jl-tgs", "JointLab TGS", true},
            {EngineKind::JointLabPGS2, "jl-pgs2", "JointLab PGS ×2", true},
            {EngineKind::JointLabTGS2, "jl-tgs2", "JointLab TGS ×2", true},
            {EngineKind::Bullet, "bullet", "Bullet", kBullet},
            {EngineKind::ODE, "ode", "ODE", kOde}};
}

std::unique_ptr<Sim> makeSim(EngineKind kind, const SceneSpec& s, const SimSettings& settings) {
    switch (kind) {
        case EngineKind::JointLabPGS:
            return makeJointLabSim(s, settings, false);
        case EngineKind::JointLabTGS:
            return makeJointLabSim(s, settings, true);
        case EngineKind::JointLabPGS2:
            return makeJointLabSim(s, settings, false, 2);
        case EngineKind::JointLabTGS2:
            return makeJointLabSim(s, settings, true, 2);
        case EngineKind::Bullet:
#ifdef JOINTLAB_HAVE_BULLET
            return makeBulletSim(s, settings);
#else
            break;
#endif
        case EngineKind::ODE:
#ifdef JOINTLAB_HAVE_ODE
            return makeOdeSim(s, settings);
#else
            break;
#endif
    }
    throw std::runtime_error("engine not built into this benchmark");
}

}  // namespace bench
