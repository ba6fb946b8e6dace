// Shared pieces of the coupling joints (gear, rack-and-pinion): one coordinate per body, measured
// from where that body's joint frame was at the start, and the row that couples two of them.
//
// In maximal coordinates a body has no "joint coordinate" of its own, so each coupling joint
// defines one from its own frame on the body (see gear.h for why the start pose is the reference):
//   angle q = twist about X of ref⁻¹·c, where c is the joint frame's world orientation and ref is
//             that orientation at the start (the body pose the World was built with, kept in
//             JointMemory, times the local frame); tracked through full turns (JointMemory::unwrap).
//             For a frame turning about its own (fixed) X axis, q̇ = x·ω exactly, x = c's world X.
//   slide q = x_ref·(p − p_ref): how far the frame origin p moved along the X axis it had at the
//             start; q̇ = x_ref·(v + ω × r) = x_ref·v + (r × x_ref)·ω, r = p − centre of mass.
// Each is returned as q and its rate Jacobian on that body's (v, ω): q̇ = linear·v + angular·ω.
#pragma once

#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl::rows {

/// One body's coupled coordinate and its rate Jacobian on that body.
struct BodyCoordinate {
    Vec3 linear{0.0};   ///< ∂q̇/∂v
    Vec3 angular{0.0};  ///< ∂q̇/∂ω
    Real value = 0.0;   ///< q [rad or m]
    bool isAngle = false;
};

/// The reference frame (world) of body `side` (0 = body 0, 1 = body 1) of a coupling joint: the
/// body's start pose kept in JointMemory (set when the World is built, else captured at the first
/// prep) times the local joint frame; without memory, the frame the body would have at the world
/// origin with identity orientation (its local frame read as a world frame).
Transform couplingReference(const PrepContext& c, int side);

/// The rotation of body `side`'s joint frame about its X axis since the reference; unwrapped in
/// memory slot `slot`.
BodyCoordinate frameAngle(const PrepContext& c, int side, int slot);

/// The displacement of body `side`'s joint frame origin along the reference X axis.
BodyCoordinate frameSlide(const PrepContext& c, int side);

/// The rack-and-pinion row measured between the two bodies (rack_pinion.h, relative = true):
/// C = x − ratio·θ − offset with θ frame A's turn about its X relative to body 1 (unwrapped in
/// memory slot 0) and x frame B's origin's travel along B's X away from frame A's origin, both
/// since the start; two bodies only, so any carrier holding both drops out.
Row* relativeRackRow(const PrepContext& c, Real ratio, Real offset, Real erp, RowWriter& out);

/// The relative gear row (gear.h, relative = true): C = q0 + ratio·q1 + offset with q0, q1 the two
/// bodies' turns about their frames' X axes on a carrier holding both on hinges, read from the two
/// bodies' relative rotation (unwrapped in memory slots 0 and 1); axes within
/// kRelativeGearParallelSin2 of parallel at the start are read through the frame origins instead
/// (no row when an origin is within kParallelGearMinDistance of the other axis).
Row* relativeGearRow(const PrepContext& c, Real ratio, Real offset, Real erp, RowWriter& out);

/// The hard equality row C = g0·q0 + g1·q1 + offset = 0 (mimic doc eq. 3, 7):
///   dC/dt = g0·q̇0 + g1·q̇1, so with the row velocity convention (row.h)
///   linear0 = g0·q0.linear, angular0 = g0·q0.angular, linear1 = −g1·q1.linear, angular1 = −g1·q1.angular
/// and the unit response r = J M⁻¹ Jᵀ = g0²·r_00 + g1²·r_11 (eq. 15 with r_AB = r_BA = 0: two
/// separate rigid bodies do not respond to each other's test impulses). erp < 0 uses the world's α.
Row* couplingRow(const BodyCoordinate& q0, Real g0, const BodyCoordinate& q1, Real g1, Real offset, Real erp,
                 const char* label, RowWriter& out);

}  // namespace jl::rows
