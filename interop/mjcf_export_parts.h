// The MJCF export's parts (interop/mjcf_export.h), each in its own file:
//  - mjcf_export.cpp: the joint graph walked into a kinematic tree, the settings, the document;
//  - mjcf_export_bodies.cpp: the tree written as nested <body> elements with their joints;
//  - mjcf_export_couplings.cpp: couplings (gear, rack-and-pinion, pulley) as joint equalities and
//    tendons.
// Internal to interop/: nothing outside the exporter includes it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "interop/mjcf_export.h"
#include "jointlab/scene.h"

namespace jl::interop::mjcf {

/// The world (and every static or kinematic body) in the tree: MuJoCo's world body.
inline constexpr int kWorld = -1;

/// "\"name\"", for messages.
std::string quoted(const std::string& name);

/// What a scene joint's body is in the tree: itself when dynamic, the world when static or
/// kinematic or empty.
int node(const Scene& s, int b);

/// The world pose of body `b` in the scene (identity for the world).
Transform startPose(const Scene& s, int b);

/// Scene body names to indices (the world, kWorld, for "" and unknown names).
struct BodyNames {
    std::map<std::string, int> index;
    explicit BodyNames(const Scene& s);
    int operator()(const std::string& name) const;
};

/// What the couplings and held joints add besides the tree: <equality> and <tendon> elements and
/// the sites the tendons run through (in the world and per scene body).
struct ExtraElements {
    std::vector<std::string> equalities, tendons, worldSites;
    std::vector<std::vector<std::string>> bodySites;  ///< per scene body
};

/// The scene's couplings (scene joint indices) written as joint equalities or tendons where
/// MuJoCo's tree can hold their law, into `out`; the others named in result.omitted. Uses and
/// completes result.tree (a written coupling is ExportedAs::Equality).
void exportCouplings(const Scene& scene, const BodyNames& names, const std::vector<int>& couplings,
                     MjcfExport& result, ExtraElements& out);

/// Writes the kinematic tree (result.tree) as nested <body> elements, MuJoCo's numbering into
/// result.tree.order; joint notes into result.notes, and the limits written into limitRows.
struct TreeWriter {
    const Scene& scene;
    const BodyNames& names;
    MjcfExport& result;
    ExtraElements& extra;
    std::vector<std::vector<int>> children;  ///< per body; the world's in worldChildren
    std::vector<int> worldChildren;
    std::string geomExtra;  ///< contact attributes of every colliding geom
    int limitRows = 0;      ///< joints written with a range: a constraint row each when at a bound

    /// Every body of the tree, nested, from worldChildren (each at depth 2).
    void writeTree(std::string& out);
    /// Body b's opening tag, inertial, joint, geoms and sites (not its children or its end tag).
    void openBody(std::string& out, int b, int depth);
    void writeJoint(std::string& out, const std::string& in, int j);
};

}  // namespace jl::interop::mjcf
