// Drive tuner tab: the selected joint's drive as a second-order system (jointlab/drive_tuning.h).
// Its natural frequency ω_n = √(k/m_eff) and damping ratio ζ = c/(2√(k·m_eff)), with m_eff the
// effective mass or inertia its coordinate moves (the joint's other rows held), editable in those
// terms: setting ω_n and ζ sets the drive's stiffness and damping through the editor (undoable).
// Below, the drive error's step response from the state now: simulated (a copy of the world
// stepped on), the implicit-Euler recurrence the solver runs, and the continuous solution.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "editor/field_access.h"
#include "jointlab/drive_tuning.h"
#include "jointlab/row_equation.h"
#include "panels/inside_panels.h"
#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "plot/plot.h"

namespace jl::app {

namespace {

/// The field prefix of the Drive that writes a drive row ("drive", "driveTwist", …), or "".
std::string drivePrefix(const JointDesc& d, const std::string& label) {
    if (std::holds_alternative<RevoluteJoint>(d.params) || std::holds_alternative<PrismaticJoint>(d.params))
        return "drive";
    if (!std::holds_alternative<D6Joint>(d.params)) return "";
    if (label == "X drive") return "driveX";
    if (label == "Y drive") return "driveY";
    if (label == "Z drive") return "driveZ";
    if (label == "twist drive") return "driveTwist";
    if (label.rfind("swing", 0) == 0) return "driveSwing";
    if (label.rfind("SLERP", 0) == 0) return "driveSlerp";
    return "";
}

Real realField(const Scene& scene, const std::string& joint, const std::string& name) {
    const auto f = findField(scene, FieldOwner::joint(joint), name);
    return f && std::holds_alternative<Real>(f->value) ? std::get<Real>(f->value) : 0.0;
}
bool boolField(const Scene& scene, const std::string& joint, const std::string& name) {
    const auto f = findField(scene, FieldOwner::joint(joint), name);
    return f && std::holds_alternative<bool>(f->value) && std::get<bool>(f->value);
}

int rowByLabel(std::span<const Row> rows, const std::string& label) {
    for (size_t k = 0; k < rows.size(); ++k)
        if (label == rows[k].label) return static_cast<int>(k);
    return -1;
}

/// Steps a copy of `live` on and records the drive row's error C before each step, long enough
/// for three periods of the drive (1 to 10 s).
void measure(const World& live, int joint, const std::string& label, Real k, DriveTunerState& t) {
    t.simulated.clear();
    t.mEff = 0.0;
    std::unique_ptr<World> sim = StepInspector::clone(live);
    const WorldSettings& s = sim->scene().settings;
    t.dt = s.dt;
    t.substeps = s.solver == SolverType::TGS ? s.posIters : 1;
    int steps = static_cast<int>(std::lround(3.0 / s.dt));
    for (int i = 0; i < steps; ++i) {
        sim->step();
        if (sim->divergence()) break;
        const int row = rowByLabel(sim->jointRows(joint), label);
        if (row < 0) break;  // a limit took over, the joint broke
        const Row& r = sim->jointRows(joint)[static_cast<size_t>(row)];
        t.simulated.push_back(r.geometricError);
        if (i > 0) continue;
        t.mEff = driveEffectiveMass(*sim, joint, row);  // acceleration drives: K/K_eff
        RowEquation e;
        if (sim->rowEquation(joint, row, e)) t.vT = e.velTarget;
        // ė0 = J·v with the velocities now (before this step's forces).
        auto vel = [&](int b, Vec3& v, Vec3& w) {
            v = w = Vec3(0.0);
            if (b < 0) return;
            v = live.bodies()[static_cast<size_t>(b)].linearVelocity;
            w = live.bodies()[static_cast<size_t>(b)].angularVelocity;
        };
        Vec3 v0, w0, v1, w1;
        vel(live.jointBody0(joint), v0, w0);
        vel(live.jointBody1(joint), v1, w1);
        t.de0 = glm::dot(r.linear0, v0) + glm::dot(r.angular0, w0) - glm::dot(r.linear1, v1) -
                glm::dot(r.angular1, w1);
        if (t.mEff > 0.0 && k > 0.0) {
            const Real period = 2.0 * kPi / std::sqrt(k / t.mEff);
            steps = static_cast<int>(std::lround(std::clamp(3.0 * period, 1.0, 10.0) / s.dt));
        }
    }
    if (!t.simulated.empty()) t.e0 = t.simulated.front();
}

/// One gain as an edit; both gains of a drag share one coalescing key, so one drag of ω_n or ζ is
/// one undo step (the editor merges consecutive commands with the same key).
void gainEdit(UiRequests& requests, const std::string& joint, const std::string& prefix, const char* gain,
              Real value) {
    Command c = setField(FieldOwner::joint(joint), prefix + "." + gain, value);
    c.coalesceKey = "tune " + joint + " " + prefix;
    c.label = "tune '" + joint + "' " + prefix + ": \u03c9_n, \u03b6";
    requests.commands.push_back(std::move(c));
}

}  // namespace

void drawDriveTunerTab(AppState& state, UiRequests& requests) {
    const World* live = state.sim.world();
    const int joint = selectedJointIndex(state);
    if (!live || joint < 0 || static_cast<size_t>(joint) >= live->scene().joints.size()) {
        ImGui::TextDisabled("Select a joint with a drive (a revolute, prismatic or D6 joint) to tune it.");
        return;
    }
    const JointDesc& d = live->scene().joints[static_cast<size_t>(joint)];
    std::vector<std::string> drives;
    for (const Row& r : live->jointRows(joint))
        if ((r.flags & kRowSpring) && !drivePrefix(d, r.label).empty()) drives.emplace_back(r.label);
    if (drives.empty()) {
        ImGui::TextDisabled(
            "'%s' has no drive row in the last step: enable its drive (Inspector), then step.",
            d.name.c_str());
        return;
    }
    DriveTunerState& t = state.tuner;
    t.pick = std::clamp(t.pick, 0, static_cast<int>(drives.size()) - 1);
    const std::string& label = drives[static_cast<size_t>(t.pick)];
    const std::string prefix = drivePrefix(d, label);
    const Scene& scene = state.sim.scene();
    const Real k = realField(scene, d.name, prefix + ".stiffness");
    const Real c = realField(scene, d.name, prefix + ".damping");
    const bool acceleration = boolField(scene, d.name, prefix + ".acceleration");

    if (t.joint != d.name || t.rowLabel != label || t.revision != state.sim.sceneRevision() ||
        (t.step != live->stepCount() && !state.sim.clock.playing)) {
        measure(*live, joint, label, k, t);
        t.joint = d.name;
        t.rowLabel = label;
        t.revision = state.sim.sceneRevision();
        t.step = live->stepCount();
    }

    ImGui::AlignTextToFramePadding();
    ImGui::Text("%s:", d.name.c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(px(150.0f));
    if (ImGui::BeginCombo("##drive", label.c_str())) {
        for (size_t i = 0; i < drives.size(); ++i)
            if (ImGui::Selectable(drives[i].c_str(), static_cast<int>(i) == t.pick))
                t.pick = static_cast<int>(i);
        ImGui::EndCombo();
    }
    const bool angular = std::holds_alternative<RevoluteJoint>(d.params) ||
                         label.find("twist") != std::string::npos ||
                         label.find("swing") != std::string::npos || label.find("SLERP") != std::string::npos;
    ImGui::SameLine();
    if (t.mEff <= 0.0) {
        ImGui::TextDisabled("cannot measure its effective mass (it does not move)");
        return;
    }
    // That m_eff holds the joint's other rows is the help marker's to say: on this line it pushed
    // the line and the marker past the dock's edge at 1280x720.
    wrappedText("k = %.5g, c = %.5g, m_eff = %.5g %s", k, c, t.mEff,
                acceleration ? "(acceleration drive: K/K_eff, 1 without a lever)"
                             : (angular ? "kg\u00b7m\u00b2" : "kg"));
    helpMarker(
        "m_eff \u00b7 \u00eb = \u2212k\u00b7e + c\u00b7(v_T \u2212 \u0117), e the drive row's error C.\n"
        "\u03c9_n = \u221a(k/m_eff), \u03b6 = c/(2\u221a(k\u00b7m_eff)); k = m_eff\u00b7\u03c9_n\u00b2, c = "
        "2\u03b6\u00b7m_eff\u00b7\u03c9_n.\n"
        "m_eff = 1/K_eff: the drive row's unit response once the joint's other equality rows hold\n"
        "(a hinge on a body hung off its centre: I_axis + m\u00b7r\u00b2).\n"
        "Acceleration drives divide their impulse by the drive row's own K, so m_eff = K/K_eff:\n"
        "1 (\u03c9_n = \u221ak) when nothing couples to the drive row, more when it has a lever.");

    const DriveModes m = driveModes(k, c, t.mEff);
    float omega = static_cast<float>(m.omegaN),
          zeta = static_cast<float>(std::isfinite(m.zeta) ? m.zeta : 0.0);
    ImGui::SetNextItemWidth(px(170.0f));
    bool changed =
        ImGui::DragFloat("\u03c9_n [rad/s]", &omega, std::max(0.01f, omega * 0.01f), 0.0f, 1e4f, "%.4g");
    if (ImGui::IsItemDeactivated()) requests.endCoalescing = true;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(px(140.0f));
    changed |= ImGui::DragFloat("\u03b6", &zeta, 0.005f, 0.0f, 50.0f, "%.3f");
    if (ImGui::IsItemDeactivated()) requests.endCoalescing = true;
    if (changed) {
        const DriveGains g = driveGains(omega, zeta, t.mEff);
        gainEdit(requests, d.name, prefix, "stiffness", g.stiffness);
        gainEdit(requests, d.name, prefix, "damping", g.damping);
    }
    const Real h = t.dt / t.substeps;
    ImGui::SameLine();
    wrappedText("f_n = %.3g Hz, \u03c9_n\u00b7h = %.3g%s", m.omegaN / (2.0 * kPi), m.omegaN * h,
                m.omegaN * h > 0.5 ? ": implicit Euler lags and damps visibly" : "");

    if (t.simulated.size() < 2) return;
    DriveResponseInput in;
    in.e0 = t.e0;
    in.de0 = t.de0;
    in.vT = t.vT;
    in.stiffness = k;
    in.damping = c;
    in.mEff = t.mEff;
    in.dt = t.dt;
    in.substeps = t.substeps;
    in.steps = static_cast<int>(t.simulated.size()) - 1;
    const std::vector<Real> implicit = driveResponseImplicit(in), continuous = driveResponseContinuous(in);
    Real gap = 0.0;
    for (size_t i = 0; i < t.simulated.size(); ++i)
        gap = std::max(gap, std::abs(t.simulated[i] - implicit[i]));
    wrappedText("from step %lld: max |simulated \u2212 implicit Euler| = %.3g %s",
                static_cast<long long>(t.step), gap, angular ? "rad" : "m");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "0 to rounding for one body on a drive from the world; otherwise what the rest of the scene\n"
            "(gravity, other joints, limits) adds to the drive's own motion");
    plot::Context& ctx = state.plotsPanel.plots.context();
    if (plot::BeginPlot(ctx, "drive error step response##tuner", ImVec2(-1, -1))) {
        plot::SetupAxisX(ctx, "time", "s");
        plot::SetupAxisY(ctx, "drive error C", angular ? "rad" : "m");
        const int n = static_cast<int>(t.simulated.size());
        const double dt = t.dt;
        plot::PlotLineF(
            ctx, "simulated", n,
            [&](int i) {
                return plot::Point{i * dt, t.simulated[static_cast<size_t>(i)]};
            },
            plot::seriesColor(0));
        plot::PlotLineF(
            ctx, "implicit Euler (the solver's recurrence)", n,
            [&](int i) {
                return plot::Point{i * dt, implicit[static_cast<size_t>(i)]};
            },
            plot::seriesColor(1));
        plot::PlotLineF(
            ctx, "continuous", n,
            [&](int i) {
                return plot::Point{i * dt, continuous[static_cast<size_t>(i)]};
            },
            plot::seriesColor(2));
        plot::EndPlot(ctx);
    }
}

}  // namespace jl::app
