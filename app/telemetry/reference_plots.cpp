// The Plots tab's plots against a reference: a simulated quantity beside its closed form
// (PlotKind::Reference), and the MuJoCo reference run's joint coordinates and body distance
// (PlotKind::Mujoco, PlotKind::Divergence; app/session/mujoco_reference.h, seen through
// ReferenceRecordView so the plots do not depend on MuJoCo).
#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "telemetry/telemetry_plots.h"

namespace jl::app {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* quantityUnit(ReferenceQuantity q) {
    switch (q) {
        case ReferenceQuantity::JointAngle:
            return "rad";
        case ReferenceQuantity::JointSpeed:
            return "rad/s";
        case ReferenceQuantity::JointPosition:
        case ReferenceQuantity::BodyHeight:
            return "m";
    }
    return "";
}

}  // namespace

/// A simulated quantity (solid), its closed form (dashed) and, when asked, their difference.
void referencePlot(plot::Context& ctx, const PlotDesc& desc, const PlotInputs& in, bool* logScale) {
    const Scene& scene = in.world->scene();
    const int index = findReference(scene, desc.reference);
    setupTimeAxis(ctx, in);
    if (index < 0) {
        plot::SetupAxisY(ctx, "value", "", logScale);
        return;
    }
    const ReferenceDesc& r = scene.references[static_cast<size_t>(index)];
    plot::SetupAxisY(ctx, kReferenceQuantityNames[static_cast<int>(r.quantity)], quantityUnit(r.quantity),
                     logScale);
    const Telemetry& t = *in.telemetry;
    const int n = static_cast<int>(t.size());
    const size_t k = static_cast<size_t>(index);
    auto value = [&](int i, int which) {
        const StepSample& s = t.at(static_cast<size_t>(i));
        if (k >= s.references.size()) return plot::Point{s.time, kNaN};
        const ReferenceSample& v = s.references[k];
        return plot::Point{s.time, which == 0   ? v.simulated
                                   : which == 1 ? v.reference
                                                : v.simulated - v.reference};
    };
    const uint64_t key = 200 + 4 * k;
    plot::PlotLineStreamF(
        ctx, "simulated", n, t.firstSerial(), sourceKey(t, key), [&](int i) { return value(i, 0); },
        plot::seriesColor(0));
    const std::string closed =
        std::string("closed form (") + kReferenceCurveNames[static_cast<int>(r.curve)] + ")";
    plot::SetNextSeriesDashed(ctx);
    plot::PlotLineStreamF(
        ctx, closed.c_str(), n, t.firstSerial(), sourceKey(t, key + 1), [&](int i) { return value(i, 1); },
        IM_COL32(235, 235, 240, 255));
    if (desc.difference)
        plot::PlotLineStreamF(
            ctx, "difference", n, t.firstSerial(), sourceKey(t, key + 2), [&](int i) { return value(i, 2); },
            IM_COL32(235, 94, 40, 255));
    if (std::isfinite(r.until) && r.until < (n ? t.latest().time : 0.0) + in.windowSeconds)
        plot::PlotEvent(ctx, "closed form ends", r.until, IM_COL32(170, 170, 180, 255));
}

namespace {

/// The MuJoCo reference's samples inside the plot's time window: [first, end) of `r.steps`.
std::pair<size_t, size_t> mujocoWindow(const ReferenceRecordView& r, const PlotInputs& in, Real dt) {
    const Real now = in.telemetry->size() ? in.telemetry->latest().time : 0.0;
    const Real from = now - in.windowSeconds;
    const auto first = std::lower_bound(r.steps.begin(), r.steps.end(), from, [&](int64_t step, Real t) {
        return static_cast<Real>(step) * dt < t;
    });
    return {static_cast<size_t>(first - r.steps.begin()), r.steps.size()};
}

}  // namespace

/// Each joint's coordinate in JointLab (solid) and in MuJoCo (dashed, the same colour), from the
/// reference run's record: the Reference tab's overlay, for any joints, in the Plots tab.
void mujocoPlot(plot::Context& ctx, const PlotInputs& in, const std::vector<int>& joints, bool* logScale) {
    setupTimeAxis(ctx, in);
    const Scene& scene = in.world->scene();
    int angular = 0, linear = 0;
    for (int j : joints) {
        const bool prismatic =
            std::holds_alternative<PrismaticJoint>(scene.joints[static_cast<size_t>(j)].params);
        linear += prismatic;
        angular += !prismatic;
    }
    plot::SetupAxisY(ctx, "joint angle or offset",
                     linear && angular ? "rad; m for prismatic"
                     : linear          ? "m"
                                       : "rad",
                     logScale);
    if (!in.mujoco || in.mujoco->steps.empty()) return;
    const ReferenceRecordView& r = *in.mujoco;
    const Real dt = scene.settings.dt;
    const auto [first, end] = mujocoWindow(r, in, dt);
    const size_t stride = 2 * r.joints.size();
    const int count = static_cast<int>(end - first);
    for (size_t p = 0; p < joints.size(); ++p) {
        const std::string& name = scene.joints[static_cast<size_t>(joints[p])].name;
        const auto it = std::find(r.joints.begin(), r.joints.end(), name);
        if (it == r.joints.end()) continue;  // not compared: no coordinate (fixed, gear, D6...)
        const size_t k = static_cast<size_t>(it - r.joints.begin());
        const ImU32 colour = plot::seriesColor(static_cast<int>(p));
        for (size_t side = 0; side < 2; ++side) {
            if (side == 1) plot::SetNextSeriesDashed(ctx);
            const std::string label = side == 0 ? name + " (JointLab)" : name + " (MuJoCo)";
            plot::PlotLineF(
                ctx, label.c_str(), count,
                [&](int i) {
                    const size_t s = first + static_cast<size_t>(i);
                    return plot::Point{static_cast<double>(r.steps[s]) * dt,
                                       r.coordinates[s * stride + 2 * k + side]};
                },
                colour);
        }
    }
}

/// The largest distance between a body's centre of mass in JointLab and in MuJoCo, per step.
void divergencePlot(plot::Context& ctx, const PlotInputs& in, bool* logScale) {
    setupTimeAxis(ctx, in);
    plot::SetupAxisY(ctx, "largest body distance", "m", logScale);
    if (!in.mujoco || in.mujoco->steps.empty()) return;
    const ReferenceRecordView& r = *in.mujoco;
    const Real dt = in.world->scene().settings.dt;
    const auto [first, end] = mujocoWindow(r, in, dt);
    plot::PlotLineF(
        ctx, "|x_JointLab - x_MuJoCo| max", static_cast<int>(end - first),
        [&](int i) {
            const size_t s = first + static_cast<size_t>(i);
            return plot::Point{static_cast<double>(r.steps[s]) * dt, r.divergence[s]};
        },
        IM_COL32(90, 200, 120, 255));
}

}  // namespace jl::app
