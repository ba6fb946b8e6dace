// Distance joint: keeps the distance d = |p1 − p0| between the joint origins in [min, max].
//
//   n = (p1 − p0)/d (body 0's joint X axis when d ≈ 0).
//   max row: C = max − d ≥ 0, J = {n, r0 × n, −n, −(r1 × n)}: dC/dt = n·(v_p0 − v_p1) = −dd/dt.
//   min row: C = d − min ≥ 0, J with −n.
//   Both are inequality rows (impulse ≥ 0). A row is emitted when d is within `tolerance` of its
//   bound (or beyond); inside the range it keeps its bias, so the origins may approach the bound
//   within the step but not cross it. With a spring the rows become soft: outside the range the
//   joint pulls back like a spring of `stiffness` and `damping` (still only pulling/pushing one way).
#pragma once

#include <string>

#include "jointlab/fields.h"
#include "jointlab/joints/joint_sketch.h"
#include "jointlab/joints/joint_type_info.h"
#include "jointlab/joints/prep_context.h"
#include "jointlab/row.h"

namespace jl {

struct DistanceJoint {
    static constexpr JointTypeInfo info{
        .name = "distance",
        .title = "Distance (rope / rod)",
        .description =
            "Keeps the distance between the two joint origins between a minimum and a maximum; each "
            "bound can be switched off (only a maximum is a rope). Optionally the bounds are soft: a "
            "spring with damping pulls the distance back into the range.",
        .drawStyle = JointDrawStyle::Distance,
        .hasLimits = true,
        .placement = {.axis = JointAxisDefault::AlongAToB, .frame1AtPointOnBody1 = true}};

    bool minEnabled = false;     ///< enforce minDistance
    bool maxEnabled = true;      ///< enforce maxDistance
    Real minDistance = 0.0;      ///< [m]
    Real maxDistance = 1.0;      ///< [m]
    Real tolerance = 0.05;       ///< a bound's row is active when the distance is within this of it [m]
    bool springEnabled = false;  ///< soft bounds
    Real stiffness = 0.0;        ///< spring outside the range [N/m]
    Real damping = 0.0;          ///< [N·s/m]

    template <class V>
    void visit(V& v) {
        v("minEnabled", minEnabled, Field{"", 0, 0, "enforce the minimum distance"});
        v("maxEnabled", maxEnabled, Field{"", 0, 0, "enforce the maximum distance"});
        v("minDistance", minDistance, nonNegative("m", "smallest allowed distance between the origins"));
        v("maxDistance", maxDistance, nonNegative("m", "largest allowed distance between the origins"));
        v("tolerance", tolerance,
          nonNegative("m", "a bound starts acting when the distance is this close to it"));
        v("springEnabled", springEnabled, Field{"", 0, 0, "bounds are soft springs instead of hard stops"});
        v("stiffness", stiffness, nonNegative("N/m", "spring constant outside the range"));
        v("damping", damping, nonNegative("N·s/m", "damping outside the range"));
    }
    /// Cross-field rules; returns "" or "field: problem".
    std::string validate() const {
        if (minEnabled && maxEnabled && minDistance > maxDistance)
            return "minDistance: must be <= maxDistance (" + std::to_string(minDistance) + " > " +
                   std::to_string(maxDistance) + ")";
        return "";
    }

    /// Placed with its origins `length` apart (JointPlacementDefaults::frame1AtPointOnBody1): that
    /// length becomes the rope's, with no minimum.
    void fitLength(Real length) {
        maxDistance = length;
        minDistance = 0.0;
    }

    /// Its allowed range of distances (joint_sketch.h).
    void sketch(JointSketch& out) const;
};

void prep(const DistanceJoint& j, const PrepContext& c, RowWriter& out);

}  // namespace jl
