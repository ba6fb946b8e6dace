// JointLab app — reading back the framebuffer and writing PNG files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jointlab/file_identity.h"

namespace jl::app {

/// An RGB image stored top row first (the order PNG files use).
struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<uint8_t> pixels;  ///< width × height × 3
};

/// Reads a rectangle (GL pixels, origin bottom-left) of the framebuffer bound to GL_READ_FRAMEBUFFER
/// and flips it so the top row comes first.
RgbImage readFramebuffer(int x, int y, int width, int height);

/// Writes the image as PNG. On failure returns false and sets `error` naming the path.
/// Writes `image` as a PNG atomically (saveTextAtomically: a temporary, then a rename; an existing
/// file's content is kept as PATH.bak). Refused, with nothing written, when `path` is the same
/// file as one of `inputs` (the open scenario, its input log): compared as files, not spellings.
bool writePng(const std::string& path, const RgbImage& image, std::string& error,
              const std::vector<NamedFile>& inputs = {});

}  // namespace jl::app
