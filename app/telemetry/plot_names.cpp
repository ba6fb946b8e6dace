// JointLab app — which joints and bodies a plot names (telemetry/telemetry_plots.h): the comma-
// separated lists of a PlotDesc, read against the scene or the selection.
#include <algorithm>

#include "telemetry/telemetry_plots.h"

namespace jl::app {

// [SECTION] Names

std::vector<std::string> splitList(const std::string& list) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string::npos) end = list.size();
        size_t a = start, b = end;
        while (a < b && list[a] == ' ') ++a;
        while (b > a && list[b - 1] == ' ') --b;
        if (b > a) out.emplace_back(list, a, b - a);
        start = end + 1;
    }
    return out;
}

std::string addToList(const std::string& list, const std::string& item) {
    const std::vector<std::string> items = splitList(list);
    if (std::find(items.begin(), items.end(), item) != items.end()) return list;
    std::string out;
    for (const std::string& s : items) out += s + ",";
    return out + item;
}

void plotJoints(const PlotDesc& desc, const Scene& scene, int selectedJoint, std::vector<int>& out,
                std::string* missing, const JointNameIndex* names) {
    out.clear();
    if (desc.joints.empty()) {
        if (selectedJoint >= 0 && static_cast<size_t>(selectedJoint) < scene.joints.size())
            out.push_back(selectedJoint);
        return;
    }
    for (const std::string& name : splitList(desc.joints)) {
        int j = -1;
        if (names) {
            if (const auto it = names->find(name); it != names->end()) j = it->second;
        } else {
            j = scene.findJoint(name);
        }
        if (j >= 0 && std::find(out.begin(), out.end(), j) == out.end())
            out.push_back(j);
        else if (j < 0 && missing && name != kMouseSpring)
            *missing += (missing->empty() ? "" : ", ") + name;
    }
}

void plotBodies(const PlotDesc& desc, const Scene& scene, int selectedBody, std::vector<int>& out,
                std::string* missing) {
    out.clear();
    if (desc.bodies.empty()) {
        if (selectedBody >= 0 && static_cast<size_t>(selectedBody) < scene.bodies.size())
            out.push_back(selectedBody);
        return;
    }
    for (const std::string& name : splitList(desc.bodies)) {
        const int b = scene.findBody(name);
        if (b >= 0 && std::find(out.begin(), out.end(), b) == out.end())
            out.push_back(b);
        else if (b < 0 && missing)
            *missing += (missing->empty() ? "" : ", ") + name;
    }
}

bool plotsMouseSpring(const PlotDesc& desc, const Scene& scene) {
    if (desc.kind != PlotKind::Force || scene.findJoint(kMouseSpring) >= 0) return false;
    const std::vector<std::string> names = splitList(desc.joints);
    return std::find(names.begin(), names.end(), kMouseSpring) != names.end();
}

}  // namespace jl::app
