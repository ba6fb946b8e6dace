// The equation of a row, with numbers (the right half of the Step tab): for the stepper's current
// row, or else the selected joint's chosen row, the formulas the solver uses with their live
// values and the reference's equation number beside each (F: physx-1d-constraint-formulation.md,
// D: physx-implicit-spring-drives.md, M: physx-mimic-joints.md). The numbers come from the
// solver's own set-up of the row (World::rowEquation); nothing here computes them a second way.
//
// Which step: while stepping, the step being stepped through; paused, the step about to be taken
// (recorded once, StepperState::preview, so an edit shows at once); running, the last step.
#include <imgui.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <variant>

#include "jointlab/row_equation.h"
#include "panels/inside_panels.h"
#include "panels/panels.h"
#include "panels/plots_panels.h"

namespace jl::app {

namespace {

const ImVec4 kEqNumber{0.55f, 0.75f, 1.0f, 1.0f};
const ImVec4 kVisitText{0.6f, 0.9f, 1.0f, 1.0f};

/// A line of the equation table: the reference, the formula with numbers; what it is on hover.
void line(const char* what, const std::string& formula, const char* ref) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextColored(kEqNumber, "%s", ref);
    ImGui::TableSetColumnIndex(1);
    ImGui::TextUnformatted(formula.c_str());
    if (*what && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", what);
}

std::string fmt(const char* format, ...) IM_FMTARGS(1);
std::string fmt(const char* format, ...) {
    char buf[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    return buf;
}

std::string vec(const Vec3& v) {
    auto c = [&](double x) { return std::abs(x) < 1e-12 ? 0.0 : x; };
    return fmt("(%.4g, %.4g, %.4g)", c(v.x), c(v.y), c(v.z));
}

std::string bound(Real v) {
    return std::isinf(v) ? (v > 0 ? "inf" : "\u2212inf") : fmt("%.5g", v);
}

/// The world whose rows are shown and whether it is the step about to be taken.
const World* shownWorld(AppState& state, const char*& when) {
    StepperState& st = state.stepper;
    if (st.inspector) {
        when = "inside the step being taken";
        return &st.inspector->stepped();
    }
    const World* live = state.sim.world();
    if (!live) return nullptr;
    if (!state.sim.clock.playing) {
        if (!st.preview || st.previewStep != live->stepCount() ||
            st.previewRevision != state.sim.sceneRevision()) {
            std::string why;
            st.preview = state.sim.inspectNextStep(why);
            st.previewStep = live->stepCount();
            st.previewRevision = state.sim.sceneRevision();
        }
        if (st.preview) {
            when = "the step about to be taken";
            return &st.preview->stepped();
        }
    }
    st.preview.reset();
    when = "the last step";
    return live;
}

void couplingTerms(const JointDesc& d, const RowEquation& e) {
    if (const GearJoint* g = std::get_if<GearJoint>(&d.params)) {
        line("coupling", fmt("C = q0 + G\u00b7q1 + \u03b3,  G = %.5g, \u03b3 = %.5g", g->ratio, g->offset),
             "M 3");
        line("",
             fmt("J = {1, G} on (q0, q1): \u03ba1 = G\u00b7x_B, K = r_AA + G\u00b2\u00b7r_BB = %.6g", e.K),
             "M 7, 15");
    } else if (const RackPinionJoint* r = std::get_if<RackPinionJoint>(&d.params)) {
        line("coupling",
             fmt("C = \u2212ratio\u00b7\u03b8_A + x_B \u2212 offset,  ratio = %.5g m/rad, offset = %.5g m",
                 r->ratio, r->offset),
             "M 3");
    } else {
        line("coupling", "C and J from the two bodies' coordinates (the joint type's description)", "M 3");
    }
}

void equationTable(const World& w, int joint, const RowEquation& e) {
    const JointDesc& d = w.scene().joints[static_cast<size_t>(joint)];
    const Row& r = e.row;
    const bool angular = r.flags & kRowAngular;
    const char* cu = angular ? "rad" : "m";
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable("##eq", 2, flags)) return;
    ImGui::TableSetupColumn("eq.");
    ImGui::TableSetupColumn("formula");
    line("error", fmt("C = %.6g %s", r.geometricError, cu), "F 8, 26");
    if (d.typeInfo().isCoupling) couplingTerms(d, e);
    line("Jacobian", fmt("\u03bc0 = %s  \u03ba0 = %s", vec(r.linear0).c_str(), vec(r.angular0).c_str()),
         "F 45\u201347");
    line("", fmt("\u2212\u03bc1 = %s  \u2212\u03ba1 = %s", vec(r.linear1).c_str(), vec(r.angular1).c_str()),
         "F 48\u201349");
    line("the row's velocity before the constraints act (after the step's forces)",
         "J\u00b7v_pre = \u03bc0\u00b7v0 + \u03ba0\u00b7\u03c90 \u2212 \u03bc1\u00b7v1 \u2212 "
         "\u03ba1\u00b7\u03c91",
         "F 18, 50");
    line("", fmt("  = %.6g", e.vPre), "");
    line("response",
         fmt("K = m0\u207b\u00b9|\u03bc0|\u00b2 + \u03ba0\u00b7I0\u207b\u00b9\u03ba0 + "
             "m1\u207b\u00b9|\u03bc1|\u00b2 + "
             "\u03ba1\u00b7I1\u207b\u00b9\u03ba1"),
         "F 21, 31");
    line("the four terms of K",
         fmt("  = %.4g + %.4g + %.4g + %.4g = %.6g", e.kTerms[0], e.kTerms[1], e.kTerms[2], e.kTerms[3], e.K),
         "F 21");
    line("the inverse masses as the joint sees them (its mass scales included)",
         fmt("  m0\u207b\u00b9 = %.4g, m1\u207b\u00b9 = %.4g 1/kg", e.invMass0, e.invMass1), "");
    if (!e.active) {
        line("dropped", fmt("K = %.3g is under the solver's threshold: the row does nothing", e.K), "");
        ImGui::EndTable();
        return;
    }
    if (e.spring) {
        const char* ku = e.accelerationSpring ? "1/s\u00b2" : (angular ? "N\u00b7m/rad" : "N/m");
        const char* cuD = e.accelerationSpring ? "1/s" : (angular ? "N\u00b7m\u00b7s/rad" : "N\u00b7s/m");
        line("spring",
             fmt("k = %.6g %s, c = %.6g %s, v_T = %.5g, h = %.5g s", e.stiffness, ku, e.damping, cuD,
                 e.velTarget, e.h),
             e.accelerationSpring ? "D 25\u201326" : "D 9");
        line("", "a = h(h\u00b7k + c)", "D 13");
        line("", fmt("  = %.5g\u00d7(%.5g\u00d7%.5g + %.5g) = %.6g", e.h, e.h, e.stiffness, e.damping, e.a),
             "");
        if (e.accelerationSpring) {
            line("", fmt("x = 1/(a + 1) = %.6g", e.x), "D 32");
        } else {
            line("", "x = 1/(a\u00b7K + 1)", "D 15");
            line("", fmt("  = 1/(%.5g\u00d7%.5g + 1) = %.6g", e.a, e.K, e.x), "");
        }
        line("update", "\u03bb' = constant + vMul\u00b7J\u00b7\u0394v + impulseMul\u00b7\u03bb",
             "D 17\u201319");
        line("",
             fmt("constant = x%s(h\u00b7c\u00b7v_T \u2212 h\u00b7k\u00b7C \u2212 a\u00b7J\u00b7v_pre)",
                 e.accelerationSpring ? "/K" : ""),
             e.accelerationSpring ? "D 35" : "D 20");
        line("", fmt("  = %.6g", e.constant), "");
        line("", fmt("vMul = \u2212x\u00b7a%s = %.6g", e.accelerationSpring ? "/K" : "", e.vMul),
             e.accelerationSpring ? "D 36" : "D 21");
        line("", fmt("impulseMul = 1 \u2212 x = %.6g", e.impulseMul), e.accelerationSpring ? "D 37" : "D 22");
    } else {
        const double alphaShown = e.erp;
        if (e.bounce) {
            line("bounce",
                 fmt("v_T = \u2212e\u00b7J\u00b7v_pre = %.6g (restitution replaces the bias)", e.velTarget),
                 "guide");
        } else {
            line("the Baumgarte bias: the velocity that removes a share \u03b1 of the error per step",
                 "b = \u03b1\u00b7C/h", "F 11");
            line("", fmt("  = %.4g \u00d7 %.5g / %.5g = %.6g", alphaShown, r.geometricError, e.h, e.bias),
                 "");
        }
        line("target", fmt("J\u00b7v + b = v_T = %.6g", e.velTarget), "F 13");
        line("update", "\u03bb' = constant + vMul\u00b7J\u00b7\u0394v + impulseMul\u00b7\u03bb", "F 23, 64");
        line("", "constant = \u2212(b \u2212 v_T + J\u00b7v_pre)/K", "F 65");
        line("",
             fmt("  = \u2212(%.5g \u2212 %.5g + %.5g)/%.5g = %.6g", e.bias, e.velTarget, e.vPre, e.K,
                 e.constant),
             "");
        line("", fmt("vMul = \u22121/K = %.6g,  impulseMul = 1", e.vMul), "F 63");
        line("velocity its.",
             fmt("constant = %.6g (%s)", e.unbiasedConstant,
                 e.keepBias ? "keeps its bias" : "no bias: \u2212(\u2212v_T + J\u00b7v_pre)/K"),
             "F 25");
    }
    const bool forces = (r.flags & kRowHasDriveLimit) && (r.flags & kRowDriveLimitsAreForces);
    const bool finite = std::isfinite(e.minImpulse) || std::isfinite(e.maxImpulse);
    line("the accumulated impulse stays within the row's bounds",
         fmt("\u03bb' in [%s, %s]%s", bound(e.minImpulse).c_str(), bound(e.maxImpulse).c_str(),
             forces && finite ? fmt(" = force limit \u00d7 dt (%.5g s)", e.dt).c_str() : ""),
         "F 64");
    if (e.blockSize > 0)
        line("block",
             fmt("row %d of %d solved at once, K row = (%.5g, %.5g, %.5g): \u0394\u03bb = "
                 "K\u207b\u00b9(\u2212(J\u00b7v + b \u2212 v_T))",
                 e.blockIndex + 1, e.blockSize, e.blockK[0], e.blockK[1], e.blockK[2]),
             "block.h");
    line("result", fmt("\u03bb at the end of the step = %.6g", e.impulse), "F 24");
    ImGui::EndTable();
}

}  // namespace

void drawRowEquation(AppState& state, UiRequests&) {
    const char* when = "";
    const World* w = shownWorld(state, when);
    if (!w) return;
    int joint = selectedJointIndex(state);
    int row = state.equationRow;
    const StepInspector::Visit* visit = nullptr;
    if (const StepInspector* ins = state.stepper.inspector.get(); ins && ins->current()) {
        visit = &ins->visits()[ins->current()->first];
        joint = visit->joint;
        row = visit->row;
        if (joint < 0) {
            ImGui::TextDisabled("A ground contact row: its normal and friction rows have no joint to show.");
            return;
        }
    }
    if (joint < 0 || static_cast<size_t>(joint) >= w->scene().joints.size()) {
        ImGui::TextDisabled("Select a joint to see the equation of one of its rows, or step inside a step.");
        return;
    }
    const auto rows = w->jointRows(joint);
    if (rows.empty()) {
        ImGui::TextDisabled("The joint has no rows in %s (broken, or no step yet).", when);
        return;
    }
    if (row < 0 || static_cast<size_t>(row) >= rows.size()) row = 0;
    const JointDesc& d = w->scene().joints[static_cast<size_t>(joint)];
    ImGui::AlignTextToFramePadding();
    ImGui::Text("%s (%s), %s:", d.name.c_str(), d.typeInfo().name, when);
    if (visit) {
        ImGui::Text("row %d %s", row, rows[static_cast<size_t>(row)].label);
    } else {
        ImGui::SetNextItemWidth(px(200.0f));
        const std::string preview = std::to_string(row) + " " + rows[static_cast<size_t>(row)].label;
        if (ImGui::BeginCombo("##eq row", preview.c_str())) {
            for (size_t k = 0; k < rows.size(); ++k) {
                const std::string item = std::to_string(k) + " " + rows[k].label;
                if (ImGui::Selectable(item.c_str(), static_cast<int>(k) == row))
                    state.equationRow = static_cast<int>(k);
            }
            ImGui::EndCombo();
        }
    }
    RowEquation e;
    if (!w->rowEquation(joint, row, e)) return;
    if (visit) {
        const StepInspector::Visit* v = currentVisitOf(state, joint, row);
        if (v) {
            ImGui::PushStyleColor(ImGuiCol_Text, kVisitText);
            ImGui::TextWrapped(
                "this visit (%s): C = %.5g, J\u00b7v = %.5g, K = %.5g, b = %.5g, \u03bb %.5g \u2192 %.5g%s",
                sweepName(*v, w->scene().settings).c_str(), v->C, v->jv, v->K, v->bias, v->lambdaBefore,
                v->lambdaAfter, v->clamped ? " CLAMPED" : "");
            ImGui::PopStyleColor();
        }
    }
    equationTable(*w, joint, e);
}

}  // namespace jl::app
