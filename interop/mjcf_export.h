// MJCF export: the tree part of a JointLab scene as a MuJoCo model (docs/reference.md "Export").
//
// MuJoCo simulates a kinematic tree in joint coordinates; JointLab joins bodies by constraint rows
// in any graph. The exporter walks the joints breadth first from the world (the world and every
// static body are MuJoCo's world body): a joint reaching a body not yet in the tree makes that body
// a child (revolute → hinge, prismatic → slide, spherical → ball, fixed → no joint: welded); a joint
// between two bodies already in the tree closes a loop and is left out and named. A dynamic body no
// joint reaches gets a free joint. Gear and rack-and-pinion couplings whose world-measured law is a
// law between at most two tree joints become joint equalities (polycoef; docs/reference.md
// "Couplings"), pulleys limited spatial tendons; every other joint type is left out and named.
//
// Bodies are written at their pose in the scene (Y-up → Z-up, interop/axes.h), their frame at the
// centre of mass with JointLab's mass and inertia, so a hinge's `ref` is its JointLab angle at the
// start and MuJoCo's qpos is JointLab's coordinate (negated when the MuJoCo child is body 0).
#pragma once

#include <string>
#include <vector>

#include "jointlab/scene.h"

namespace jl::interop {

/// How one scene joint went into the model.
enum class ExportedAs { Hinge, Slide, Ball, Weld, Equality, Omitted };

/// The kinematic tree the exporter built, for the reference run and the tests.
struct MjcfTree {
    /// Per scene body: its parent body (scene index; −1: the world), the scene joint that attaches it
    /// to that parent (−1: none) and whether it moves in MuJoCo (static and kinematic bodies are
    /// MuJoCo bodies without a joint, fixed to the world, written after the moving ones).
    std::vector<int> parent, joint;
    std::vector<bool> moving;
    /// Per scene body: it has a free joint (a dynamic body no joint reaches).
    std::vector<bool> free;
    /// Per scene joint: how it was written, and +1 when the MuJoCo child is body 1, −1 when it is
    /// body 0 (MuJoCo's coordinate is then the negative of JointLab's); 0 when not a tree joint.
    std::vector<ExportedAs> as;
    std::vector<int> sign;
    /// Scene bodies in the order MuJoCo numbers them: scene body order[k] is MuJoCo body k + 1
    /// (depth first, as the XML nests them). MuJoCo numbers joints in the same walk, one per
    /// body that has one (free, hinge, slide or ball).
    std::vector<int> order;
};

struct MjcfExport {
    std::string xml;    ///< the model; empty when refused
    std::string error;  ///< why nothing was exported ("" when exported)
    /// Joints and bodies that are not in the model, one line each ("joint \"x\" (distance): ...").
    std::vector<std::string> omitted;
    /// Those of `omitted` that JointLab simulates (all but joints that start broken): a run of the
    /// model would not be the scene's.
    std::vector<std::string> blocking;
    /// The first joint found to close a loop ("" when the joints form a tree).
    std::string loopJoint;
    /// What the model holds but MuJoCo simulates otherwise (motors, soft limits, body damping...),
    /// one line each.
    std::vector<std::string> notes;
    MjcfTree tree;
    /// The deepest body's depth in the tree (a body of the world: 1), and when it is more than
    /// MuJoCo 2.2.2's XML reader takes (96), why ("" otherwise): MuJoCo will not load the model.
    int depth = 0;
    std::string tooDeep;
    /// The constraint rows MuJoCo may need at once besides contacts (joint and tendon equalities,
    /// limits); with contacts MuJoCo's default 500 on top. Above 500 the model says so (<size
    /// njmax>), so MuJoCo drops none of them.
    int constraintRows = 0;
    /// When MuJoCo would need more memory for that buffer than a reference run may take (1 GB),
    /// why ("" otherwise): the reference refuses to start; the exported file is still written.
    std::string tooLarge;
};

/// Exports `scene` (which must be valid: validateScene) as MJCF.
MjcfExport exportScene(const Scene& scene);

/// `omitted` or `notes` with the lines that differ only in the joint (or body) they name as one:
/// "joints \"a\", \"b\" ... and 2494 more (gear): ..." (at most six names a line), in the order of
/// each kind's first line.
std::vector<std::string> groupedLines(const std::vector<std::string>& lines);

/// The model as text; "" with `error` set when refused (or when MuJoCo's reader would refuse it:
/// tooDeep). `warning`, when given, receives what was
/// left out and what MuJoCo does differently, one line each (empty when everything mapped).
std::string exportMjcf(const Scene& scene, std::string& error, std::string* warning = nullptr);

/// A joint's coordinate from the world poses of its two bodies (identity for the world): revolute:
/// the twist angle of frame 1 about frame 0's X in (−π, π] [rad]; prismatic: frame 1's offset along
/// frame 0's X [m]; spherical: the rotation angle between the frames in [0, π] [rad]; others 0.
Real jointCoordinate(const JointDesc& joint, const Transform& pose0, const Transform& pose1);

/// True for the joint types that have a coordinate (revolute, prismatic, spherical).
bool hasCoordinate(const JointDesc& joint);

}  // namespace jl::interop
