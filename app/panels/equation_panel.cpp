// The equation of a row, with numbers (the right half of the Step tab): for the stepper's current
// row, or else the selected joint's chosen row, the formulas the solver uses with their live
// values and the reference's equation number beside each (F: physx-1d-constraint-formulation.md,
// D: physx-implicit-spring-drives.md, M: physx-mimic-joints.md). The numbers come from the
// solver's own set-up of the row (World::rowEquation; contact rows: World::contactRowEquation, for
// the stepper's contact row or the selected body's chosen contact row); nothing here computes them
// a second way.
//
// Which step: while stepping, the step being stepped through; paused, the step about to be taken
// (recorded once, StepperState::preview, so an edit shows at once); running, the last step.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "jointlab/row_equation.h"
#include "panels/inside_panels.h"
#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "render/joint_frames.h"
#include "session/row_table.h"

namespace jl::app {

namespace {

const ImVec4 kEqNumber{0.55f, 0.75f, 1.0f, 1.0f};
const ImVec4 kVisitText{0.6f, 0.9f, 1.0f, 1.0f};

/// A line of the equation table: the reference, the formula with numbers; what it is on hover.
struct EqLine {
    std::string what, formula, ref;
};
std::vector<EqLine> gLines;  // the table being built (line), then drawn (drawLines)

void line(const char* what, const std::string& formula, const char* ref) {
    gLines.push_back({what, formula, ref});
}

/// Draws the lines collected: one column of (reference, formula), or, when they would not fit
/// the height left and the panel is wide enough, two side by side (the first half, then the
/// second), so that at 1280x720 the whole equation shows without scrolling. Formulas wrap.
void drawLines() {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int n = static_cast<int>(gLines.size());
    const bool two = n * rowHeight > avail.y && avail.x >= px(560.0f);
    const int rows = two ? (n + 1) / 2 : n;
    const ImGuiTableFlags flags =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable("##eq", two ? 4 : 2, flags)) return;
    for (int c = 0; c < (two ? 2 : 1); ++c) {
        ImGui::TableSetupColumn(c ? "eq.##2" : "eq.", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn(c ? "formula##2" : "formula", ImGuiTableColumnFlags_WidthStretch);
    }
    auto cell = [&](int column, const EqLine& l) {
        ImGui::TableSetColumnIndex(column);
        ImGui::TextColored(kEqNumber, "%s", l.ref.c_str());
        ImGui::TableSetColumnIndex(column + 1);
        ImGui::PushTextWrapPos(0.0f);  // at the cell's edge, whatever the caller wraps at
        wrappedTextUnformatted(l.formula);
        ImGui::PopTextWrapPos();
        if (!l.what.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", l.what.c_str());
    };
    for (int i = 0; i < rows; ++i) {
        ImGui::TableNextRow();
        cell(0, gLines[static_cast<size_t>(i)]);
        if (two && i + rows < n) cell(2, gLines[static_cast<size_t>(i + rows)]);
    }
    ImGui::EndTable();
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

/// A pulley's terms (jointlab/joints/pulley.h): the two rope lengths from the joint origins p0, p1
/// to the fixed points, at the poses the step started from (`start`), and C, the rope directions,
/// J and K per body. The directions, J and K are the row's own (n0 = −μ0, n1 = μ1/ratio).
void pulleyTerms(const Scene& scene, const JointDesc& d, const PulleyJoint& pl, const RowEquation& e,
                 std::span<const BodyState> start, const char* poses) {
    const JointWorldFrames f = jointWorldFrames(scene, start, d);
    const Real l0 = glm::length(f.a.p - pl.anchor0), l1 = glm::length(f.b.p - pl.anchor1);
    line("the rope: from p0 over anchor0 and anchor1 down to p1",
         fmt("l0 = |p0 \u2212 a0| = %.6g m, l1 = |p1 \u2212 a1| = %.6g m (%s)", l0, l1, poses), "pulley.h");
    line("C \u2265 0: slack; C < 0: the rope is stretched",
         fmt("C = length \u2212 l0 \u2212 ratio\u00b7l1 = %.5g \u2212 %.6g \u2212 %.4g\u00d7%.6g = %.6g m",
             pl.length, l0, pl.ratio, l1, pl.length - l0 - pl.ratio * l1),
         "pulley.h");
    const Real r = pl.ratio;
    line("the rope's directions, from the fixed points to the bodies",
         fmt("n0 = %s, n1 = %s", vec(-e.row.linear0).c_str(), vec(e.row.linear1 / r).c_str()), "pulley.h");
    line("body 0 is pulled towards a0 by \u03bb, body 1 towards a1 by ratio\u00b7\u03bb",
         "J: body 0 \u2212n0, \u2212(r0\u00d7n0);  body 1 \u2212ratio\u00b7n1, \u2212ratio\u00b7(r1\u00d7n1)",
         "pulley.h");
    const Real rA = e.kTerms[0] + e.kTerms[1], rB = (e.kTerms[2] + e.kTerms[3]) / (r * r);
    line("each side's response along its rope, the second weighted by ratio\u00b2",
         fmt("K = r_A + ratio\u00b2\u00b7r_B = %.5g + %.4g\u00b2\u00d7%.5g = %.6g", rA, r, rB, e.K), "F 21");
}

void couplingTerms(const World& w, const JointDesc& d, const RowEquation& e, std::span<const BodyState> start,
                   const char* poses) {
    if (const GearJoint* g = std::get_if<GearJoint>(&d.params)) {
        line("coupling", fmt("C = q0 + G\u00b7q1 + \u03b3,  G = %.5g, \u03b3 = %.5g", g->ratio, g->offset),
             "M 3");
        if (g->relative && glm::dot(e.row.linear0, e.row.linear0) > 0.0)
            line("relative, parallel axes: q0, q1 read from d = origin B − origin A seen in each frame",
                 fmt("J: n = n_A + G·n_B on v0 and v1, n_X = x × d⊥/|d⊥|² = %s; "
                     "torques r0×n + d×n_A, r1×n − G·d×n_B; K = %.6g",
                     vec(e.row.linear0).c_str(), e.K),
                 "gear.h");
        else if (g->relative)
            line("relative: q0, q1 are the turns on a carrier holding both, read from the two bodies",
                 fmt("J: \u03b2 on \u03c90 and \u03c91 with \u03b2\u00b7x_A = 1, \u03b2\u00b7x_B = \u2212G; "
                     "K = \u03b2^T (I0\u207b\u00b9 + I1\u207b\u00b9) \u03b2 = %.6g",
                     e.K),
                 "gear.h");
        else
            line(
                "",
                fmt("J = {1, G} on (q0, q1): \u03ba1 = G\u00b7x_B, K = r_AA + G\u00b2\u00b7r_BB = %.6g", e.K),
                "M 7, 15");
    } else if (const RackPinionJoint* r = std::get_if<RackPinionJoint>(&d.params)) {
        line("coupling",
             fmt("C = \u2212ratio\u00b7\u03b8_A + x_B \u2212 offset,  ratio = %.5g m/rad, offset = %.5g m",
                 r->ratio, r->offset),
             "M 3");
        if (r->relative)
            line("relative: \u03b8_A is A's turn on body 1, x_B B's travel along its X from A's origin",
                 "J: body 0 \u2212u, \u2212(r0\u00d7u) \u2212 ratio\u00b7w;  body 1 u, (p_A \u2212 "
                 "c1)\u00d7u + "
                 "ratio\u00b7w",
                 "rack_pinion.h");
    } else if (const PulleyJoint* pl = std::get_if<PulleyJoint>(&d.params)) {
        pulleyTerms(w.scene(), d, *pl, e, start, poses);
    } else {
        line("coupling", "C and J from the two bodies' coordinates (the joint type's description)", "M 3");
    }
}

/// A contact row's own lines: what C and J are for a contact point (jointlab/row_equation.h
/// contact terms; engine/src/world/stages/contact_rows.cpp builds the rows).
void contactTerms(const RowEquation& e) {
    const Row& r = e.row;
    if (e.contactRowKind == 0) {
        line("the normal row's error: the separation along the normal, negative when the shapes overlap",
             fmt("C = separation = %.6g m%s", r.geometricError,
                 r.geometricError > 0 ? " (a gap: a speculative contact)" : " (touching or overlapping)"),
             "F 8");
        line("the normal row pushes body 0 along n and body 1 against it, at the contact point",
             "J: μ0 = n, κ0 = r0×n,  μ1 = n, κ1 = r1×n", "F 45–49");
    } else {
        line("friction rows have no position error: they only stop the sliding velocity",
             fmt("C = 0, tangent t%d, perpendicular to n (from n alone)", e.contactRowKind), "");
        line("",
             fmt("J: μ0 = t%d, κ0 = r0×t%d,  μ1 = t%d, κ1 = r1×t%d", e.contactRowKind, e.contactRowKind,
                 e.contactRowKind, e.contactRowKind),
             "F 45–49");
    }
}

/// The normal row's bias, for the hard cases: what the contact stage chose (speculative α = 1,
/// approach target, bounce, or the world's Baumgarte α on the ground).
std::string contactBiasNote(const RowEquation& e) {
    if (e.bounce) return "restitution: the approach speed is above the bounce threshold";
    if (e.speculative && e.velTarget < 0.0)
        return "a gap with restitution: approach at up to C/dt as the target, no bias";
    if (e.speculative)
        return fmt("a gap (C > 0): the bodies may approach by at most \u03b1\u00b7C/h, \u03b1 = %.3g%s",
                   e.erp, e.erp == 1.0 ? ": the gap may close in full within the step" : "");
    return "touching (C \u2264 0): the world's Baumgarte \u03b1 pushes the overlap out";
}

/// Box2D v3's soft-step coefficients over the substep, as the soft contact and the soft joint row
/// both use them (engine/src/solver/soft_contact.h).
void softCoefficientLines(const RowEquation& e) {
    line("its coefficients over the substep (\u03c9 = 2\u03c0f)",
         "a1 = 2\u03b6 + h\u03c9,  a2 = h\u03c9\u00b7a1,  a3 = 1/(1 + a2)", "");
    line("",
         fmt("biasRate = \u03c9/a1 = %.5g 1/s,  massScale = a2\u00b7a3 = %.5g,  impulseScale = a3 = %.5g",
             e.softBiasRate, e.softMassScale, e.softImpulseScale),
         "");
}

/// TGS, a touching contact's normal: Box2D v3's soft contact in substep impulses
/// (engine/src/solver/soft_contact.h, docs/contacts.md "TGS: resting contacts work per substep").
void tgsSoftContactLines(const RowEquation& e) {
    line("TGS, touching: a stiff, heavily damped spring instead of a hard row (Box2D v3's soft contact)",
         fmt("f = %.4g Hz (an eighth of the substep rate, within 30\u201360 Hz), \u03b6 = %.4g, h = %.5g s",
             e.softHertz, e.softZeta, e.h),
         "");
    softCoefficientLines(e);
    line("the bias: the overlap pushed out at a speed that grows with it, at most a few m/s",
         fmt("b = max(biasRate\u00b7C, \u2212%.3g m/s) = max(%.5g \u00d7 %.5g, \u2212%.3g) = %.6g m/s",
             e.softMaxPush, e.softBiasRate, e.row.geometricError, e.softMaxPush, e.bias),
         "");
    line("update, in each substep's sweep (\u03bb: this substep's impulse, applied again at every substep)",
         "\u0394\u03bb = \u2212massScale\u00b7(J\u00b7v + b)/K \u2212 impulseScale\u00b7\u03bb", "");
    line("relax sweeps and velocity iterations", "a rigid row without bias: \u0394\u03bb = \u2212J\u00b7v/K",
         "");
    line("deeper than this, the overlap is pushed out as a hard row (the world's Baumgarte \u03b1)",
         fmt("C < \u2212%.3g m: b = \u03b1\u00b7C/h, \u0394\u03bb = \u2212(J\u00b7v + b)/K", e.softDepth),
         "F 11");
    line("what the step reports: the substeps' impulses summed",
         fmt("\u03bb = %.6g N\u00b7s, its force \u03bb/dt = %.5g N", e.impulse, e.impulse / e.dt), "");
}

/// TGS under correction = soft, a joint's hard row: Box2D v3's soft joint row in substep impulses
/// (engine/src/solver/soft_contact.h, docs/solvers.md "Position correction").
void tgsSoftJointLines(const RowEquation& e) {
    line(
        "TGS, correction soft: a stiff, heavily damped spring instead of \u03b1\u00b7C/h (Box2D v3's soft "
        "joint)",
        fmt("f = %.4g Hz (twice the soft contact's), \u03b6 = %.4g, h = %.5g s", e.softHertz, e.softZeta,
            e.h),
        "");
    softCoefficientLines(e);
    if (e.speculative)
        line("a limit still apart: speculative in every pass",
             fmt("b = C/h = %.6g m/s,  \u0394\u03bb = \u2212(J\u00b7v + b)/K", e.bias), "");
    else
        line("the bias",
             fmt("b = biasRate\u00b7C = %.5g \u00d7 %.5g = %.6g", e.softBiasRate, e.row.geometricError,
                 e.bias),
             "");
    line("update, in each substep's sweep (\u03bb: this substep's impulse, from zero in each substep)",
         "\u0394\u03bb = \u2212massScale\u00b7(J\u00b7v + b \u2212 v_T)/K \u2212 impulseScale\u00b7\u03bb",
         "");
    line("relax sweeps and velocity iterations",
         "a rigid row without bias: \u0394\u03bb = \u2212(J\u00b7v \u2212 v_T)/K", "");
    line("what the step reports: the substeps' impulses summed",
         fmt("\u03bb = %.6g, its force \u03bb/dt = %.5g", e.impulse, e.impulse / e.dt), "");
}

void buildLines(const World& w, const JointDesc* d, const RowEquation& e, std::span<const BodyState> start,
                const char* poses) {
    const Row& r = e.row;
    const bool angular = r.flags & kRowAngular;
    const char* cu = angular ? "rad" : "m";
    if (e.contact) {
        contactTerms(e);
    } else {
        line("error", fmt("C = %.6g %s", r.geometricError, cu), "F 8, 26");
        if (d && d->typeInfo().isCoupling) couplingTerms(w, *d, e, start, poses);
    }
    line("Jacobian", fmt("\u03bc0 = %s  \u03ba0 = %s", vec(r.linear0).c_str(), vec(r.angular0).c_str()),
         "F 45\u201347");
    line("", fmt("\u2212\u03bc1 = %s  \u2212\u03ba1 = %s", vec(r.linear1).c_str(), vec(r.angular1).c_str()),
         "F 48\u201349");
    line("the row's velocity before the constraints act (after the step's forces)",
         "J\u00b7v_pre = \u03bc0\u00b7v0 + \u03ba0\u00b7\u03c90 \u2212 \u03bc1\u00b7v1 \u2212 " +
             fmt("\u03ba1\u00b7\u03c91 = %.6g", e.vPre),
         "F 18, 50");
    line("response",
         fmt("K = m0\u207b\u00b9|\u03bc0|\u00b2 + \u03ba0\u00b7I0\u207b\u00b9\u03ba0 + "
             "m1\u207b\u00b9|\u03bc1|\u00b2 + "
             "\u03ba1\u00b7I1\u207b\u00b9\u03ba1"),
         "F 21, 31");
    line("the four terms of K, and the inverse masses as the row sees them (a joint's mass scales included)",
         fmt("  = %.4g + %.4g + %.4g + %.4g = %.6g  (m0\u207b\u00b9 = %.4g, m1\u207b\u00b9 = %.4g 1/kg)",
             e.kTerms[0], e.kTerms[1], e.kTerms[2], e.kTerms[3], e.K, e.invMass0, e.invMass1),
         "F 21");
    if (!e.active) {
        line("dropped", fmt("K = %.3g is under the solver's threshold: the row does nothing", e.K), "");
        return;
    }
    if (e.spring) {
        const char* ku = e.accelerationSpring ? "1/s\u00b2" : (angular ? "N\u00b7m/rad" : "N/m");
        const char* cuD = e.accelerationSpring ? "1/s" : (angular ? "N\u00b7m\u00b7s/rad" : "N\u00b7s/m");
        if (e.softContact) {
            // The soft contact's gains are per unit mass (an acceleration spring): its frequency
            // and damping ratio are the same for every pair of masses.
            const Real wn = std::sqrt(e.stiffness);
            line(
                "PGS, bodies touching: a stiff, heavily damped spring instead of a hard row (Box2D's soft "
                "contact)",
                fmt("soft contact: f = sqrt(k)/2\u03c0 = %.4g Hz, \u03b6 = c/(2 sqrt(k)) = %.4g",
                    wn / (2.0 * kPi), e.damping / (2.0 * wn)),
                "D 30");
        }
        line("spring",
             fmt("k = %.6g %s, c = %.6g %s, v_T = %.5g, h = %.5g s", e.stiffness, ku, e.damping, cuD,
                 e.velTarget, e.h),
             e.accelerationSpring ? "D 25\u201326" : "D 9");
        line("",
             fmt("a = h(h\u00b7k + c) = %.5g\u00d7(%.5g\u00d7%.5g + %.5g) = %.6g", e.h, e.h, e.stiffness,
                 e.damping, e.a),
             "D 13");
        if (e.accelerationSpring) {
            line("", fmt("x = 1/(a + 1) = %.6g", e.x), "D 32");
        } else {
            line("", fmt("x = 1/(a\u00b7K + 1) = 1/(%.5g\u00d7%.5g + 1) = %.6g", e.a, e.K, e.x), "D 15");
        }
        line("update", "\u03bb' = constant + vMul\u00b7J\u00b7\u0394v + impulseMul\u00b7\u03bb",
             "D 17\u201319");
        line("",
             fmt("constant = x%s(h\u00b7c\u00b7v_T \u2212 h\u00b7k\u00b7C \u2212 a\u00b7J\u00b7v_pre) = %.6g",
                 e.accelerationSpring ? "/K" : "", e.constant),
             e.accelerationSpring ? "D 35" : "D 20");
        line("",
             fmt("vMul = \u2212x\u00b7a%s = %.6g,  impulseMul = 1 \u2212 x = %.6g",
                 e.accelerationSpring ? "/K" : "", e.vMul, e.impulseMul),
             e.accelerationSpring ? "D 36\u201337" : "D 21\u201322");
    } else if (e.tgsSoftContact) {
        tgsSoftContactLines(e);
    } else if (!e.contact && e.softHertz > 0.0) {
        tgsSoftJointLines(e);
    } else {
        const double alphaShown = e.erp;
        if (e.contact && e.contactRowKind == 0) line("which bias", contactBiasNote(e).c_str(), "");
        if (e.contact && e.contactRowKind > 0) {
            line("friction: no bias, the target is zero sliding velocity", "b = 0, v_T = 0", "F 11");
        } else if (e.bounce) {
            line("bounce",
                 fmt("v_T = \u2212e\u00b7J\u00b7v_pre = %.6g (restitution replaces the bias)", e.velTarget),
                 "guide");
            if (e.contact)
                line("",
                     fmt("e = %.4g, bounces when approaching faster than %.3g m/s", e.restitution,
                         e.bounceThreshold),
                     "");
        } else {
            line("the Baumgarte bias: the velocity that removes a share \u03b1 of the error per step",
                 fmt("b = \u03b1\u00b7C/h = %.4g \u00d7 %.5g / %.5g = %.6g", alphaShown, r.geometricError,
                     e.h, e.bias),
                 "F 11");
        }
        line("target", fmt("J\u00b7v + b = v_T = %.6g", e.velTarget), "F 13");
        line("update", "\u03bb' = constant + vMul\u00b7J\u00b7\u0394v + impulseMul\u00b7\u03bb", "F 23, 64");
        line("",
             fmt("constant = \u2212(b \u2212 v_T + J\u00b7v_pre)/K = \u2212(%.5g \u2212 %.5g + %.5g)/%.5g = "
                 "%.6g",
                 e.bias, e.velTarget, e.vPre, e.K, e.constant),
             "F 65");
        line("", fmt("vMul = \u22121/K = %.6g,  impulseMul = 1", e.vMul), "F 63");
        line("velocity its.",
             fmt("constant = %.6g (%s)", e.unbiasedConstant,
                 e.keepBias ? "keeps its bias" : "no bias: \u2212(\u2212v_T + J\u00b7v_pre)/K"),
             "F 25");
    }
    const bool forces = (r.flags & kRowHasDriveLimit) && (r.flags & kRowDriveLimitsAreForces);
    const bool finite = std::isfinite(e.minImpulse) || std::isfinite(e.maxImpulse);
    if (e.contact && e.contactRowKind == 0) {
        line("a contact only pushes: the accumulated normal impulse never goes below zero",
             e.substepImpulses ? "\u03bbn' = max(\u03bbn', 0) for each substep's impulse: it never pulls"
                               : "\u03bbn' = max(\u03bbn', 0): the normal impulse never pulls",
             "F 64");
    } else if (e.contact) {
        line(
            "Coulomb friction as a box: each friction row within \u00b1\u03bc times the normal row's "
            "impulse, "
            "re-read at every visit",
            fmt("\u03bb' in [\u2212\u03bc\u00b7\u03bbn, \u03bc\u00b7\u03bbn] = \u00b1%.4g \u00d7 %.6g = "
                "\u00b1%.6g",
                e.friction, e.normalImpulse, e.maxImpulse),
            "F 64");
        if (e.substepImpulses)
            line("TGS, touching: the bound holds for each substep's impulses (their sums are shown)", "", "");
        line("",
             e.maxImpulse > 0 && std::abs(e.impulse) >= e.maxImpulse * (1.0 - 1e-9)
                 ? "at the bound: the point slides"
                 : "inside the bound: the point sticks",
             "");
    } else {
        line("the accumulated impulse stays within the row's bounds",
             fmt("\u03bb' in [%s, %s]%s", bound(e.minImpulse).c_str(), bound(e.maxImpulse).c_str(),
                 forces && finite ? fmt(" = force limit \u00d7 dt (%.5g s)", e.dt).c_str() : ""),
             "F 64");
    }
    if (e.blockSize > 0)
        line("block",
             fmt("row %d of %d solved at once, K row = (%.5g, %.5g, %.5g): \u0394\u03bb = "
                 "K\u207b\u00b9(\u2212(J\u00b7v + b \u2212 v_T))",
                 e.blockIndex + 1, e.blockSize, e.blockK[0], e.blockK[1], e.blockK[2]),
             "block.h");
    line("result", fmt("\u03bb at the end of the step = %.6g", e.impulse), "F 24");
}

void equationTable(const World& w, const JointDesc* d, const RowEquation& e,
                   std::span<const BodyState> start = {}, const char* poses = "") {
    gLines.clear();
    buildLines(w, d, e, start, poses);
    drawLines();
}

}  // namespace

namespace {

/// A contact row's equation: the stepper's contact row, or the chosen row of the selected body's
/// contacts (the row inspector's "Contacts of BODY" list).
void contactEquation(AppState& state, const World& w, const char* when, int body,
                     const StepInspector::Visit* visit) {
    int row = -1;
    if (visit) {
        row = visit->contactRow;
    } else {
        const std::vector<RowTableEntry> table = contactRowTable(w, body);
        if (table.empty()) {
            ImGui::TextDisabled("Nothing touches %s in %s: select a joint, or a body that touches something.",
                                w.scene().bodies[static_cast<size_t>(body)].name.c_str(), when);
            return;
        }
        int& pick = state.equationContactEntry;
        if (pick < 0 || static_cast<size_t>(pick) >= table.size()) pick = 0;
        auto name = [&](const RowTableEntry& t) {
            const std::string other =
                t.otherBody < 0 ? "ground" : w.scene().bodies[static_cast<size_t>(t.otherBody)].name;
            return "contact " + std::to_string(t.contact) + " (with " + other + ") " + t.label();
        };
        ImGui::AlignTextToFramePadding();
        ImGui::Text("%s's contact rows, %s:", w.scene().bodies[static_cast<size_t>(body)].name.c_str(), when);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(std::min(px(300.0f), ImGui::GetContentRegionAvail().x));
        if (ImGui::BeginCombo("##eq contact row", name(table[static_cast<size_t>(pick)]).c_str())) {
            for (size_t k = 0; k < table.size(); ++k)
                if (ImGui::Selectable(name(table[k]).c_str(), static_cast<int>(k) == pick))
                    pick = static_cast<int>(k);
            ImGui::EndCombo();
        }
        row = table[static_cast<size_t>(pick)].index;
    }
    RowEquation e;
    if (!w.contactRowEquation(row, e)) return;
    const auto& bodies = w.scene().bodies;
    const std::string b0 = e.body0 >= 0 ? bodies[static_cast<size_t>(e.body0)].name : "?";
    const std::string b1 = e.body1 >= 0 ? bodies[static_cast<size_t>(e.body1)].name : "the ground";
    wrappedText("contact %d: %s on %s (%s)%s%s; \u03bc = %.3g%s", e.contactPoint, b0.c_str(), b1.c_str(),
                e.row.label, visit ? ", " : "", visit ? when : "", e.friction,
                e.softContact ? ", soft (PGS between bodies)" : "");
    if (visit) {
        ImGui::PushStyleColor(ImGuiCol_Text, kVisitText);
        wrappedText(
            "this visit (%s): C = %.5g, J\u00b7v = %.5g, K = %.5g, b = %.5g, \u03bb %.5g \u2192 %.5g%s",
            sweepName(*visit, w.scene().settings).c_str(), visit->C, visit->jv, visit->K, visit->bias,
            visit->lambdaBefore, visit->lambdaAfter, visit->clamped ? " CLAMPED" : "");
        ImGui::PopStyleColor();
    }
    equationTable(w, nullptr, e);
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
            contactEquation(state, *w, when, -1, visit);
            return;
        }
    }
    const int body = selectedBodyIndex(state);
    if (joint < 0 && body >= 0 && static_cast<size_t>(body) < w->scene().bodies.size()) {
        contactEquation(state, *w, when, body, nullptr);
        return;
    }
    if (joint < 0 || static_cast<size_t>(joint) >= w->scene().joints.size()) {
        ImGui::TextDisabled(
            "Select a joint (or a body, for its contact rows) to see the equation of one of its rows, or "
            "step "
            "inside a step.");
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
    // The table below may scroll sideways: text wraps at the visible edge, not at the content's.
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::PushTextWrapPos(ImGui::GetScrollX() + ImGui::GetWindowWidth() - style.WindowPadding.x -
                           style.ScrollbarSize);
    if (w->scene().settings.pointSolve == PointSolve::Tree && !d.typeInfo().isCoupling)
        wrappedTextDisabled(
            "point constraints = tree: unless this joint closes a loop or scales masses, its rows are solved "
            "along its tree after every sweep (docs/solvers.md \u00a77): its locked axes exactly, its limits "
            "and drives with the tree's response K = J\u00b7P\u00b7J^T. The lines below are the plain "
            "Gauss\u2013Seidel visit of the row, which such a row does not take.");
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
    if (!w->rowEquation(joint, row, e)) {
        ImGui::PopTextWrapPos();
        return;
    }
    if (visit) {
        const StepInspector::Visit* v = currentVisitOf(state, joint, row);
        if (v) {
            ImGui::PushStyleColor(ImGuiCol_Text, kVisitText);
            wrappedText(
                "this visit (%s): C = %.5g, J\u00b7v = %.5g, K = %.5g, b = %.5g, \u03bb %.5g \u2192 %.5g%s",
                sweepName(*v, w->scene().settings).c_str(), v->C, v->jv, v->K, v->bias, v->lambdaBefore,
                v->lambdaAfter, v->clamped ? " CLAMPED" : "");
            ImGui::PopStyleColor();
        }
    }
    ImGui::PopTextWrapPos();
    // The poses the step started from: paused or stepping, the live world's (the shown world is a
    // copy stepped on from them); running, only the end of the last step is known.
    const bool startKnown = w != state.sim.world();
    const World& poses = startKnown ? *state.sim.world() : *w;
    equationTable(*w, &d, e, poses.bodies(),
                  startKnown ? "at the step's start" : "at the end of the last step");
}

}  // namespace jl::app
