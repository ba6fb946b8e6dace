// The import builder's internals (import_builder.h: ImportedModel -> Scene), shared by its files:
//  - import_builder.cpp: bodies, joints (one, a chain, a slide D6), the whole model, buildScene;
//  - import_equalities.cpp: connects, welds and joint couplings (gears, relative gears, pinions);
//  - import_planar.cpp: hinge couplings in one plane as exact world gears, one skipping a link too.
// Internal to interop/: nothing outside the importer includes it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "interop/axes.h"
#include "interop/import_builder.h"

namespace jl::interop::build {

/// A pose turned from the model's Z-up to JointLab's Y-up (axes.h).
inline Transform toYUp(const Transform& t) {
    return {interop::toYUp(t.p), interop::toYUp(t.q)};
}

/// Unique names: the source's, else `<prefix><index>`; repeats get "_2", "_3".
class Names {
public:
    std::string take(const std::string& wanted, const std::string& fallback) {
        std::string base = wanted;
        for (char& c : base)
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '_';
        if (base.empty()) base = fallback;
        std::string name = base;
        for (int k = 2; used_.count(name); ++k) name = base + "_" + std::to_string(k);
        used_.insert(name);
        return name;
    }

private:
    std::set<std::string> used_;
};

/// How a source body is represented in the scene.
struct Anchor {
    int body = -1;  ///< scene body index, -1 = the world
    bool moving = false;
};

/// The mapping of one ImportedModel onto a Scene (import_builder.cpp has the decisions, in order).
struct Builder {
    ImportedModel& m;
    Scene scene;
    ImportNotes& notes;
    Names bodyNames, jointNames;
    std::vector<Anchor> anchor;                             // per source body
    std::vector<Transform> pose;                            // per scene body: its Y-up world pose
    std::vector<std::vector<const ImportedGeom*>> geomsOf;  // per scene body
    std::vector<std::vector<int>> jointsOf;                 // per source body: its joints
    std::vector<int> jointParent, jointChild;  // per source joint: the scene bodies it joins (−1: none)

    /// The Y-up world pose of scene body `sceneBody` (identity for the world, −1).
    Transform poseOf(int sceneBody) const;
    /// Adds a scene body for source body `b` (its `index`, for a made-up name) at `worldZUp`.
    int addBody(const ImportedBody& b, size_t index, MotionType motion, const Transform& worldZUp);

    // [SECTION] Joints (import_builder.cpp)

    /// Frames of a joint at world pose `jointWorld` (Y-up) between scene bodies a and b.
    void setFrames(JointDesc& j, int a, int b, const Transform& jointWorld);

    /// The joint's spring, damper and servo as one drive towards `target`.
    static void setDrive(Drive& d, const ImportedJoint& src, Real& target);

    /// Whether JointLab carries joint `j`'s armature: on a hinge or a ball joint, as a rotor on the
    /// body the joint turns (withArmature); a slide's would make the body heavier along one axis only.
    static bool armatureCarried(const ImportedJoint& j);

    /// What JointLab does not carry of `src` (armature of slides, dry friction), noted.
    void noteJoint(const ImportedJoint& src);

    /// `b` carrying joint `j`'s armature a (MuJoCo's rotor inertia, added to the joint coordinate's
    /// own inertia: M_qq += a). JointLab's bodies have no joint coordinates, so the body the joint
    /// turns carries it as a flywheel on the joint's axis n would: a thin disc, a about n and a/2
    /// about the two axes across it (a·n nᵀ alone would break the triangle inequality of a light
    /// body's moments). Its principal axes are found again. A ball joint's armature is a about each
    /// of its three axes (a·E). Exact about n while the body before the joint does not turn about
    /// n; what the disc adds across n is more inertia than MuJoCo has (docs/import.md "Armature").
    static ImportedBody withArmature(ImportedBody b, const ImportedJoint& j);

    /// The joints of source body `bi` between its parent's scene body and its own: one joint, or
    /// several in a chain through intermediate bodies (import_chain.h).
    void makeJoints(size_t bi, int parent, int child);

    /// Slides alone (at most three, axes at right angles, as composite particles have): one D6 with
    /// those linear axes free or limited and their damping and springs as its linear drives. Exact
    /// without a chain: slides do not turn the body, so their order does not matter and each one's
    /// axis stays where the model has it. False (nothing made) for any other set.
    bool makeSlideD6(const std::vector<int>& js, int parent, int child);

    /// The limit of hinge or slide `src` (scene joint `jointName`): its range, or [c, c] when a joint
    /// equality holds it at c. A hinge or slide held by its limit stays a hinge or slide (in the
    /// Inspector, in couplings, in the export), where a D6 with a locked axis would not; the held
    /// value wins over the range, noted when it lies outside it (MuJoCo would fight both).
    LimitPair limitOf(const ImportedJoint& src, const std::string& jointName);

    /// Source joint `index` (a hinge, slide or ball) between scene bodies `parent` and `child`.
    void makeJoint(int index, int parent, int child);

    /// A fixed joint between `parent` and `child` at the child's pose.
    void makeFixed(const std::string& name, int parent, int child);

    // [SECTION] The whole model (import_builder.cpp)

    /// Maps the whole model into `scene`; false with `error` when the model is inconsistent.
    bool run(std::string& error);

    // [SECTION] Equalities (import_equalities.cpp)

    /// Slides a (e.joint1, moving scene body `follower`) and b (e.joint2, `leader`) on one moving
    /// scene body `hand`, coupled q_a = ratio·q_b + offset relative to it: a light pinion hinged to
    /// the hand and a relative rack from it to each finger (import_chain.h, DifferentialPinion).
    void makePinion(const ImportedEquality& e, int hand, int follower, int leader);

    /// A connect, weld or joint coupling of the model as a scene joint, or a note saying why not.
    void makeEquality(const ImportedEquality& e);
    /// Hinge coupling `e` as an exact world gear `j` (bodies and frames) with `g` (ratio, offset)
    /// when all its hinges, and those below its bodies down to a body that does not move, turn about
    /// one world axis, and its law, alone or with one other such coupling (`with`, its name) added,
    /// joins at most two bodies (import_planar.cpp). False, `j` and `g` untouched, otherwise.
    bool planarCoupling(const ImportedEquality& e, JointDesc& j, GearJoint& g, std::string& with);
    /// planarCoupling's look-ups, built on its first call: per scene body, the source joint that
    /// moves it and the couplings (indices in m.equalities) whose joints join it.
    struct PlanarIndex {
        bool built = false;
        std::vector<int> moves;
        std::vector<std::vector<size_t>> couplingsOf;
    };
    PlanarIndex planarIndex;
};

}  // namespace jl::interop::build
