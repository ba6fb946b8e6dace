// Interop tests: a coupling's law measured while its imported model runs, in JointLab alone (the
// gear as imported, relative to the carrier, against the same gear measuring turns in the world)
// and beside MuJoCo running the exported model (Reference: MuJoCo). The mimic and gripper tests
// state their model, law and tolerances; these only import, step and measure.
#pragma once

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "interop/reference_run.h"
#include "jointlab/scene.h"
#include "jointlab/world.h"
#include "model_coordinates.h"

namespace jl::interop::test {

/// A coupling's law between two joints' coordinates: q_a = ratio·q_b + offset.
struct Law {
    std::string a, b;
    Real ratio = 1.0;
    Real offset = 0.0;
    /// How far the coordinates are from the law: |q_a − ratio·q_b − offset|.
    Real error(Real qa, Real qb) const { return std::abs(qa - ratio * qb - offset); }
};

/// The imported coupling `name`, checked to be a relative gear from `body0` to `body1` with
/// `ratio` and `offset` (exactly: the import takes them from the model's numbers), and the
/// import's `warning` checked to hold no note that couplings measure turns in the world. nullptr,
/// a failure, when the joint is missing or no gear.
inline const JointDesc* expectRelativeGear(const Scene& s, const std::string& warning,
                                           const std::string& name, const std::string& body0,
                                           const std::string& body1, Real ratio, Real offset) {
    EXPECT_EQ(warning.find("couplings measure"), std::string::npos) << warning;
    const JointDesc* j = findJoint(s, name);
    EXPECT_NE(j, nullptr) << name;
    const GearJoint* g = j ? std::get_if<GearJoint>(&j->params) : nullptr;
    EXPECT_NE(g, nullptr) << name;
    if (!g) return nullptr;
    EXPECT_TRUE(g->relative);
    EXPECT_DOUBLE_EQ(g->ratio, ratio);
    EXPECT_DOUBLE_EQ(g->offset, offset);
    EXPECT_EQ(j->body0, body0);
    EXPECT_EQ(j->body1, body1);
    return j;
}

/// The scene runs `steps` steps and every body's pose and velocity stays finite.
inline void expectRunsFinite(const Scene& s, int steps) {
    World w(s);
    for (int i = 0; i < steps; ++i) w.step();
    expectFinite(w);
}

/// The model at `path` imported to run under `solver` at `dt` (0: the import's own time step),
/// without contacts (no ground plane, no body collisions): the mechanism alone.
inline Scene modelToRun(const std::string& path, SolverType solver, Real dt = 0.0) {
    std::string warning;
    Scene s = importedModel(path, warning);
    if (dt > 0.0) s.settings.dt = dt;
    s.settings.solver = solver;
    s.settings.groundPlane = s.settings.bodyCollisions = false;
    return s;
}

/// What a run shows of a coupling's law, each the worst over the run.
struct LawRun {
    Real law = 0.0;     ///< the law's error, from step `settle` on
    Real travel = 0.0;  ///< |q_b|: how far the coupled joints turn
    Real swing = 0.0;   ///< |q| of the carrier's joint: how far the carrier moves
};

/// Runs `s` for `steps` steps, measuring `law` and the carrier's joint `carrier` after each.
inline LawRun runLaw(const Scene& s, const Law& law, const std::string& carrier, int steps, int settle = 0) {
    World w(s);
    LawRun r;
    for (int i = 0; i < steps; ++i) {
        w.step();
        const Real qa = coordinate(w, law.a), qb = coordinate(w, law.b);
        if (i >= settle) r.law = std::max(r.law, law.error(qa, qb));
        r.travel = std::max(r.travel, std::abs(qb));
        r.swing = std::max(r.swing, std::abs(coordinate(w, carrier)));
    }
    return r;
}

/// A coupling on a moving carrier, run twice: as imported (relative to the carrier) and rebuilt as
/// the same gear measuring the turns in the world.
struct CarrierLaw {
    LawRun relative;
    Real world = 0.0;  ///< the law's worst error under the world-measured gear
};

/// The model at `path` for 2 s at 1 ms under `solver`, without contacts, its gear `gear` relative
/// and then measuring in the world (runLaw).
inline CarrierLaw lawOnCarrier(const std::string& path, const std::string& gear, const Law& law,
                               const std::string& carrier, SolverType solver) {
    CarrierLaw out;
    for (const bool relative : {true, false}) {
        Scene s = modelToRun(path, solver, 0.001);
        const int j = s.findJoint(gear);
        EXPECT_GE(j, 0) << gear;
        if (j < 0) return out;
        std::get<GearJoint>(s.joints[static_cast<size_t>(j)].params).relative = relative;
        const LawRun r = runLaw(s, law, carrier, 2000);
        if (relative)
            out.relative = r;
        else
            out.world = r.law;
    }
    return out;
}

/// The law on a moving carrier (lawOnCarrier), printed under `tag` (`lawText` names the law's
/// error) and checked: the carrier's joint swings past 1 rad and the coupled joints turn past
/// 0.1 rad on it (so a world-measured law would break, and the coupling carries load); the gear as
/// imported keeps the law within `tolerance`; the world-measured gear breaks it by more than 0.1 rad.
inline void expectLawHoldsOnlyRelative(const char* tag, const std::string& path, const std::string& gear,
                                       const Law& law, const char* lawText, const std::string& carrier,
                                       SolverType solver, Real tolerance) {
    const CarrierLaw r = lawOnCarrier(path, gear, law, carrier, solver);
    std::printf(
        "[ %s ] %s, %s, 2 s at 1 ms: %s swings up to %.3g rad, %s turns up to %.3g rad on it; %s <= %.3g rad "
        "(relative gear), %.3g rad (the same gear measured in the world)\n",
        tag, path.substr(path.find_last_of('/') + 1).c_str(), kSolverTypeNames[static_cast<int>(solver)],
        carrier.c_str(), r.relative.swing, law.b.c_str(), r.relative.travel, lawText, r.relative.law,
        r.world);
    EXPECT_GT(r.relative.swing, 1.0);
    EXPECT_GT(r.relative.travel, 0.1);
    EXPECT_LT(r.relative.law, tolerance);
    EXPECT_GT(r.world, 0.1);
}

/// MuJoCo started beside `world` on its export (ReferenceRun::start), which must hold exactly one
/// equality, a joint equality (the coupling): nullptr, a failure, otherwise.
inline std::unique_ptr<ReferenceRun> startWithOneJointEquality(const World& world) {
    std::string error;
    std::unique_ptr<ReferenceRun> ref = ReferenceRun::start(world, error);
    EXPECT_TRUE(ref) << error;
    if (!ref) return nullptr;
    EXPECT_EQ(ref->model()->neq, 1);
    if (ref->model()->neq != 1) return nullptr;
    EXPECT_EQ(ref->model()->eq_type[0], mjEQ_JOINT);
    return ref;
}

/// Entry k of a list of the compared joints' coordinates.
inline Real at(const std::vector<Real>& v, int k) {
    return v[static_cast<size_t>(k)];
}

/// Steps `world` and MuJoCo (`ref`) together `steps` times; after each step calls visit(i, jl, mj)
/// with the two engines' coordinates of the compared joints (ReferenceRun::comparedJoints' order).
template <class Visit>
void stepBesideMuJoCo(World& world, ReferenceRun& ref, int steps, Visit visit) {
    for (int i = 0; i < steps; ++i) {
        world.step();
        ref.step();
        const std::vector<Real> jl = ref.jointlabCoordinates(world), mj = ref.mujocoCoordinates();
        visit(i, jl, mj);
    }
}

/// What running beside MuJoCo shows, each the worst over the run.
struct BesideMuJoCo {
    Real law = 0.0;            ///< the law's error in JointLab, from step `settle` on
    Real lawMj = 0.0;          ///< the same in MuJoCo
    Real joints = 0.0;         ///< the law's two joints: |q − q_MuJoCo|
    Real carrierApart = 0.0;   ///< the carrier's joint: |q − q_MuJoCo|
    Real carrierTravel = 0.0;  ///< the carrier's joint: |q| in JointLab
    Real position = 0.0;       ///< every body: ReferenceRun::maxPositionDivergence
};

/// Steps `world` beside MuJoCo (`ref`, started from it) `steps` times, measuring `law` in both and
/// how far the two engines part; `carrier` is the joint of the body the coupled joints ride on.
/// A joint that is not compared is a failure (and the result stays zero).
inline BesideMuJoCo runBesideMuJoCo(World& world, ReferenceRun& ref, const Law& law,
                                    const std::string& carrier, int steps = 2000, int settle = 0) {
    const int a = comparedIndex(ref, world.scene(), law.a), b = comparedIndex(ref, world.scene(), law.b);
    const int c = comparedIndex(ref, world.scene(), carrier);
    EXPECT_GE(a, 0) << law.a;
    EXPECT_GE(b, 0) << law.b;
    EXPECT_GE(c, 0) << carrier;
    BesideMuJoCo r;
    if (a < 0 || b < 0 || c < 0) return r;
    stepBesideMuJoCo(world, ref, steps, [&](int i, const std::vector<Real>& jl, const std::vector<Real>& mj) {
        if (i >= settle) {
            r.law = std::max(r.law, law.error(at(jl, a), at(jl, b)));
            r.lawMj = std::max(r.lawMj, law.error(at(mj, a), at(mj, b)));
        }
        r.joints = std::max({r.joints, std::abs(at(jl, a) - at(mj, a)), std::abs(at(jl, b) - at(mj, b))});
        r.carrierApart = std::max(r.carrierApart, std::abs(at(jl, c) - at(mj, c)));
        r.carrierTravel = std::max(r.carrierTravel, std::abs(at(jl, c)));
        r.position = std::max(r.position, ref.maxPositionDivergence(world));
    });
    return r;
}

/// The mimic tests' run beside MuJoCo (runBesideMuJoCo, 2 s), printed under `tag` (`lawText`
/// names the law's error) and checked: no divergence, the law kept within `lawTolerance` here and
/// within 0.02 rad in MuJoCo (its equality is soft, solref 0.02 s), the carrier's joint and the
/// coupled joints within 0.02 rad of MuJoCo's (the two engines move the mechanism alike).
inline void expectLawBesideMuJoCo(const char* tag, World& world, ReferenceRun& ref, const Law& law,
                                  const char* lawText, const std::string& carrier, Real lawTolerance) {
    const BesideMuJoCo r = runBesideMuJoCo(world, ref, law, carrier);
    std::printf(
        "[ %s ] beside MuJoCo, %s, 2 s at 1 ms: %s <= %.3g rad (MuJoCo's soft equality %.3g rad); %s within "
        "%.3g "
        "rad of MuJoCo's, fingers within %.3g rad; bodies within %.3g m\n",
        tag, kSolverTypeNames[static_cast<int>(world.scene().settings.solver)], lawText, r.law, r.lawMj,
        carrier.c_str(), r.carrierApart, r.joints, r.position);
    EXPECT_FALSE(ref.diverged());
    EXPECT_LT(r.law, lawTolerance);
    EXPECT_LT(r.lawMj, 0.02);
    EXPECT_LT(r.carrierApart, 0.02);
    EXPECT_LT(r.joints, 0.02);
}

}  // namespace jl::interop::test
