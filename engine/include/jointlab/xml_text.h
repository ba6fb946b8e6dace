// JointLab engine — text for XML documents: the one escaping every XML writer of the project uses
// (interop's MJCF export and model loading, the benchmark's SVG chart).
#pragma once

#include <string>

namespace jl {

/// `s` safe inside XML element text and inside an attribute quoted with ' or ": the five
/// characters XML reserves (& < > " ') as their entities, everything else as it is.
std::string xmlEscape(const std::string& s);

}  // namespace jl
