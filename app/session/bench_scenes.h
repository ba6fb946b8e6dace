// JointLab app — the scenes the app's frame benchmark (jointlab --bench-frames) measures, made in
// code so that they need no file: the sizes issue 28 gives a frame budget for.
//
//   default     the showcase the app opens with
//   bodies1000  1000 bodies and 1000 joints: 100 chains of 10 links hanging from the world
//   plots200    200 joints (chains of five, each joint type in turn, about 4 rows each) and one
//               impulse plot of every row of all 200 joints (about 800 lines), plus energy and
//               convergence
#pragma once

#include <string>

#include "jointlab/scene.h"

namespace jl::app {

inline constexpr const char* kBenchSceneNames[] = {"default", "bodies1000", "plots200"};

/// 100 chains of 10 box links on revolute and spherical joints: `chains`·10 bodies and joints.
Scene makeChainsScene(int chains);

/// `joints` joints in hanging chains of five, cycling through revolute, spherical, prismatic,
/// distance and fixed, with a plot of every row's impulse of all of them.
Scene makePlottedJointsScene(int joints);

/// The scene called `name` (one of kBenchSceneNames); false for an unknown name. "default" is
/// the showcase file, or the built-in one.
bool makeBenchScene(const std::string& name, Scene& out, std::string& error);

}  // namespace jl::app
