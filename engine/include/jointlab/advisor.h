// JointLab engine — the conditioning advisor: pure functions that look at a scene (and, for the
// rows' responses, the world's last step) and say, in words a student understands, which joints
// the solver will find hard and what would help (docs/user-guide.md "The conditioning advisor"). Nothing here
// changes a world; applyAdviceFix changes a copy of the scene, which the app applies through its undoable
// edits.
#pragma once

#include <string>
#include <vector>

#include "jointlab/scene.h"

namespace jl {

class World;

enum class AdviceKind {
    MassRatio,     ///< the two bodies' masses (as the joint sees them) differ by more than the limit
    InertiaRatio,  ///< ... or their largest moments of inertia do
    LongLever,     ///< an anchor far from a light body's centre of mass: β = m·r²/I large
    WeakRow,       ///< a row whose unit response J M⁻¹ Jᵀ is near (or under) the solver's threshold
    DeepChain,     ///< more joints between a body and its anchor than position iterations
    StiffDrive,    ///< a drive whose ω_n·h is too large for the step h its solver takes
};
inline constexpr const char* kAdviceKindNames[] = {"mass ratio", "inertia ratio", "long lever",
                                                   "weak row",   "deep chain",    "stiff drive"};

/// A one-click remedy. Each changes settings or the joint's mass scales (applyAdviceFix).
enum class AdviceFix {
    MoreIterations,   ///< posIters raised so the sweeps reach the whole chain (at most 255)
    UseTgs,           ///< switch to TGS: substeps carry each correction further per step
    MassScales,       ///< the light side's inverse mass (inertia) scale brings the ratio to 90% of the limit
    SmallerDt,        ///< dt lowered until ω_n·h is at the drive limit (or halved)
    BlockPointSolve,  ///< solve a point constraint's rows at once (settings.pointSolve = block)
    ResetMassScales,  ///< the joint's mass scales back to 1 (a scale near 0 made the row weak)
};
inline constexpr const char* kAdviceFixNames[] = {
    "more iterations", "use TGS", "mass scales", "smaller dt", "block point solve", "reset mass scales"};

/// The limits the advisor warns above (documented with their reasons in docs/user-guide.md "The conditioning
/// advisor").
struct AdvisorLimits {
    Real massRatio = 10.0;     ///< PhysX's guidance: keep mass ratios across a joint under 10
    Real inertiaRatio = 10.0;  ///< the same for the largest principal moments
    Real lever = 20.0;         ///< β = m·r²/I_min of a body at its anchor, with per-row point solve
    Real weakResponse = 1e-8;  ///< 10⁴ × the solver's kMinResponse (1e-12) [1/kg or 1/(kg·m²)]
    Real driveOmegaH = 0.5;    ///< ω_n·h: implicit Euler then loses 11% of the swing per step
};

struct Advice {
    AdviceKind kind = AdviceKind::MassRatio;
    int joint = -1;                ///< the joint it is about (scene index); −1 for the scene (never today)
    Real value = 0.0;              ///< the measured number (a ratio, β, a response, a depth, ω_n·h)
    Real limit = 0.0;              ///< the limit it crossed
    std::string title;             ///< one line: "mass ratio 100 across \"hook\""
    std::string explanation;       ///< a paragraph for a student: what, why it hurts, what helps
    std::vector<AdviceFix> fixes;  ///< in the order the advisor recommends them
};

/// Everything the advisor finds in `scene`. `world` (optional; built from the same scene) adds
/// the rows' responses of its last step (WeakRow). Deterministic: joints in scene order, kinds
/// in enum order.
std::vector<Advice> adviseScene(const Scene& scene, const World* world = nullptr,
                                const AdvisorLimits& limits = AdvisorLimits{});

/// Applies `fix` for `advice` to `scene`; returns a short description of what changed ("posIters
/// 4 → 16"), or "" when the fix does not apply (then the scene is unchanged).
std::string applyAdviceFix(Scene& scene, const Advice& advice, AdviceFix fix,
                           const AdvisorLimits& limits = AdvisorLimits{});

/// The number of joints from the farthest dynamic body of joint j's group to a body that does
/// not move (the world, a static or kinematic body); 0 when none is anchored (then there is no
/// chain to carry). Exposed for the tests.
int chainDepth(const Scene& scene, int joint);

/// ω_n of joint j's stiffest drive: √(k / I_eff) with I_eff the joint's effective mass or
/// inertia along the drive's axis at the scene's poses (√k for acceleration drives); 0 without a
/// drive. Exposed for the tests and the drive lessons.
Real driveNaturalFrequency(const Scene& scene, int joint);

}  // namespace jl
