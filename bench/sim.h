// JointLab benchmark — one interface over the three engines.
//
// The harness times step() alone; beforeStep()/afterStep() count the constraint rows the step
// solved (outside the timed region) and state() copies the bodies out for the metrics.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "jointlab/fields.h"
#include "jointlab/scene.h"
#include "jointlab/solver_kernel.h"
#include "metrics.h"
#include "scene_spec.h"

namespace bench {

/// JointLabPGS2 and JointLabTGS2: the same solvers with WorldSettings::threads = 2 (the parallel
/// solve); their time is wall-clock time, as their work runs on two threads.
enum class EngineKind { JointLabPGS, JointLabTGS, JointLabPGS2, JointLabTGS2, Bullet, ODE };

struct SimSettings {
    int iterations = 10;  ///< JointLab: position iterations (+ velIters); Bullet and ODE: solver iterations
    int velIters = 1;     ///< JointLab only
    /// < 0: each engine's default error reduction (JointLab PGS 1, TGS 1/√posIters; Bullet and
    /// ODE 0.2); otherwise the same Baumgarte/ERP for every engine.
    Real erp = -1.0;
    jl::SolverOrder order = jl::SolverOrder::Coloured;  ///< JointLab's WorldSettings::rowOrder
    jl::PointSolve pointSolve = jl::PointSolve::Block;  ///< JointLab's WorldSettings::pointSolve
    jl::Correction correction = jl::Correction::Relax;  ///< JointLab's WorldSettings::correction
};

class Sim {
public:
    virtual ~Sim() = default;
    /// Called before each step, outside the timed region.
    virtual void beforeStep() {}
    /// One step of SceneSpec::dt. Timed.
    virtual void step() = 0;
    /// Called after each step, outside the timed region.
    virtual void afterStep() {}
    /// 1D constraint rows the last step solved (valid after afterStep()).
    virtual int rows() const = 0;
    /// Solver iterations the last step actually ran, when the engine may stop early (Bullet stops
    /// once its residual is exactly 0); < 0: the configured count.
    virtual double iterationsDone() const { return -1.0; }
    virtual void state(std::vector<BodyState>& out) const = 0;
    /// The step runs on more than one thread: the harness times it by wall clock, not by the
    /// calling thread's CPU time.
    virtual bool multiThreaded() const { return false; }
};

struct EngineInfo {
    EngineKind kind;
    const char* id;     ///< command-line name
    const char* label;  ///< table name
    bool available;     ///< compiled in
};

/// All engines, JointLab first; `available` says which were built.
std::vector<EngineInfo> engines();

std::unique_ptr<Sim> makeSim(EngineKind kind, const SceneSpec& s, const SimSettings& settings);

// Per engine (sim_jointlab.cpp, sim_bullet.cpp, sim_ode.cpp).
std::unique_ptr<Sim> makeJointLabSim(const SceneSpec& s, const SimSettings& settings, bool tgs,
                                     int threads = 1);
std::unique_ptr<Sim> makeBulletSim(const SceneSpec& s, const SimSettings& settings);
std::unique_ptr<Sim> makeOdeSim(const SceneSpec& s, const SimSettings& settings);
/// Version strings of the peers, e.g. "Bullet 3.24 (single precision)".
std::string bulletVersion();
std::string odeVersion();

}  // namespace bench
