// Step tab: stepping inside a step. While paused, "Next row" (F11), "Next sweep" (F10) and
// "Finish step" (Shift+F11) walk through the next step as the reference kernel takes it
// (jointlab/step_inspector.h, shell/app_stepper.cpp): the row or block visited last with its
// numbers (C, J·v, K, bias, λ before and after, clamped; a block's K), the velocities its two
// bodies have after it (drawn as arrows in the viewport), and beside it the row's equation.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "panels/inside_panels.h"
#include "panels/panels.h"
#include "plot/plot_math.h"
#include "shell/table_fit.h"

namespace jl::app {

namespace {

const ImVec4 kClampedText{1.0f, 0.78f, 0.35f, 1.0f};
const ImVec4 kNoteText{0.95f, 0.85f, 0.45f, 1.0f};

void number(double v) {
    char buf[32];
    plot::formatValue(v, buf, sizeof buf);
    ImGui::TextUnformatted(buf);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.17g", v);
}

/// The constraint a visit belongs to: its joint's name, or the contact point it is a row of
/// ("contact box1 on box2", "contact box1 on the ground").
std::string constraintName(const World& w, const StepInspector::Visit& v) {
    if (v.joint >= 0 && static_cast<size_t>(v.joint) < w.scene().joints.size())
        return w.scene().joints[static_cast<size_t>(v.joint)].name;
    const auto rows = w.contactRows();
    if (v.contactRow < 0 || static_cast<size_t>(v.contactRow) >= rows.size()) return "contact";
    const std::vector<ContactPoint> points = w.contactPoints();
    for (size_t c = 0; c < points.size(); ++c) {
        const ContactPoint& p = points[c];
        if (v.contactRow < p.firstRow || v.contactRow >= p.firstRow + 3) continue;
        const auto& bodies = w.scene().bodies;
        const std::string b0 = p.body0 >= 0 ? bodies[static_cast<size_t>(p.body0)].name : "?";
        const std::string b1 = p.body1 >= 0 ? bodies[static_cast<size_t>(p.body1)].name : "the ground";
        return "contact " + std::to_string(c) + ": " + b0 + " on " + b1;
    }
    return "contact";
}

const char* rowLabel(const World& w, const StepInspector::Visit& v) {
    if (v.joint < 0) {
        const auto rows = w.contactRows();
        if (v.contactRow >= 0 && static_cast<size_t>(v.contactRow) < rows.size())
            return rows[static_cast<size_t>(v.contactRow)].label;
        return v.row == 0 ? "normal" : "friction";
    }
    const auto rows = w.jointRows(v.joint);
    return v.row >= 0 && static_cast<size_t>(v.row) < rows.size() ? rows[static_cast<size_t>(v.row)].label
                                                                  : "";
}

void controls(AppState& state, UiRequests& requests) {
    const StepInspector* ins = state.stepper.inspector.get();
    const bool playing = state.sim.clock.playing;
    ImGui::BeginDisabled(playing || !state.sim.world());
    if (ImGui::Button("Next row")) requests.stepper = StepperAction::NextRow;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("F11: the next row (a block: all its rows at once) of the step being taken");
    ImGui::SameLine();
    if (ImGui::Button("Next sweep")) requests.stepper = StepperAction::NextSweep;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("F10: to the end of this sweep (or of the next one)");
    if (ImGui::Button("Finish step")) requests.stepper = StepperAction::Finish;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Shift+F11: take the step (a normal single step, recorded in the history);\n"
            "it ends exactly where the rows shown here end");
    ImGui::EndDisabled();
    ImGui::SameLine();
    // After Finish step nothing is recorded until Next row, but the kernel stays held for stepping.
    ImGui::BeginDisabled(!ins && !state.sim.referenceKernelHeld());
    if (ImGui::Button("Leave")) requests.stepper = StepperAction::Leave;
    ImGui::EndDisabled();
    helpMarker(
        "The stepper records the next step with the reference kernel, which visits one row at a time, "
        "and shows it visit by visit. Nothing is taken until Finish step; then the step is a normal one "
        "and the timeline records it. Edit a value while stepping (a slider, the Baumgarte factor) and "
        "the step is recorded again with it, at the same row.\n"
        "A scene on the fast kernel runs on the reference one while stepping (the two differ in the "
        "last bits), switched between steps without touching the state; Leave, or playing on, switches "
        "it back. The timeline marks both switches.");
    if (playing) {
        ImGui::TextDisabled("Pause (Space) to step inside a step.");
        return;
    }
    if (const World* w = state.sim.world(); w && w->scene().settings.pointSolve == PointSolve::Tree)
        wrappedTextDisabled(
            "point constraints = tree: the rows of the joints solved along their trees are not visited one "
            "by one, so they are not among the visits here (contacts, couplings and joints that close a "
            "loop are); Finish step runs their tree pass after every sweep, as a normal step does.");
    if (!state.stepper.note.empty()) {
        wrappedTextUnformatted(state.stepper.note, &kNoteText);
    }
    if (!ins) {
        wrappedTextDisabled(
            "Next row starts stepping through step %lld.",
            static_cast<long long>(state.sim.world() ? state.sim.world()->stepCount() + 1 : 1));
        return;
    }
    const World& w = ins->stepped();
    const WorldSettings& s = w.scene().settings;
    const size_t units = ins->units().size();
    if (const StepInspector::Unit* u = ins->current()) {
        const StepInspector::Visit& v = ins->visits()[u->first];
        wrappedText("step %lld (%s): %s, visit %zu of %zu", static_cast<long long>(ins->fromStep() + 1),
                    kSolverTypeNames[static_cast<int>(s.solver)], sweepName(v, s).c_str(), ins->cursor(),
                    units);
    } else {
        wrappedText("step %lld (%s): %zu visits to come, %zu sweeps",
                    static_cast<long long>(ins->fromStep() + 1), kSolverTypeNames[static_cast<int>(s.solver)],
                    units, ins->sweepCount());
    }
    if (ins->atEnd()) {
        ImGui::TextColored(kNoteText, "every row visited: Finish step takes the step");
    }
}

/// The unit shown last: a column per row visit (a block: its rows side by side) and a line per
/// number, then a block's K and the bodies' velocities after it.
void currentUnit(const AppState& state) {
    const StepInspector* ins = state.stepper.inspector.get();
    if (!ins || !ins->current()) return;
    const World& w = ins->stepped();
    const StepInspector::Unit& u = *ins->current();
    const StepInspector::Visit& first = ins->visits()[u.first];
    wrappedText("%s: %s", constraintName(w, first).c_str(),
                u.count > 1 ? "a block of rows solved at once" : "one row");
    // Each column as wide as its widest number or header. When a block's rows do not fit the
    // column side by side, the table scrolls sideways on its own with the quantities' names kept in
    // view (the text around it keeps wrapping at the visible width); its height is then its 8 lines
    // and the scroll bar. When they fit, it has no scroll bar and takes the height of its lines
    // only, so no empty band is left under it for a bar that is not there.
    const char* names[] = {"C", "J\u00b7v", "K", "bias", "\u03bb before", "\u03bb after", "clamp"};
    std::vector<std::vector<std::string>> columns(1 + static_cast<size_t>(u.count));
    columns[0].assign(std::begin(names), std::end(names));
    for (int i = 0; i < u.count; ++i) {
        const StepInspector::Visit& v = ins->visits()[u.first + static_cast<size_t>(i)];
        std::vector<std::string>& column = columns[1 + static_cast<size_t>(i)];
        column = {std::to_string(v.row) + " " + rowLabel(w, v), v.clamped ? "CLAMPED" : "-"};
        for (double value : {v.C, v.jv, v.K, v.bias, v.lambdaBefore, v.lambdaAfter}) {
            char buf[32];
            plot::formatValue(value, buf, sizeof buf);
            column.emplace_back(buf);
        }
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    // The column's visible width (the child is wider when something in it scrolls sideways).
    const float width =
        std::max(ImGui::GetWindowWidth() - style.ScrollbarSize - 2.0f * style.WindowPadding.x, px(120.0f));
    const float needed = fittedTableWidth(
        columns, [](std::string_view t) { return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x; },
        style.CellPadding.x);
    const bool scrolls = needed > width;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | (scrolls ? ImGuiTableFlags_ScrollX : 0);
    const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
    const float height = scrolls ? 8.0f * rowHeight + style.ScrollbarSize + 2.0f * style.CellPadding.y : 0.0f;
    // Numbers never wrap inside a cell (the column's wrap position is for the text around it).
    ImGui::PushTextWrapPos(-1.0f);
    if (ImGui::BeginTable("##unit", 1 + u.count, flags, ImVec2(width, height))) {
        if (scrolls) ImGui::TableSetupScrollFreeze(1, 0);
        ImGui::TableSetupColumn("");
        for (size_t c = 1; c < columns.size(); ++c) ImGui::TableSetupColumn(columns[c][0].c_str());
        ImGui::TableHeadersRow();
        for (int q = 0; q < 7; ++q) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(names[q]);
            for (int i = 0; i < u.count; ++i) {
                const StepInspector::Visit& v = ins->visits()[u.first + static_cast<size_t>(i)];
                ImGui::TableSetColumnIndex(i + 1);
                const double values[] = {v.C, v.jv, v.K, v.bias, v.lambdaBefore, v.lambdaAfter};
                if (q < 6)
                    number(values[q]);
                else if (v.clamped)
                    ImGui::TextColored(kClampedText, "CLAMPED");
                else
                    ImGui::TextDisabled("-");
            }
        }
        ImGui::EndTable();
    }
    if (u.count > 1) {
        ImGui::TextUnformatted("block solved at once, K =");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "K = J M\u207b\u00b9 J^T of the block's rows as this visit used it (TGS: from the Jacobians\n"
                "turned with the bodies). \u0394\u03bb = K\u207b\u00b9(\u2212(J\u00b7v + b \u2212 v_T)) "
                "satisfies all of "
                "them at once.");
        // One line per row of K, its columns aligned.
        if (ImGui::BeginTable("##K", u.count,
                              ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersOuterV)) {
            for (int i = 0; i < u.count; ++i) {
                const StepInspector::Visit& v = ins->visits()[u.first + static_cast<size_t>(i)];
                ImGui::TableNextRow();
                for (int c = 0; c < u.count; ++c) {
                    ImGui::TableSetColumnIndex(c);
                    number(v.blockK[c]);
                }
            }
            ImGui::EndTable();
        }
    }
    ImGui::PopTextWrapPos();
    const StepInspector::Visit& last = ins->visits()[u.first + static_cast<size_t>(u.count) - 1];
    auto body = [&](int b, const Vec3& v, const Vec3& om) {
        if (b < 0) return;
        wrappedText("%s after: v = (%.3g, %.3g, %.3g) m/s, \u03c9 = (%.3g, %.3g, %.3g) rad/s",
                    w.scene().bodies[static_cast<size_t>(b)].name.c_str(), v.x, v.y, v.z, om.x, om.y, om.z);
    };
    body(last.body0, last.v0, last.w0);
    body(last.body1, last.v1, last.w1);
}

}  // namespace

std::string sweepName(const StepInspector::Visit& v, const WorldSettings& s) {
    const bool tgs = s.solver == SolverType::TGS;
    char buf[96];
    if (v.phase == 1)  // under rattle PGS's velocity iterations visit the contacts only
        std::snprintf(buf, sizeof buf, "velocity iteration %d of %d%s", v.sweep + 1, s.velIters,
                      !tgs && s.correction == Correction::Rattle ? " (contacts only)" : "");
    else if (v.phase == 0)
        std::snprintf(buf, sizeof buf, "%s %d of %d",
                      tgs                                        ? "substep"
                      : s.correction == Correction::SplitImpulse ? "unbiased position iteration"
                      : s.correction == Correction::Ngs || s.correction == Correction::Rattle
                          ? "position iteration (joints unbiased)"
                          : "position iteration",
                      v.sweep + 1, s.posIters);
    else
        std::snprintf(buf, sizeof buf,
                      tgs ? "relax sweep after substep %d" : "pseudo-velocity sweep %d of %d", v.sweep + 1,
                      s.posIters);
    return buf;
}

const StepInspector::Visit* currentVisitOf(const AppState& state, int joint, int row) {
    const StepInspector* ins = state.stepper.inspector.get();
    if (!ins || !ins->current()) return nullptr;
    const StepInspector::Unit& u = *ins->current();
    for (int i = 0; i < u.count; ++i) {
        const StepInspector::Visit& v = ins->visits()[u.first + static_cast<size_t>(i)];
        if (v.joint == joint && v.row == row) return &v;
    }
    return nullptr;
}

bool lambdaSoFar(const AppState& state, int joint, int row, Real& lambda) {
    const StepInspector* ins = state.stepper.inspector.get();
    if (!ins || !ins->current()) return false;
    const size_t end = ins->current()->first + static_cast<size_t>(ins->current()->count);
    for (size_t k = end; k-- > 0;) {
        const StepInspector::Visit& v = ins->visits()[k];
        if (v.joint == joint && v.row == row) {
            lambda = v.lambdaAfter;
            return true;
        }
    }
    return false;
}

void drawStepTab(AppState& state, UiRequests& requests) {
    if (!state.sim.world()) return;
    if (!state.stepper.inspector) {
        // Not stepping: the buttons on top and the equation across the whole width, which at
        // 1280x720 lets it lay its lines out in two columns instead of scrolling.
        controls(state, requests);
        ImGui::Separator();
        if (ImGui::BeginChild("##equation", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar))
            drawRowEquation(state, requests);
        ImGui::EndChild();
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable("##step tab", 2, flags)) return;
    ImGui::TableSetupColumn("stepper", ImGuiTableColumnFlags_WidthStretch, 0.38f);
    ImGui::TableSetupColumn("equation", ImGuiTableColumnFlags_WidthStretch, 0.62f);
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (ImGui::BeginChild("##stepper", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar)) {
        // Text wraps at the visible width, not at the width the scrolled table gives the content.
        ImGui::PushTextWrapPos(ImGui::GetWindowWidth() - ImGui::GetStyle().ScrollbarSize -
                               ImGui::GetStyle().WindowPadding.x);
        controls(state, requests);
        currentUnit(state);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();
    ImGui::TableSetColumnIndex(1);
    if (ImGui::BeginChild("##equation", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar)) {
        ImGui::PushTextWrapPos(ImGui::GetWindowWidth() - ImGui::GetStyle().ScrollbarSize -
                               ImGui::GetStyle().WindowPadding.x);
        drawRowEquation(state, requests);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndChild();
    ImGui::EndTable();
}

}  // namespace jl::app
