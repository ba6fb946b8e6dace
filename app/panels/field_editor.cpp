// Editable rows generated from a field list (editor/field_access.h): one widget per field kind,
// the unit in the label (degrees for angle fields, saying so), the field's help as tooltip. Every
// change becomes a setField command; a slider drag is one undo step (the command's coalescing key,
// ended when the widget is released). A number typed into a box (double-click, Ctrl+click) is
// applied once, on Enter or on leaving the box, never per keystroke; Escape drops it.
#include "panels/field_editor.h"

#include <imgui.h>
#include <imgui_internal.h>  // whether a drag box is being typed into (TempInputId)
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <string>

namespace jl::app {

namespace {

constexpr double kDeg = 180.0 / kPi;
constexpr float kLabelFraction = 0.45f;     ///< least share of the row width the label column gets
constexpr float kMaxLabelFraction = 0.55f;  ///< most: a longer label is shortened with "…"
constexpr double kLeaveInfinity = 1000.0;   ///< value given when "inf" is switched off

struct Row {
    const FieldInfo& field;
    const FieldOwner& owner;
    const Scene& scene;
    InspectorState& state;
    UiRequests& requests;
};

std::string leafName(const std::string& name) {
    const size_t dot = name.find('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

std::string groupOf(const std::string& name) {
    const size_t dot = name.find('.');
    return dot == std::string::npos ? std::string() : name.substr(0, dot);
}

std::string unitText(const FieldInfo& f) {
    if (f.kind == FieldKind::Quat) return "deg XYZ";
    if (f.meta.angle) return "deg";
    return f.meta.unit;
}

std::string number(double x) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

void labelTooltip(const FieldInfo& f) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26.0f);
    ImGui::TextUnformatted(f.name.c_str());
    if (*f.meta.help) ImGui::TextDisabled("%s", f.meta.help);
    const double scale = f.meta.angle ? kDeg : 1.0;
    if (f.kind == FieldKind::Real || f.kind == FieldKind::Int || f.kind == FieldKind::Vec3) {
        const bool lo = std::isfinite(f.meta.min), hi = std::isfinite(f.meta.max);
        if (lo || hi) {
            std::string range = "valid: ";
            if (lo) range += (f.meta.minExclusive ? "> " : ">= ") + number(f.meta.min * scale);
            if (lo && hi) range += " and ";
            if (hi) range += "<= " + number(f.meta.max * scale);
            ImGui::TextDisabled("%s", range.c_str());
        }
    }
    if (f.meta.angle) ImGui::TextDisabled("shown in degrees; stored in radians");
    if (f.kind == FieldKind::Quat)
        ImGui::TextDisabled("Euler angles in degrees (X, Y, Z); stored as a unit quaternion");
    if (f.acceptsInfinity) ImGui::TextDisabled("tick 'inf' for no limit");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

/// Queues the edit; `continuous` edits (drags) coalesce into one undo step per gesture.
void edit(const Row& r, FieldValue value, bool continuous) {
    Command c = setField(r.owner, r.field.name, std::move(value));
    if (!continuous) c.coalesceKey.clear();
    r.requests.commands.push_back(std::move(c));
}

/// True while the active item is a drag box turned into a text box (double-click, Ctrl+click).
bool typingIntoDragBox() {
    const ImGuiContext& g = *GImGui;
    return g.ActiveId != 0 && g.ActiveId == g.TempInputId;
}

/// The one rule for every drag widget (numbers, vectors, rotations): a drag applies live and is
/// one undo step per gesture; text typed into the box is held (`state.typed`) and applied once
/// when the box is left by Enter, Tab or a click elsewhere. Escape drops it: nothing is applied,
/// no undo entry. Call right after the widget with its return value and the value it holds.
void dragOrTyped(const Row& r, bool changed, FieldValue value) {
    const std::string key = r.owner.describe() + "/" + r.field.name;
    InspectorState& s = r.state;
    const bool deactivated = ImGui::IsItemDeactivated();
    const bool escaped = deactivated && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (escaped) {  // ImGui restores the text it started from and reports that as a change: ignore it
        if (s.typedKey == key) s.typedKey.clear();
        r.requests.endCoalescing = true;
        return;
    }
    if (changed) {
        if (ImGui::IsItemActive() && typingIntoDragBox()) {
            s.typedKey = key;
            s.typed = std::move(value);
        } else if (s.typedKey == key) {  // the box reports its text once more as it is left
            s.typedKey.clear();
            edit(r, std::move(value), false);
        } else {
            edit(r, std::move(value), true);
        }
    }
    if (deactivated) {
        if (s.typedKey == key) {
            edit(r, std::move(s.typed), false);
            s.typedKey.clear();
        }
        r.requests.endCoalescing = true;
    }
}

// [SECTION] Widgets per kind

void realWidget(const Row& r) {
    const FieldInfo& f = r.field;
    const double stored = std::get<Real>(f.value);
    const double scale = f.meta.angle ? kDeg : 1.0;
    double shown = stored * scale;
    const bool isInf = std::isinf(stored);
    if (f.acceptsInfinity)
        ImGui::SetNextItemWidth(-ImGui::CalcTextSize("inf").x - ImGui::GetFrameHeight() -
                                ImGui::GetStyle().ItemSpacing.x - ImGui::GetStyle().ItemInnerSpacing.x);
    else
        ImGui::SetNextItemWidth(-FLT_MIN);
    // Drags stay inside the valid range; typed values (Ctrl+click) are checked by the validator.
    double lo = f.meta.min * scale, hi = f.meta.max * scale;
    if (f.meta.minExclusive) lo += std::max(1e-6, std::abs(lo) * 1e-6);
    const double speed = f.meta.angle ? 0.5 : std::max(std::abs(shown) * 0.005, 0.001);
    std::string unit = f.meta.unit;
    for (size_t at = unit.find('%'); at != std::string::npos; at = unit.find('%', at + 2))
        unit.insert(at, 1, '%');
    std::string formatText = f.meta.angle ? "%.2f°" : "%.5g";
    if (!f.meta.angle && !unit.empty()) formatText.append(" ").append(unit);
    const char* format = formatText.c_str();
    ImGui::BeginDisabled(isInf);
    const bool changed = ImGui::DragScalar(
        "##v", ImGuiDataType_Double, &shown, static_cast<float>(std::isfinite(speed) ? speed : 1.0),
        std::isfinite(lo) ? &lo : nullptr, std::isfinite(hi) ? &hi : nullptr, format);
    dragOrTyped(r, changed, shown / scale);
    ImGui::EndDisabled();
    if (f.acceptsInfinity) {
        ImGui::SameLine();
        bool inf = isInf;
        if (ImGui::Checkbox("inf", &inf)) edit(r, inf ? kInf : kLeaveInfinity, false);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("no limit (the file stores \"inf\")");
    }
}

void vec3Widget(const Row& r) {
    Vec3 v = std::get<Vec3>(r.field.value);
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool changed =
        ImGui::DragScalarN("##v", ImGuiDataType_Double, &v[0], 3, 0.01f, nullptr, nullptr, "%.3f");
    dragOrTyped(r, changed, v);
}

void quatWidget(const Row& r) {
    const Quat q = std::get<Quat>(r.field.value);
    const std::string key = r.owner.describe() + "/" + r.field.name;
    // While dragged, the angles being edited are kept: re-deriving them from the quaternion can
    // jump to an equivalent triple and fight the mouse.
    // (+ 0.0 turns a -0.0 into 0.0 for display.)
    Vec3 e = r.state.eulerKey == key ? r.state.euler : glm::eulerAngles(q) * kDeg + Vec3(0.0);
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool changed =
        ImGui::DragScalarN("##v", ImGuiDataType_Double, &e[0], 3, 0.5f, nullptr, nullptr, "%.1f");
    if (changed) {
        r.state.eulerKey = key;
        r.state.euler = e;
    }
    if (ImGui::IsItemDeactivated() && r.state.eulerKey == key) r.state.eulerKey.clear();
    dragOrTyped(r, changed, glm::normalize(Quat(e / kDeg)));
}

void intWidget(const Row& r) {
    int v = std::get<int>(r.field.value);
    int lo = std::isfinite(r.field.meta.min) ? static_cast<int>(r.field.meta.min) : INT32_MIN;
    int hi = std::isfinite(r.field.meta.max) ? static_cast<int>(r.field.meta.max) : INT32_MAX;
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool changed = ImGui::DragInt("##v", &v, 0.1f, lo, hi);
    dragOrTyped(r, changed, v);
}

void enumWidget(const Row& r) {
    int v = std::get<int>(r.field.value);
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::Combo("##v", &v, r.field.enumNames, r.field.enumCount)) edit(r, v, false);
}

void stringWidget(const Row& r) {
    const std::string& value = std::get<std::string>(r.field.value);
    ImGui::SetNextItemWidth(-FLT_MIN);
    const bool bodyRef =
        r.owner.kind == FieldOwner::Kind::Joint && (r.field.name == "body0" || r.field.name == "body1");
    if (bodyRef) {
        if (ImGui::BeginCombo("##v", value.empty() ? "(world)" : value.c_str())) {
            if (ImGui::Selectable("(world)", value.empty())) edit(r, std::string(), false);
            for (const BodyDesc& b : r.scene.bodies)
                if (ImGui::Selectable(b.name.c_str(), b.name == value)) edit(r, b.name, false);
            ImGui::EndCombo();
        }
        return;
    }
    // ImGui keeps the text while it is being typed; the edit is made on Enter.
    std::string text = value;
    if (ImGui::InputText("##v", &text,
                         ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll))
        edit(r, text, false);
    if (ImGui::IsItemActive()) ImGui::SetTooltip("press Enter to apply");
}

/// The unit shown in a field's label: vectors and rotations carry it there; numbers carry theirs
/// inside the box ("9.81 m/s^2", "45.00°").
std::string labelUnit(const FieldInfo& f) {
    const std::string unit = unitText(f);
    return !unit.empty() && (f.kind == FieldKind::Vec3 || f.kind == FieldKind::Quat) ? " [" + unit + "]" : "";
}

/// The label in `width` pixels: the name shortened with "…" when the whole does not fit, the unit
/// kept ("angularVel… [rad/s]"); the tooltip has the whole name.
std::string fittedLabel(const FieldInfo& f, float width) {
    const std::string name = leafName(f.name), unit = labelUnit(f);
    if (ImGui::CalcTextSize((name + unit).c_str()).x <= width) return name + unit;
    for (size_t n = name.size(); n-- > 1;) {
        std::string cut = name.substr(0, n) + "\u2026" + unit;
        if (ImGui::CalcTextSize(cut.c_str()).x <= width) return cut;
    }
    return name.substr(0, 1) + "\u2026";
}

void fieldRow(const Row& r, float labelX) {
    const FieldInfo& f = r.field;
    ImGui::PushID(f.name.c_str());
    ImGui::AlignTextToFramePadding();
    const float labelWidth = labelX - ImGui::GetCursorPosX() - ImGui::GetStyle().ItemSpacing.x;
    ImGui::TextUnformatted(fittedLabel(f, labelWidth).c_str());
    labelTooltip(f);
    ImGui::SameLine(labelX);
    switch (f.kind) {
        case FieldKind::Real:
            realWidget(r);
            break;
        case FieldKind::Vec3:
            vec3Widget(r);
            break;
        case FieldKind::Quat:
            quatWidget(r);
            break;
        case FieldKind::Bool: {
            bool v = std::get<bool>(f.value);
            if (ImGui::Checkbox("##v", &v)) edit(r, v, false);
            break;
        }
        case FieldKind::Int:
            intWidget(r);
            break;
        case FieldKind::String:
            stringWidget(r);
            break;
        case FieldKind::Enum:
            enumWidget(r);
            break;
    }
    if (ImGui::IsItemHovered() && *f.meta.help && f.kind != FieldKind::String && !f.acceptsInfinity)
        ImGui::SetTooltip("%s", f.meta.help);
    ImGui::PopID();
}

/// A group opens by default when it is switched on, or when it is small and has no switch.
bool groupOpenByDefault(const std::vector<FieldInfo>& fields, size_t first, const std::string& group) {
    size_t count = 0;
    for (size_t i = first; i < fields.size() && groupOf(fields[i].name) == group; ++i) {
        ++count;
        if (leafName(fields[i].name) == "enabled") return std::get<bool>(fields[i].value);
    }
    return count <= 6;
}

}  // namespace

void drawFieldList(const std::vector<FieldInfo>& fields, const FieldOwner& owner, const Scene& scene,
                   InspectorState& state, UiRequests& requests, const FieldFilter& skip) {
    ImGui::PushID(owner.describe().c_str());
    // One label column for the whole list, so the values line up also inside groups: as wide as
    // the widest label (a group's are indented) within [45%, 55%] of the width.
    auto hidden = [&skip](const FieldInfo& f) { return !f.meta.relevant || (skip && skip(f)); };
    const ImGuiStyle& style = ImGui::GetStyle();
    float widest = 0.0f;
    for (const FieldInfo& f : fields)
        if (!hidden(f))
            widest = std::max(widest, ImGui::CalcTextSize((leafName(f.name) + labelUnit(f)).c_str()).x +
                                          (groupOf(f.name).empty() ? 0.0f : style.IndentSpacing));
    const float avail = ImGui::GetContentRegionAvail().x;
    const float labelX =
        ImGui::GetCursorPosX() +
        std::clamp(widest + 2.0f * style.ItemSpacing.x, avail * kLabelFraction, avail * kMaxLabelFraction);
    std::string openGroup;
    bool groupVisible = true;
    for (size_t i = 0; i < fields.size(); ++i) {
        const FieldInfo& f = fields[i];
        if (hidden(f)) continue;
        const std::string group = groupOf(f.name);
        if (group != openGroup) {
            if (!openGroup.empty() && groupVisible) ImGui::TreePop();
            openGroup = group;
            groupVisible = true;
            if (!group.empty()) {
                ImGui::SetNextItemOpen(groupOpenByDefault(fields, i, group), ImGuiCond_Once);
                groupVisible = ImGui::TreeNode(group.c_str());
            }
        }
        if (!groupVisible) continue;
        fieldRow(Row{f, owner, scene, state, requests}, labelX);
    }
    if (!openGroup.empty() && groupVisible) ImGui::TreePop();
    ImGui::PopID();
}

}  // namespace jl::app
