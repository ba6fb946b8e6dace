// JointLab app — plots of the recorded telemetry: turns a PlotDesc (what to show, saved in the
// scenario) and the Telemetry ring buffer into calls of the plot widget. Shared by the Plots panel
// and the telemetry benchmark, so the benchmark measures the code the app runs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "jointlab/telemetry.h"
#include "plot/plot.h"
#include "telemetry/plot_history.h"

namespace jl::app {

/// Joint index by name (SceneIndex::jointNames): with it a plot finds its joints without searching.
using JointNameIndex = std::unordered_map<std::string, int>;

/// What a plot reads besides its description.
struct PlotInputs {
    const Telemetry* telemetry = nullptr;
    const World* world = nullptr;  ///< its scene's joint indices are the telemetry's
    const ConvergenceHistory* convergence = nullptr;
    int selectedJoint = -1;       ///< the joint plots with no joints of their own follow
    int selectedBody = -1;        ///< the body contact plots with no bodies of their own follow
    double windowSeconds = 10.0;  ///< width of the moving time window
    plot::PlotFlags flags = plot::PlotFlags_None;
    /// Kept from frame to frame by the caller (optional: without it the row plots scan the whole
    /// window for row labels every frame).
    RowLabelIndex* rowLabels = nullptr;
    /// Optional: the joints by name (without it each frame searches the scene for each name).
    const JointNameIndex* jointNames = nullptr;
    /// Optional: another run's record (the A/B compare's B, the ghost of a branch), drawn dashed
    /// beside each live series in its colour, named "… (tag)". Its joint indices must be the
    /// live scene's (same joints, same order): shadowScene says so, else it is left out.
    const Telemetry* shadow = nullptr;
    const Scene* shadowScene = nullptr;
    const char* shadowTag = "B";
    /// Optional: the MuJoCo reference run's record, read by the mujoco and divergence plots.
    const ReferenceRecordView* mujoco = nullptr;
};

/// The name a force plot's joint list gives the mouse spring (the app's drag of a body, recorded
/// with each step as StepSample::pull): listed like a joint, it plots the spring's |force| while a
/// body is dragged. A joint of that name, if the scene has one, takes precedence.
inline constexpr const char* kMouseSpring = "mouse spring";

/// Joint indices a plot shows: its named joints, or the selected joint when it names none.
/// Names with no joint (except kMouseSpring) are appended to `missing` (comma-separated) when given.
void plotJoints(const PlotDesc& desc, const Scene& scene, int selectedJoint, std::vector<int>& out,
                std::string* missing = nullptr, const JointNameIndex* names = nullptr);

/// Body indices a contact plot shows: its named bodies, or the selected body when it names none.
/// Names with no body are appended to `missing` (comma-separated) when given.
void plotBodies(const PlotDesc& desc, const Scene& scene, int selectedBody, std::vector<int>& out,
                std::string* missing = nullptr);

/// True when `desc` is a force plot listing kMouseSpring.
bool plotsMouseSpring(const PlotDesc& desc, const Scene& scene);

/// The title shown above a plot: desc.title, or one made from the kind and the joints (the first
/// few of them and how many more).
std::string plotTitle(const PlotDesc& desc, const Scene& scene, int selectedJoint,
                      const JointNameIndex* names = nullptr, int selectedBody = -1);

/// Index of the scene's reference named `name` (Scene::references), or -1.
int findReference(const Scene& scene, const std::string& name);

/// Splits a comma-separated list, trimming spaces around each item; empty items are dropped.
std::vector<std::string> splitList(const std::string& list);
/// Adds `item` to a comma-separated list unless it is there already; returns the new list.
std::string addToList(const std::string& list, const std::string& item);

/// A projections plot's value in one recorded step: the times joint `joint` was projected in it
/// (JointDesc::projection; the CSV's `projections` column), or with joint −1 the total over every
/// joint. NaN when the step has no such joint (not recorded yet).
double projectionCount(const StepSample& s, int joint);

/// The time axis every plot of the run shares: the last `in.windowSeconds` up to now.
void setupTimeAxis(plot::Context& ctx, const PlotInputs& in);

/// Names what a streamed series shows, for the plot widget's cache (PlotLineStream): which
/// record, which quantity, which joint and row.
uint64_t sourceKey(const Telemetry& t, uint64_t quantity, int64_t joint = -1, const char* label = nullptr);

/// Plots against a reference (telemetry/reference_plots.cpp): a simulated quantity (solid), its
/// closed form (dashed) and, when asked, their difference;
void referencePlot(plot::Context& ctx, const PlotDesc& desc, const PlotInputs& in, bool* logScale);
/// and each of `joints`' coordinate in JointLab solid and in the MuJoCo reference dashed, and the
/// largest body distance between the two runs.
void mujocoPlot(plot::Context& ctx, const PlotInputs& in, const std::vector<int>& joints, bool* logScale);
void divergencePlot(plot::Context& ctx, const PlotInputs& in, bool* logScale);

/// Draws the plot `desc` (with "##id" making its ImGui id unique). Returns false when clipped.
/// `logScale` is the value-axis scale, switchable from the plot's menu.
bool drawTelemetryPlot(plot::Context& ctx, const char* id, const PlotDesc& desc, const PlotInputs& in,
                       const ImVec2& size, bool* logScale);

}  // namespace jl::app
