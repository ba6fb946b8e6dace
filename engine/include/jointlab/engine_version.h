// JointLab engine — the version of the engine's results.
//
// The engine is deterministic: the same scenario, settings and input give the same bits on any
// machine. A change to the physics or to the solver's arithmetic changes those bits, so a run
// recorded before it (an input log's final state hash, docs/scenario-format.md "Input logs")
// cannot be reproduced after it. Such a change bumps kEngineResultsVersion (and re-pins the
// Determinism tests' hashes); input logs record the version they were made with, so a replay
// that ends elsewhere can say "recorded with another engine version" rather than "diverged".
#pragma once

namespace jl {

/// Bump with every change that changes the engine's results (the state hash of a run).
///   1: every log written before input logs recorded a version.
///   2: block-solved point constraints, forces per TGS substep and the gyroscopic term (issue 25,
///      points 1, 2 and 5).
///   3: stable defaults (issue 25, points 3 and 4): α "auto" = 0.3 (PGS) / 0.5 (TGS) instead of
///      PhysX's, TGS's relax correction, 8 position iterations for scenes that do not say.
///   4: bodies that touch (issue 29): body contacts, PGS's soft body contacts, and TGS's resting
///      contacts in impulses per substep with Box2D v3's soft contact (solver/soft_contact.h).
///   5: speculative contacts that grow with a pair's closing speed (issue 29 point 6,
///      contacts/collide.h): bodies that close more than 2 cm in a step have rows before they meet.
///   6: a pair that turns fast is also tested at its poses predicted for the middle and the end of
///      the step (issue 29 point 6, contacts/collide.h): a ragdoll's whipping limbs stay within
///      the contact distance at 60 Hz.
inline constexpr int kEngineResultsVersion = 6;

/// The version a log that records none was made with: logs gained the field with version 2.
inline constexpr int kEngineResultsVersionUnrecorded = 1;

}  // namespace jl
