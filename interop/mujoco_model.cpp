#include "interop/mujoco_model.h"

#include <mujoco/mujoco.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace jl::interop {

void ModelDeleter::operator()(mjModel* m) const {
    mj_deleteModel(m);
}
void DataDeleter::operator()(mjData* d) const {
    mj_deleteData(d);
}

namespace {

/// MuJoCo's warnings (a diverging simulation, say; MuJoCo raises each kind once per run) go to stderr, not
/// to the file MUJOCO_LOG.TXT that MuJoCo's default handler appends to in the working directory.
void warnOnStderr(const char* message) {
    std::fprintf(stderr, "MuJoCo warning: %s\n", message);
}

void installHandlers() {
    static const bool installed = [] {
        mju_user_warning = warnOnStderr;
        return true;
    }();
    (void)installed;
}

/// MuJoCo's error buffer as a string, without the trailing newline it sometimes leaves.
std::string message(const char* buffer) {
    std::string s(buffer);
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s.empty() ? "MuJoCo could not compile the model (it gave no reason)" : s;
}

}  // namespace

ModelPtr compileMjcfFile(const std::string& path, std::string& error) {
    installHandlers();
    char buffer[1024] = {};
    ModelPtr m(mj_loadXML(path.c_str(), nullptr, buffer, sizeof buffer));
    if (!m) error = message(buffer);
    return m;
}

ModelPtr compileMjcfText(const std::string& xml, const std::string& name, std::string& error) {
    installHandlers();
    // mjVFS holds fixed arrays for 2000 files (about 2 MB): on the heap, not the stack.
    auto vfs = std::make_unique<mjVFS>();
    mj_defaultVFS(vfs.get());
    if (mj_makeEmptyFileVFS(vfs.get(), name.c_str(), static_cast<int>(xml.size())) != 0) {
        error =
            "MuJoCo's virtual file system refused the model text (" + std::to_string(xml.size()) + " bytes)";
        return nullptr;
    }
    const int index = mj_findFileVFS(vfs.get(), name.c_str());
    std::memcpy(vfs->filedata[index], xml.data(), xml.size());
    char buffer[1024] = {};
    ModelPtr m(mj_loadXML(name.c_str(), vfs.get(), buffer, sizeof buffer));
    mj_deleteVFS(vfs.get());
    if (!m) error = message(buffer);
    return m;
}

DataPtr makeData(const mjModel* model) {
    return DataPtr(mj_makeData(model));
}

}  // namespace jl::interop
