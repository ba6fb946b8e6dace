#include "render/screenshot.h"

#include <stb_image_write.h>

#include <cerrno>
#include <cstring>

#include "jointlab/scenario_io.h"
#include "render/gl.h"

namespace jl::app {

RgbImage readFramebuffer(int x, int y, int width, int height) {
    RgbImage image;
    image.width = width;
    image.height = height;
    image.pixels.resize(static_cast<size_t>(width) * height * 3);
    std::vector<uint8_t> bottomUp(image.pixels.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(x, y, width, height, GL_RGB, GL_UNSIGNED_BYTE, bottomUp.data());
    const size_t rowBytes = static_cast<size_t>(width) * 3;
    for (int row = 0; row < height; ++row)
        std::memcpy(&image.pixels[row * rowBytes], &bottomUp[(height - 1 - row) * rowBytes], rowBytes);
    return image;
}

bool writePng(const std::string& path, const RgbImage& image, std::string& error,
              const std::vector<NamedFile>& inputs) {
    if (std::string clash = checkOutputsAgainstInputs(inputs, {{"the image", path}}); !clash.empty()) {
        error = std::move(clash);
        return false;
    }
    std::string bytes;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &bytes, image.width, image.height, 3, image.pixels.data(),
                                image.width * 3)) {
        error = "cannot write " + path + ": the PNG could not be encoded";
        return false;
    }
    return saveTextAtomically(path, bytes, error);
}

}  // namespace jl::app
