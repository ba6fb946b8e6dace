#include "telemetry/telemetry_plots.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>
#include <limits>
#include <utility>
#include <variant>

namespace jl::app {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr ImU32 kBreakColor = IM_COL32(255, 70, 70, 255);
constexpr ImU32 kThresholdColor = IM_COL32(235, 94, 40, 255);  ///< a threshold shared by several joints

bool sameLabel(const char* a, const char* b) {
    return a == b || std::strcmp(a, b) == 0;
}

/// The row of `joint` labelled `label` in a sample, or nullptr (rows are stored in joint order).
const RowSample* findRow(const StepSample& s, int joint, const char* label) {
    auto it = std::lower_bound(s.rows.begin(), s.rows.end(), joint,
                               [](const RowSample& r, int j) { return r.joint < j; });
    for (; it != s.rows.end() && it->joint == joint; ++it)
        if (sameLabel(it->label, label)) return &*it;
    return nullptr;
}

/// The rows of `joint` in one step (rows are stored in joint order).
std::span<const RowSample> jointRows(const StepSample& s, int joint) {
    auto first = std::lower_bound(s.rows.begin(), s.rows.end(), joint,
                                  [](const RowSample& r, int j) { return r.joint < j; });
    auto last = first;
    while (last != s.rows.end() && last->joint == joint) ++last;
    return {s.rows.data() + (first - s.rows.begin()), static_cast<size_t>(last - first)};
}

/// 1 = angular row, 0 = linear, -1 = not produced this step (unknown).
int rowIsAngular(const World* world, int joint, const char* label) {
    if (!world) return -1;
    for (const Row& r : world->jointRows(joint))
        if (sameLabel(r.label, label)) return (r.flags & kRowAngular) ? 1 : 0;
    return -1;
}

const char* kindTitle(PlotKind kind) {
    switch (kind) {
        case PlotKind::Impulse:
            return "Impulse per row";
        case PlotKind::Error:
            return "Geometric error per row";
        case PlotKind::Force:
            return "Force on body 1 vs break force";
        case PlotKind::Torque:
            return "Torque on body 1 vs break torque";
        case PlotKind::Energy:
            return "Energy";
        case PlotKind::Convergence:
            return "Convergence of the last step, per solver sweep";
        case PlotKind::Reference:
            return "Simulated vs closed form";
        case PlotKind::Contact:
            return "Net contact force on the body";
        case PlotKind::Projections:
            return "Projections per step";
        case PlotKind::Mujoco:
            return "Joint angle vs MuJoCo (dashed)";
        case PlotKind::Divergence:
            return "Body distance to MuJoCo";
    }
    return "Plot";
}

/// A joint's part of a series key: its name, so that a series keeps its cached line when joints
/// before it are deleted and its index changes (Telemetry::remapJoints).
int64_t jointKey(const Scene& scene, int joint) {
    uint64_t h = 1469598103934665603ull;
    for (char c : scene.joints[static_cast<size_t>(joint)].name)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return static_cast<int64_t>(h);
}

bool usesJoints(PlotKind kind) {
    return kind == PlotKind::Impulse || kind == PlotKind::Error || kind == PlotKind::Force ||
           kind == PlotKind::Torque || kind == PlotKind::Projections || kind == PlotKind::Mujoco;
}

/// The other run's record when it can be drawn beside this one: same joints, same order.
const Telemetry* shadowOf(const PlotInputs& in) {
    if (!in.shadow || !in.shadowScene || in.shadow->size() == 0) return nullptr;
    const Scene& a = in.world->scene();
    const Scene& b = *in.shadowScene;
    if (a.joints.size() != b.joints.size()) return nullptr;
    for (size_t j = 0; j < a.joints.size(); ++j)
        if (a.joints[j].name != b.joints[j].name) return nullptr;
    return in.shadow;
}

/// `name (tag)`: the other run's series of a quantity.
std::string shadowName(const PlotInputs& in, const std::string& name) {
    return name + " (" + in.shadowTag + ")";
}

// [SECTION] The kinds of plot

void rowPlot(plot::Context& ctx, const PlotDesc& desc, const PlotInputs& in, const std::vector<int>& joints,
             bool* logScale) {
    const bool error = desc.kind == PlotKind::Error;
    const std::vector<std::string> wanted = splitList(desc.rows);
    const Scene& scene = in.world->scene();
    // Series first (to know the units), then the axes.
    struct Series {
        int joint;
        const char* label;
    };
    std::vector<Series> series;
    std::vector<const char*> labels;
    int linear = 0, angular = 0;
    RowLabelIndex local;
    RowLabelIndex& index = in.rowLabels ? *in.rowLabels : local;
    for (int j : joints) {
        index.labels(*in.telemetry, j, labels);
        for (const char* label : labels) {
            if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), label) == wanted.end()) continue;
            series.push_back({j, label});
            const int a = rowIsAngular(in.world, j, label);
            linear += a == 0, angular += a == 1;
        }
    }
    const bool mixed = (linear > 0) == (angular > 0);
    const char* unit = error ? (mixed     ? "m; rad for angular rows"
                                : angular ? "rad"
                                          : "m")
                             : (mixed     ? "N·s; N·m·s for angular rows"
                                : angular ? "N·m·s"
                                          : "N·s");
    setupTimeAxis(ctx, in);
    plot::SetupAxisY(ctx, error ? "geometric error C" : "accumulated impulse", unit, logScale);
    const Telemetry* other = shadowOf(in);
    std::string name;
    int colour = 0;
    for (const Series& s : series) {
        name = joints.size() > 1 ? scene.joints[s.joint].name + ": " + s.label : std::string(s.label);
        // The live line, then the other run's (dashed, the same colour).
        for (const Telemetry* record : {in.telemetry, other}) {
            if (!record) continue;
            const Telemetry& t = *record;
            if (record == other) plot::SetNextSeriesDashed(ctx);
            plot::PlotLineStreamF(
                ctx, record == other ? shadowName(in, name).c_str() : name.c_str(),
                static_cast<int>(t.size()), t.firstSerial(),
                sourceKey(t, static_cast<uint64_t>(desc.kind), jointKey(scene, s.joint), s.label),
                [&](int i) {
                    const StepSample& frame = t.at(static_cast<size_t>(i));
                    const RowSample* r = findRow(frame, s.joint, s.label);
                    return plot::Point{frame.time, !r      ? kNaN
                                                   : error ? r->result.geometricError
                                                           : r->result.impulse};
                },
                plot::seriesColor(colour));
        }
        ++colour;
    }
}

void loadPlot(plot::Context& ctx, const PlotDesc& desc, const PlotInputs& in, const std::vector<int>& joints,
              bool* logScale) {
    const bool torque = desc.kind == PlotKind::Torque;
    setupTimeAxis(ctx, in);
    plot::SetupAxisY(ctx, torque ? "|torque|" : "|force|", torque ? "N·m" : "N", logScale);
    const Telemetry& t = *in.telemetry;
    const Scene& scene = in.world->scene();
    const int n = static_cast<int>(t.size());
    const size_t k = joints.size();
    // Each series is streamed: the widget keeps it decimated and reads only the steps recorded
    // since the last frame.
    const Telemetry* other = shadowOf(in);
    for (size_t s = 0; s < k; ++s) {
        const int j = joints[s];
        const size_t js = static_cast<size_t>(j);
        for (const Telemetry* record : {&t, other}) {  // the live line, then the other run's, dashed
            if (!record) continue;
            if (record == other) plot::SetNextSeriesDashed(ctx);
            const Telemetry& r = *record;
            plot::PlotLineStreamF(
                ctx,
                record == other ? shadowName(in, scene.joints[js].name).c_str()
                                : scene.joints[js].name.c_str(),
                static_cast<int>(r.size()), r.firstSerial(),
                sourceKey(r, static_cast<uint64_t>(desc.kind), jointKey(scene, j)),
                [&](int i) {
                    const StepSample& frame = r.at(static_cast<size_t>(i));
                    return plot::Point{frame.time, js < frame.joints.size()
                                                       ? glm::length(torque ? frame.joints[js].torque
                                                                            : frame.joints[js].force)
                                                       : kNaN};
                },
                plot::seriesColor(static_cast<int>(s)));
        }
    }
    const bool pull = !torque && plotsMouseSpring(desc, scene);
    if (pull)
        plot::PlotLineStreamF(
            ctx, kMouseSpring, n, t.firstSerial(), sourceKey(t, 100),
            [&](int i) {
                const StepSample& frame = t.at(static_cast<size_t>(i));
                return plot::Point{frame.time, frame.pull.active ? glm::length(frame.pull.force) : kNaN};
            },
            plot::seriesColor(static_cast<int>(k)));
    // Thresholds: one dashed line per value, naming the joint when it is the only one at it.
    char text[160];
    auto thresholdOf = [&](size_t s) {
        const JointDesc& d = scene.joints[static_cast<size_t>(joints[s])];
        return torque ? d.breakTorque : d.breakForce;
    };
    const char* what = torque ? "break torque" : "break force";
    const char* unit = torque ? "N·m" : "N";
    // Usually every joint has the same threshold (or none): one line, found in one pass.
    size_t firstFinite = k, finite = 0;
    bool allSame = true;
    for (size_t s = 0; s < k; ++s) {
        if (!std::isfinite(thresholdOf(s))) continue;
        if (firstFinite == k) firstFinite = s;
        allSame = allSame && thresholdOf(s) == thresholdOf(firstFinite);
        ++finite;
    }
    for (size_t s = firstFinite; s < k; ++s) {
        const Real threshold = thresholdOf(s);
        if (!std::isfinite(threshold)) continue;
        int same = 0;
        bool first = true;
        if (allSame) {
            same = static_cast<int>(finite);
        } else {
            for (size_t o = 0; o < k; ++o) {
                if (thresholdOf(o) != threshold) continue;
                first = first && o >= s;
                ++same;
            }
        }
        if (!first) continue;  // drawn with the first joint at this value
        const std::string& name = scene.joints[static_cast<size_t>(joints[s])].name;
        if (same > 1)
            std::snprintf(text, sizeof text, "%s %.4g %s (%d joints)", what, threshold, unit, same);
        else
            std::snprintf(text, sizeof text, "%s%s%s %.4g %s", what, k > 1 || pull ? " of " : "",
                          k > 1 || pull ? name.c_str() : "", threshold, unit);
        plot::PlotHLine(ctx, text, threshold,
                        same > 1 ? kThresholdColor : plot::seriesColor(static_cast<int>(s)));
        if (allSame) break;
    }
    for (const BreakEvent& e : in.world->breakEvents()) {
        if (std::find(joints.begin(), joints.end(), e.joint) == joints.end()) continue;
        std::snprintf(text, sizeof text, "%s broke", scene.joints[static_cast<size_t>(e.joint)].name.c_str());
        plot::PlotEvent(ctx, text, e.time, kBreakColor);
    }
}

void energyPlot(plot::Context& ctx, const PlotInputs& in, bool* logScale) {
    setupTimeAxis(ctx, in);
    plot::SetupAxisY(ctx, "energy", "J", logScale);
    // The energy of another run does not depend on its joints: drawn whatever they are.
    const Telemetry* other = in.shadow && in.shadow->size() > 0 ? in.shadow : nullptr;
    const char* names[3] = {"kinetic", "potential", "total"};
    for (int q = 0; q < 3; ++q)
        for (const Telemetry* record : {in.telemetry, other}) {  // live, then the other run dashed
            if (!record) continue;
            if (record == other) plot::SetNextSeriesDashed(ctx);
            const Telemetry& t = *record;
            plot::PlotLineStreamF(
                ctx, record == other ? shadowName(in, names[q]).c_str() : names[q],
                static_cast<int>(t.size()), t.firstSerial(), sourceKey(t, 101 + static_cast<uint64_t>(q)),
                [&](int i) {
                    const StepSample& s = t.at(static_cast<size_t>(i));
                    return plot::Point{s.time, q == 0   ? s.kineticEnergy
                                               : q == 1 ? s.potentialEnergy
                                                        : s.kineticEnergy + s.potentialEnergy};
                },
                plot::seriesColor(q));
        }
}

void convergencePlot(plot::Context& ctx, const PlotInputs& in, bool* logScale) {
    const ConvergenceHistory::Curve* curves = in.convergence ? in.convergence->curves : nullptr;
    size_t sweeps = 1;
    if (curves)
        for (int s = 0; s < 2; ++s) sweeps = std::max(sweeps, curves[s].residuals.size());
    plot::SetupAxisX(ctx, "solver sweep", "");
    plot::SetupAxisLimitsX(ctx, 0.75, static_cast<double>(sweeps) + 0.25);
    plot::SetupAxisY(ctx, "residual |Δλ·r|", "m/s", logScale);
    if (!curves) return;
    char name[64];
    for (int s = 0; s < 2; ++s) {
        const ConvergenceHistory::Curve& c = curves[s];
        std::snprintf(name, sizeof name, "%s (step %lld)", s == 0 ? "PGS" : "TGS",
                      static_cast<long long>(c.step));
        plot::PlotLineF(
            ctx,
            s == 0 ? (c.step < 0 ? "PGS (not run yet)" : name) : (c.step < 0 ? "TGS (not run yet)" : name),
            static_cast<int>(c.residuals.size()),
            [&](int i) {
                return plot::Point{i + 1.0, c.residuals[static_cast<size_t>(i)]};
            },
            plot::seriesColor(s));
    }
    const WorldSettings& settings = in.world->scene().settings;
    if (settings.velIters > 0)
        plot::PlotEvent(ctx, "velocity sweeps", settings.posIters + 0.5, IM_COL32(170, 170, 180, 255));
}

/// Projections: per joint, the times it was projected in each step (0 or 1), and with several
/// joints their total over the whole scene, so a flash of the viewport can be found in the run.
void projectionsPlot(plot::Context& ctx, const PlotDesc& desc, const PlotInputs& in,
                     const std::vector<int>& joints, bool* logScale) {
    setupTimeAxis(ctx, in);
    plot::SetupAxisY(ctx, "projections", "per step", logScale);
    const Scene& scene = in.world->scene();
    const Telemetry* other = shadowOf(in);
    auto series = [&](const char* name, int joint, int colour) {
        for (const Telemetry* record : {in.telemetry, other}) {  // live, then the other run dashed
            if (!record) continue;
            if (record == other) plot::SetNextSeriesDashed(ctx);
            const Telemetry& t = *record;
            plot::PlotLineStreamF(
                ctx, record == other ? shadowName(in, name).c_str() : name, static_cast<int>(t.size()),
                t.firstSerial(),
                sourceKey(t, static_cast<uint64_t>(desc.kind), joint < 0 ? -1 : jointKey(scene, joint)),
                [&](int i) {
                    const StepSample& frame = t.at(static_cast<size_t>(i));
                    return plot::Point{frame.time, projectionCount(frame, joint)};
                },
                plot::seriesColor(colour));
        }
    };
    for (size_t s = 0; s < joints.size(); ++s)
        series(scene.joints[static_cast<size_t>(joints[s])].name.c_str(), joints[s], static_cast<int>(s));
    if (joints.size() != 1) series("total (every joint)", -1, static_cast<int>(joints.size()));
}

}  // namespace

/// Names what a streamed series shows, for the plot widget's cache (PlotLineStream): which
/// record, which quantity, which joint and row.
uint64_t sourceKey(const Telemetry& t, uint64_t quantity, int64_t joint, const char* label) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the parts
    auto mix = [&](uint64_t v) {
        for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * 1099511628211ull;
    };
    mix(reinterpret_cast<uintptr_t>(&t));
    mix(quantity);
    mix(static_cast<uint64_t>(joint));
    for (const char* c = label; c && *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
    return h;
}

void setupTimeAxis(plot::Context& ctx, const PlotInputs& in) {
    plot::SetupAxisX(ctx, "time", "s");
    const double now = in.telemetry->size() ? in.telemetry->latest().time : 0.0;
    plot::SetupAxisLimitsX(ctx, std::max(0.0, now - in.windowSeconds), std::max(now, in.windowSeconds));
}

double projectionCount(const StepSample& s, int joint) {
    if (joint >= 0)
        return static_cast<size_t>(joint) < s.joints.size() ? s.joints[static_cast<size_t>(joint)].projections
                                                            : kNaN;
    if (s.joints.empty()) return s.step > 0 ? 0.0 : kNaN;
    double total = 0.0;
    for (const JointSample& j : s.joints) total += j.projections;
    return total;
}

int findReference(const Scene& scene, const std::string& name) {
    for (size_t i = 0; i < scene.references.size(); ++i)
        if (scene.references[i].name == name) return static_cast<int>(i);
    return -1;
}

// [SECTION] Row labels in the window

void RowLabelIndex::labels(const Telemetry& t, int joint, std::vector<const char*>& out) {
    out.clear();
    if (t.size() == 0 || joint < 0) return;
    if (telemetry_ != &t) {
        entries_.clear();
        telemetry_ = &t;
    }
    if (static_cast<size_t>(joint) >= entries_.size()) entries_.resize(static_cast<size_t>(joint) + 1);
    Entry& e = entries_[static_cast<size_t>(joint)];
    const int64_t first = t.firstSerial(), end = first + static_cast<int64_t>(t.size());
    if (e.next < first || e.next > end) {  // steps were missed, or the record started over
        e.seen.clear();
        e.next = first;
    }
    for (; e.next < end; ++e.next)
        for (const RowSample& r : jointRows(t.at(static_cast<size_t>(e.next - first)), joint)) {
            auto s = std::find_if(e.seen.begin(), e.seen.end(),
                                  [&](const auto& l) { return sameLabel(l.first, r.label); });
            if (s == e.seen.end())
                e.seen.emplace_back(r.label, e.next);
            else
                s->second = e.next;
        }
    std::erase_if(e.seen,
                  [&](const auto& l) { return l.second < first; });  // only in steps that left the window
    for (const RowSample& r : jointRows(t.latest(), joint))
        if (std::none_of(out.begin(), out.end(), [&](const char* l) { return sameLabel(l, r.label); }))
            out.push_back(r.label);
    for (const auto& [label, serial] : e.seen)
        if (std::none_of(out.begin(), out.end(), [&](const char* l) { return sameLabel(l, label); }))
            out.push_back(label);
}

std::string plotTitle(const PlotDesc& desc, const Scene& scene, int selectedJoint,
                      const JointNameIndex* names, int selectedBody) {
    if (!desc.title.empty()) return desc.title;
    std::string title = kindTitle(desc.kind);
    if (desc.kind == PlotKind::Reference) {
        const int r = findReference(scene, desc.reference);
        return r < 0 ? title + " \u2014 no reference named \"" + desc.reference + "\""
                     : title + " \u2014 " + desc.reference;
    }
    if (desc.kind == PlotKind::Contact) {
        std::vector<int> bodies;
        std::string missing;
        plotBodies(desc, scene, selectedBody, bodies, &missing);
        for (size_t i = 0; i < bodies.size(); ++i)
            title += (i == 0 ? " \u2014 " : ", ") + scene.bodies[static_cast<size_t>(bodies[i])].name;
        if (desc.bodies.empty()) title += bodies.empty() ? " \u2014 select a body" : " (selected)";
        if (!missing.empty()) title += "; no body named " + missing;
        return title;
    }
    if (!usesJoints(desc.kind)) return title;
    std::vector<int> joints;
    std::string missing;
    plotJoints(desc, scene, selectedJoint, joints, &missing, names);
    if (desc.kind == PlotKind::Projections && joints.empty() && missing.empty())
        return title + " \u2014 total over every joint";
    const bool pull = plotsMouseSpring(desc, scene);
    if (pull && joints.empty() && missing.empty()) return "Mouse spring force";
    title += " \u2014 ";
    constexpr size_t kNamed = 4;  // a long list says how many more rather than running on
    for (size_t k = 0; k < joints.size() && k < kNamed; ++k) {
        if (k) title += ", ";
        title += scene.joints[static_cast<size_t>(joints[k])].name;
    }
    if (joints.size() > kNamed) title += " and " + std::to_string(joints.size() - kNamed) + " more";
    if (pull) title += std::string(joints.empty() ? "" : ", ") + kMouseSpring;
    // A scene without joints (a box stack) has none to select: say so rather than ask for one.
    if (desc.joints.empty())
        title += !joints.empty()        ? " (selected)"
                 : scene.joints.empty() ? "no joints in this scene"
                                        : "select a joint";
    if (!missing.empty()) title += (joints.empty() ? "no joint named " : "; no joint named ") + missing;
    return title;
}

/// Contact plots: for each body, |net force of its contacts| per step, and its weight m·g dashed
/// (what the contacts carry when it rests on them).
void contactPlot(plot::Context& ctx, const PlotInputs& in, const std::vector<int>& bodies, bool* logScale) {
    setupTimeAxis(ctx, in);
    plot::SetupAxisY(ctx, "|force|", "N", logScale);
    const Telemetry& t = *in.telemetry;
    const Scene& scene = in.world->scene();
    const Real g = glm::length(scene.settings.gravity);
    for (size_t s = 0; s < bodies.size(); ++s) {
        const size_t b = static_cast<size_t>(bodies[s]);
        uint64_t key = 1469598103934665603ull;  // the body's name: its line survives edits
        for (char c : scene.bodies[b].name) key = (key ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        plot::PlotLineStreamF(
            ctx, scene.bodies[b].name.c_str(), static_cast<int>(t.size()), t.firstSerial(),
            sourceKey(t, static_cast<uint64_t>(PlotKind::Contact), static_cast<int64_t>(key)),
            [&](int i) {
                const StepSample& frame = t.at(static_cast<size_t>(i));
                return plot::Point{frame.time,
                                   b < frame.contactForces.size()
                                       ? glm::length(frame.contactForces[b])
                                       : (frame.contactForces.empty() && frame.step > 0 ? 0.0 : kNaN)};
            },
            plot::seriesColor(static_cast<int>(s)));
        // The World's mass (found once when it was built), not the shape's again every frame: a
        // compound of hulls would compute each hull anew.
        const Real invMass = in.world->inverseMass(static_cast<int>(b));
        const Real weight = invMass > 0.0 ? g / invMass : 0.0;
        if (bodies.size() == 1 && scene.bodies[b].motion == MotionType::Dynamic && weight > 0.0) {
            char text[96];
            std::snprintf(text, sizeof text, "m·g = %.4g N", weight);
            plot::PlotHLine(ctx, text, weight, IM_COL32(200, 200, 200, 160));
        }
    }
}

// [SECTION] Drawing

bool drawTelemetryPlot(plot::Context& ctx, const char* id, const PlotDesc& desc, const PlotInputs& in,
                       const ImVec2& size, bool* logScale) {
    if (!in.telemetry || !in.world) return false;
    const Scene& scene = in.world->scene();
    std::string title = plotTitle(desc, scene, in.selectedJoint, in.jointNames, in.selectedBody);
    // Nothing to plot from MuJoCo: the title says why, first, so a narrow plot still shows it.
    if ((desc.kind == PlotKind::Mujoco || desc.kind == PlotKind::Divergence) && desc.title.empty() &&
        (!in.mujoco || !in.mujoco->status.empty()))
        title = std::string(kindTitle(desc.kind)) + ": " +
                (in.mujoco ? in.mujoco->status : "no MuJoCo reference");
    title += std::string("##") + id;
    // The convergence plot's x is the solver sweep: a whole number.
    const plot::PlotFlags flags =
        in.flags | (desc.kind == PlotKind::Convergence ? plot::PlotFlags_IntegerX : 0);
    if (!plot::BeginPlot(ctx, title.c_str(), size, flags)) return false;
    std::vector<int> joints;
    plotJoints(desc, scene, in.selectedJoint, joints, nullptr, in.jointNames);
    switch (desc.kind) {
        case PlotKind::Impulse:
        case PlotKind::Error:
            rowPlot(ctx, desc, in, joints, logScale);
            break;
        case PlotKind::Force:
        case PlotKind::Torque:
            loadPlot(ctx, desc, in, joints, logScale);
            break;
        case PlotKind::Energy:
            energyPlot(ctx, in, logScale);
            break;
        case PlotKind::Convergence:
            convergencePlot(ctx, in, logScale);
            break;
        case PlotKind::Reference:
            referencePlot(ctx, desc, in, logScale);
            break;
        case PlotKind::Contact: {
            std::vector<int> bodies;
            plotBodies(desc, scene, in.selectedBody, bodies);
            contactPlot(ctx, in, bodies, logScale);
            break;
        }
        case PlotKind::Projections:
            projectionsPlot(ctx, desc, in, joints, logScale);
            break;
        case PlotKind::Mujoco:
            mujocoPlot(ctx, in, joints, logScale);
            break;
        case PlotKind::Divergence:
            divergencePlot(ctx, in, logScale);
            break;
    }
    // Gone back in the run (the timeline): a cursor at the step shown, over the recorded window.
    if (desc.kind != PlotKind::Convergence && in.telemetry->size() > 0 &&
        in.world->stepCount() < in.telemetry->latest().step) {
        const std::string label = "step " + std::to_string(in.world->stepCount());
        plot::PlotEvent(ctx, label.c_str(), in.world->time(), IM_COL32(240, 200, 90, 255));
    }
    plot::EndPlot(ctx);
    return true;
}

}  // namespace jl::app
