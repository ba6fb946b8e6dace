// The shapes of an imported body (part of import_builder.h's mapping): its source geoms, at their
// poses in the model's Z-up world, become one JointLab shape or a compound, relative to the body's
// centre-of-mass frame. Boxes, spheres, capsules and cylinders map one to one (a capsule's or
// cylinder's local Z is JointLab's local X); a mesh alone becomes the body's convex hull (thinned
// to the kMaxHullPoints extreme points), a mesh beside primitives or other meshes a hull child of
// its own at the geom's pose (a convex decomposition keeps its pieces); a flat mesh becomes its
// bounding box; a body with no geoms gets a small sphere that touches nothing. Sizes outside
// JointLab's range are clamped; every such change is added to the notes.
#pragma once

#include <vector>

#include "interop/import_builder.h"

namespace jl::interop {

/// Sets the shape of `d`, whose Y-up world pose is `pose`, from `geoms`; what changed goes to `notes`.
void makeShapes(BodyDesc& d, const Transform& pose, const std::vector<const ImportedGeom*>& geoms,
                ImportNotes& notes);

}  // namespace jl::interop
