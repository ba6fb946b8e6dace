// Rows tab (the row inspector): every 1D constraint row the selected joint produced in the last
// step, as the solver saw it (Jacobian, error, bias, target, bounds, flags, unit response) and what
// it did with it (accumulated impulse, clamped). Clamped rows are highlighted; every column header
// explains itself on hover; "+" plots a row. Columns: what the solver did first (error, bias,
// target, bounds, impulse, clamped), then the row's make-up (r, flags, Jacobian). While the
// stepper steps inside a step (Step tab), the rows are that step's: λ is the impulse so far and
// the row (or block) visited last is highlighted with its λ before → after.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "panels/inside_panels.h"
#include "panels/panels.h"
#include "panels/plots_panels.h"
#include "plot/plot_math.h"
#include "session/row_table.h"
#include "telemetry/plot_setup.h"

namespace jl::app {

namespace {

const ImVec4 kClampedText{1.0f, 0.78f, 0.35f, 1.0f};
constexpr ImU32 kClampedRowBg = IM_COL32(120, 80, 10, 90);
constexpr ImU32 kCurrentRowBg = IM_COL32(40, 90, 160, 150);  ///< the stepper's current row

struct Column {
    const char* name;
    const char* help;
};

// clang-format off
constexpr Column kColumns[] = {
    {"", "+ plots this row's impulse (adds it to the plot of picked rows); right-click plots its geometric error"},
    {"row", "what the row constrains, as the joint's prep function named it"},
    {"C [m | rad]", "geometric error C at the start of the step, in m (rad for angular rows); dC/dt is the row velocity"},
    {"bias [m/s | rad/s]", "\u03b1\u00b7C/dt: the velocity the position iterations add to remove the error (Baumgarte)"},
    {"v_T [m/s | rad/s]", "velocity target: what the row drives its velocity to (motors, drives, restitution)"},
    {"min \u03bb", "lower bound of the accumulated impulse [N\u00b7s, N\u00b7m\u00b7s angular]; 'N' marks a drive force limit (\u00d7dt)"},
    {"max \u03bb", "upper bound of the accumulated impulse; -inf/inf: unbounded (an equality row)"},
    {"\u03bb [N\u00b7s | N\u00b7m\u00b7s]", "accumulated impulse the solver applied in the step [N\u00b7s, N\u00b7m\u00b7s angular]"},
    {"state", "clamped: \u03bb sits on a finite bound (the row pushes as hard as it may); dropped: vanishing "
              "response, not solved"},
    {"block", "rows the solver solved at once (a point constraint's linear rows, point constraints = block): "
              "\u0394\u03bb = K\u207b\u00b9(\u2212(J\u00b7v + b)); their K is shown above the table"},
    {"r", "unit response J M\u207b\u00b9 J^T with the joint's mass scales [1/kg, 1/(kg\u00b7m\u00b2) angular]: the "
          "row velocity change per unit impulse"},
    {"flags", "spring: soft row (stiffness, damping; hover for values); accel: spring gains are accelerations; "
              "bounce: restitution; keep bias: bias also in velocity iterations; force: counted in the joint's "
              "reported force; drive lim: bounds are drive limits; ang: angular row; vel only: no position bias"},
    {"linear0 \u03bc0", "J: linear part on body 0 (the row axis) [-]"},
    {"angular0 \u03ba0", "J: angular part on body 0: r0 \u00d7 axis for linear rows [m], the axis for angular rows [-]"},
    {"linear1 \u2212\u03bc1", "J: linear part on body 1, stored negated: row velocity v = \u03bc0\u00b7v0 + \u03ba0\u00b7\u03c90 \u2212 \u03bc1\u00b7v1 \u2212 \u03ba1\u00b7\u03c91 [-]"},
    {"angular1 \u2212\u03ba1", "J: angular part on body 1, stored negated [m or -]"},
};
// clang-format on
constexpr int kColumnCount = static_cast<int>(sizeof kColumns / sizeof kColumns[0]);

void number(double v) {
    char buf[32];
    plot::formatValue(v, buf, sizeof buf);
    ImGui::TextUnformatted(buf);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.17g", v);
}

/// A Jacobian part: "0" when zero, components within 1e-9 of the largest shown as 0 (round-off
/// like 2.2e-16 from rotating an axis says nothing), all digits on hover.
void vec3(const Vec3& v) {
    const double largest = std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)});
    if (largest == 0.0) {
        ImGui::TextDisabled("0");
        return;
    }
    auto shown = [&](double c) { return std::abs(c) <= 1e-9 * largest ? 0.0 : c; };
    ImGui::Text("(%.3g, %.3g, %.3g)", shown(v.x), shown(v.y), shown(v.z));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("(%.17g,\n %.17g,\n %.17g)", v.x, v.y, v.z);
}

void bound(double v, const RowTableEntry& e) {
    if (std::isinf(v)) {
        ImGui::TextDisabled(v > 0 ? "inf" : "-inf");
        return;
    }
    const bool force = e.boundsAreForces();
    char buf[40];
    plot::formatValue(v, buf, sizeof buf);
    if (force) std::snprintf(buf + std::strlen(buf), sizeof buf - std::strlen(buf), " N");
    ImGui::TextUnformatted(buf);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(force ? "force limit %.17g N (the impulse bound is this times dt)" : "%.17g", v);
}

/// Short readable tags for the row's flags; the spring or bounce values on hover.
void flagTags(const Row& row) {
    const std::string tags = rowFlagTags(row.flags);
    if (tags.empty()) {
        ImGui::TextDisabled("-");
        return;
    }
    ImGui::TextUnformatted(tags.c_str());
    if (!ImGui::IsItemHovered()) return;
    if (row.isSpring())
        ImGui::SetTooltip("stiffness %.6g, damping %.6g%s", row.mods.spring.stiffness,
                          row.mods.spring.damping,
                          (row.flags & kRowAccelerationSpring) ? " (accelerations: 1/s\u00b2, 1/s)" : "");
    else if (row.flags & kRowRestitution)
        ImGui::SetTooltip("restitution %.4g above %.4g m/s approach speed", row.mods.bounce.restitution,
                          row.mods.bounce.velocityThreshold);
}

/// The block column: a bracket joining a block's rows, and its size on the first.
/// Columns 2–6: what the row asked for (C, bias, v_T) and its bounds.
void targetCells(const Row& row, const RowResult& res, const RowTableEntry& e, double lo, double hi) {
    ImGui::TableSetColumnIndex(2);
    number(res.geometricError);
    ImGui::TableSetColumnIndex(3);
    number(res.bias);
    ImGui::TableSetColumnIndex(4);
    number(row.velocityTarget);
    ImGui::TableSetColumnIndex(5);
    bound(lo, e);
    ImGui::TableSetColumnIndex(6);
    bound(hi, e);
}

/// Columns 10–15: the row's make-up (unit response, flags, Jacobian).
void makeUpCells(const Row& row, const RowResult& res) {
    ImGui::TableSetColumnIndex(10);
    number(res.unitResponse);
    ImGui::TableSetColumnIndex(11);
    flagTags(row);
    ImGui::TableSetColumnIndex(12);
    vec3(row.linear0);
    ImGui::TableSetColumnIndex(13);
    vec3(row.angular0);
    ImGui::TableSetColumnIndex(14);
    vec3(row.linear1);
    ImGui::TableSetColumnIndex(15);
    vec3(row.angular1);
}

void blockCell(const RowTableEntry& e) {
    const char* bracket = blockBracket(e);
    if (!*bracket) {
        ImGui::TextDisabled("-");
        return;
    }
    if (e.result.blockIndex == 0)
        ImGui::Text("%s %d rows", bracket, e.result.blockSize);
    else
        ImGui::TextUnformatted(bracket);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "row %d of a block of %d solved at once; K = J M\u207b\u00b9 J^T's row: (%.6g, %.6g, %.6g)",
            e.result.blockIndex + 1, e.result.blockSize, e.result.blockK[0], e.result.blockK[1],
            e.result.blockK[2]);
}

/// Each block's K above the table: the rows' unit responses on the diagonal, and off it how much
/// one row's velocity moves per unit impulse of another (what row-by-row Gauss-Seidel leaves
/// over; the block solve inverts K instead). Entries within 1e-9 of the largest are round-off
/// and shown as 0, as in the Jacobian columns (all digits on hover). A row of K that would run
/// past the tab's right edge (1280x720) starts a new line under the first.
void blockMatrices(const std::vector<RowTableEntry>& table) {
    for (const RowBlock& b : rowBlocks(table)) {
        double largest = 0.0;
        for (int i = 0; i < b.size; ++i)
            for (int c = 0; c < b.size; ++c) largest = std::max(largest, std::abs(b.K[i][c]));
        auto shown = [&](double v) { return std::abs(v) <= 1e-9 * largest ? 0.0 : v; };
        ImGui::AlignTextToFramePadding();
        ImGui::Text("rows %d\u2013%d solved at once, K =", b.first, b.first + b.size - 1);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "K = J M\u207b\u00b9 J^T of the block's rows at the start of the step, with the joint's mass "
                "scales\n[1/kg]. Its diagonal is each row's unit response r; the entry (i, j) is how much\n"
                "row i's velocity changes per unit impulse of row j. The solver applies\n"
                "\u0394\u03bb = K\u207b\u00b9(\u2212(J\u00b7v + b)), which satisfies all of the rows at "
                "once.");
        const float spacing = ImGui::GetStyle().ItemSpacing.x;
        float bracketX = 0.0f;  // where "[" stands: a wrapped row of K starts there
        for (int i = 0; i < b.size; ++i) {
            char cells[3][32];
            float width = ImGui::CalcTextSize(";").x;  // this row of K, with the closing "]" after the last
            for (int c = 0; c < b.size; ++c) {
                plot::formatValue(shown(b.K[i][c]), cells[c], sizeof cells[c]);
                width += spacing + ImGui::CalcTextSize(cells[c]).x;
            }
            if (i + 1 == b.size) width += spacing + ImGui::CalcTextSize("]").x;
            ImGui::SameLine();
            if (i == 0) {
                bracketX = ImGui::GetCursorPosX();
            } else if (ImGui::GetContentRegionAvail().x < width) {
                ImGui::NewLine();
                ImGui::SetCursorPosX(bracketX);
            }
            ImGui::TextDisabled(i == 0 ? "[" : ";");
            for (int c = 0; c < b.size; ++c) {
                ImGui::SameLine();
                ImGui::TextUnformatted(cells[c]);
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.17g", b.K[i][c]);
            }
        }
        ImGui::SameLine();
        ImGui::TextDisabled("]");
    }
}

void headerRow() {
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < kColumnCount; ++c) {
        if (!ImGui::TableSetColumnIndex(c)) continue;
        ImGui::TableHeader(kColumns[c].name);
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
            ImGui::TextUnformatted(kColumns[c].help);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
}

/// The λ cell while stepping: before → after for the row visited last, the impulse so far for
/// the others ("-" before their first visit).
void steppedImpulse(const AppState& state, int joint, int row, const StepInspector::Visit* v) {
    if (v) {
        ImGui::Text("%.4g \u2192 %.4g", v->lambdaBefore, v->lambdaAfter);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("this visit: %.17g \u2192 %.17g", v->lambdaBefore, v->lambdaAfter);
        return;
    }
    Real lambda = 0.0;
    if (lambdaSoFar(state, joint, row, lambda))
        number(lambda);
    else
        ImGui::TextDisabled("-");
}

void drawRowTable(const AppState& state, UiRequests& requests, const World& world, int joint) {
    const bool stepping = state.stepper.inspector != nullptr;
    const std::string& name = world.scene().joints[static_cast<size_t>(joint)].name;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("##rows", kColumnCount, flags)) return;
    ImGui::TableSetupScrollFreeze(2, 1);
    for (int c = 0; c < kColumnCount; ++c) ImGui::TableSetupColumn(kColumns[c].name);
    headerRow();
    for (const RowTableEntry& e : rowTable(world, joint)) {
        const Row& row = *e.row;
        const RowResult& res = e.result;
        ImGui::TableNextRow();
        const StepInspector::Visit* visit = stepping ? currentVisitOf(state, joint, e.index) : nullptr;
        if (visit)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, kCurrentRowBg);
        else if (e.state == RowState::Clamped && !stepping)
            ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, kClampedRowBg);
        ImGui::PushID(e.index);
        ImGui::TableSetColumnIndex(0);
        rowPlotButton(state, requests, name, e.label());
        ImGui::TableSetColumnIndex(1);
        ImGui::AlignTextToFramePadding();
        ImGui::Text("%d %s", e.index, e.label());
        targetCells(row, res, e, row.minImpulse, row.maxImpulse);
        ImGui::TableSetColumnIndex(7);
        if (stepping)
            steppedImpulse(state, joint, e.index, visit);
        else
            number(res.impulse);
        ImGui::TableSetColumnIndex(8);
        if (visit) {
            if (visit->clamped)
                ImGui::TextColored(kClampedText, "CLAMPED");
            else
                ImGui::TextDisabled("visited");
        } else if (stepping) {
            ImGui::TextDisabled(e.state == RowState::Dropped ? "dropped" : "-");
        } else {
            switch (e.state) {
                case RowState::Dropped:
                    ImGui::TextDisabled("dropped");
                    break;
                case RowState::Clamped:
                    ImGui::TextColored(kClampedText, "CLAMPED");
                    break;
                case RowState::Active:
                    ImGui::TextDisabled("active");
                    break;
            }
        }
        ImGui::TableSetColumnIndex(9);
        blockCell(e);
        makeUpCells(row, res);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

/// A body's contact rows: one group of three (normal, friction 1, friction 2) per point touching
/// it, with the body on the other side; the same columns as a joint's rows. "+" plots the net
/// contact force on the body.
void drawContactRowTable(AppState& state, UiRequests& requests, const World& world, int body,
                         const std::vector<RowTableEntry>& table) {
    const Scene& scene = world.scene();
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_Resizable;
    if (!ImGui::BeginTable("##contact rows", kColumnCount, flags)) return;
    ImGui::TableSetupScrollFreeze(2, 1);
    for (int c = 0; c < kColumnCount; ++c) ImGui::TableSetupColumn(kColumns[c].name);
    headerRow();
    for (size_t k = 0; k < table.size(); ++k) {
        const RowTableEntry& e = table[k];
        const Row& row = *e.row;
        const RowResult& res = e.result;
        ImGui::TableNextRow();
        if (e.state == RowState::Clamped) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, kClampedRowBg);
        ImGui::PushID(e.index);
        ImGui::TableSetColumnIndex(0);
        if (ImGui::SmallButton("+"))
            requestPlots(requests, withContactPlotted(shownPlots(state.sim.scene()), scene.bodies[body].name),
                         "plot contact force");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("plot the net contact force on this body");
        ImGui::TableSetColumnIndex(1);
        ImGui::AlignTextToFramePadding();
        const char* other =
            e.otherBody < 0 ? "ground" : scene.bodies[static_cast<size_t>(e.otherBody)].name.c_str();
        const std::string text = std::to_string(e.contact) + " " + e.label() + " (with " + other + ")";
        if (ImGui::Selectable(text.c_str(), static_cast<int>(k) == state.equationContactEntry))
            state.equationContactEntry = static_cast<int>(k);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("show this row's equation with its numbers (Step tab)");
        const bool friction = e.index % 3 != 0;  // normal, friction 1, friction 2
        targetCells(row, res, e, friction ? -e.frictionBound : row.minImpulse,
                    friction ? e.frictionBound : row.maxImpulse);
        ImGui::TableSetColumnIndex(7);
        number(res.impulse);
        ImGui::TableSetColumnIndex(8);
        if (e.state == RowState::Dropped)
            ImGui::TextDisabled("dropped");
        else if (e.state == RowState::Clamped)
            ImGui::TextColored(kClampedText, friction ? "SLIDING" : "CLAMPED");
        else
            ImGui::TextDisabled("active");
        ImGui::TableSetColumnIndex(9);
        ImGui::TextDisabled("-");
        makeUpCells(row, res);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

/// The Rows tab with a body selected: the contact rows that touch it in the last step.
void drawBodyContactRows(AppState& state, UiRequests& requests, const World& world, int body) {
    const std::vector<RowTableEntry> table = contactRowTable(world, body);
    const BodyDesc& b = world.scene().bodies[static_cast<size_t>(body)];
    int sliding = 0;
    for (const RowTableEntry& e : table) sliding += e.state == RowState::Clamped && e.index % 3 != 0;
    ImGui::AlignTextToFramePadding();
    ImGui::Text("%s: %zu contact points, %zu rows in step %lld", b.name.c_str(), table.size() / 3,
                table.size(), static_cast<long long>(world.stepCount()));
    if (sliding > 0) {
        ImGui::SameLine();
        ImGui::TextColored(kClampedText, "%d friction rows at ±μ·λ (sliding)", sliding);
    }
    helpMarker(
        "Every contact point is three rows: a normal row (non-penetration: λ ≥ 0; C is the "
        "separation, negative when the shapes overlap) and two friction rows bounded by ±μ times "
        "the normal row's impulse (Coulomb's cone as a box, as PhysX). Under PGS a touching contact between "
        "bodies is a soft spring (flags: spring accel; docs/contacts.md).");
    if (table.empty()) {
        ImGui::TextDisabled(world.stepCount() == 0 ? "Not stepped yet: step the simulation once."
                                                   : "Nothing touches this body in the last step.");
        return;
    }
    drawContactRowTable(state, requests, world, body, table);
}

}  // namespace

std::string rowInspectorTabLabel(const AppState& state) {
    std::string joint = selectedJointName(state);
    const StepInspector* ins = state.stepper.inspector.get();
    if (ins && ins->current()) {  // the stepper's row's joint, as the tab shows
        const int j = ins->visits()[ins->current()->first].joint;
        if (j >= 0 && static_cast<size_t>(j) < ins->stepped().scene().joints.size())
            joint = ins->stepped().scene().joints[static_cast<size_t>(j)].name;
    }
    if (joint.empty() && !ins && selectedBodyIndex(state) >= 0)
        return "Contacts of " + state.sim.scene().bodies[static_cast<size_t>(selectedBodyIndex(state))].name;
    return joint.empty() ? std::string("Rows") : "Rows of " + joint;
}

void drawRowInspectorTab(AppState& state, UiRequests& requests) {
    const StepInspector* ins = state.stepper.inspector.get();
    const World* world = ins ? &ins->stepped() : state.sim.world();
    int joint = selectedJointIndex(state);
    if (ins && ins->current() && ins->visits()[ins->current()->first].joint >= 0)
        joint = ins->visits()[ins->current()->first].joint;  // the stepper's row's joint
    if (world && joint < 0 && !ins && selectedBodyIndex(state) >= 0 &&
        static_cast<size_t>(selectedBodyIndex(state)) < world->scene().bodies.size()) {
        drawBodyContactRows(state, requests, *world, selectedBodyIndex(state));
        return;
    }
    if (!world || joint < 0 || static_cast<size_t>(joint) >= world->scene().joints.size()) {
        ImGui::TextDisabled(
            "Select a joint (in the Scene panel or the viewport) to see the rows it produces, or a body to "
            "see its contact rows.");
        return;
    }
    const JointDesc& d = world->scene().joints[static_cast<size_t>(joint)];
    const auto results = world->jointRowResults(joint);
    int clamped = 0;
    for (const RowResult& r : results) clamped += r.clamped && r.active ? 1 : 0;
    ImGui::AlignTextToFramePadding();
    ImGui::Text("%s (%s): %zu rows in step %lld%s", d.name.c_str(), d.typeInfo().name, results.size(),
                static_cast<long long>(world->stepCount()),
                ins ? " (stepping inside it: \u03bb so far)" : "");
    if (clamped > 0) {
        ImGui::SameLine();
        ImGui::TextColored(kClampedText, "%d clamped", clamped);
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("+ plot joint"))
        requestPlots(requests, withJointPlotted(shownPlots(state.sim.scene()), d.name), "plot joint");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "add this joint to the force plot of picked joints (its break force drawn as a line)");
    helpMarker(
        "Each row is one constraint equation. The solver drives the row velocity "
        "v = \u03bc0\u00b7v0 + \u03ba0\u00b7\u03c90 \u2212 \u03bc1\u00b7v1 \u2212 \u03ba1\u00b7\u03c91 to "
        "v_T \u2212 bias, keeping the accumulated impulse \u03bb within [min \u03bb, max \u03bb]. Hover a "
        "column header for its meaning, a number for all its digits.");
    if (d.startBroken || world->jointState(joint).broken) {
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "The joint is broken: it produces no rows.");
        return;
    }
    if (results.empty()) {
        ImGui::TextDisabled("No rows yet: step the simulation once.");
        return;
    }
    blockMatrices(rowTable(*world, joint));
    drawRowTable(state, requests, *world, joint);
}

}  // namespace jl::app
