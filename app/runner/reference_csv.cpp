// JointLab runner — the MuJoCo reference's CSV (runner/reference_csv.h).
#include "runner/reference_csv.h"

#include <algorithm>
#include <cstdio>

#ifdef JOINTLAB_HAVE_INTEROP
#include "interop/reference_run.h"
#endif

namespace jl::runner {

std::string csvField(const std::string& name) {
    if (name.find_first_of(",\"\r\n") == std::string::npos) return name;
    std::string out = "\"";
    for (const char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

#ifdef JOINTLAB_HAVE_INTEROP
struct ReferenceCsv::Impl {
    std::unique_ptr<interop::ReferenceRun> run;
    Real worst = 0.0;
    int64_t worstStep = 0;
};
#else
struct ReferenceCsv::Impl {};
#endif

ReferenceCsv::ReferenceCsv() : impl_(std::make_unique<Impl>()) {}
ReferenceCsv::~ReferenceCsv() = default;

#ifdef JOINTLAB_HAVE_INTEROP
bool ReferenceCsv::start(const World& world, std::string& error) {
    impl_->run = interop::ReferenceRun::start(world, error);
    if (!impl_->run) return false;
    text_ = "step,max_position_divergence_m";
    for (const int j : impl_->run->comparedJoints()) {
        const std::string& name = world.scene().joints[static_cast<size_t>(j)].name;
        text_ += "," + csvField(name + "_jointlab") + "," + csvField(name + "_mujoco");
    }
    text_ += "\n";
    return true;
}

bool ReferenceCsv::running() const {
    return impl_->run != nullptr;
}

void ReferenceCsv::step(const World& world) {
    if (!impl_->run) return;
    impl_->run->step();
    const Real d = impl_->run->maxPositionDivergence(world);
    if (d > impl_->worst) {
        impl_->worst = d;
        impl_->worstStep = world.stepCount();
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%lld,%.17g", static_cast<long long>(world.stepCount()), d);
    text_ += buf;
    const std::vector<Real> a = impl_->run->jointlabCoordinates(world), b = impl_->run->mujocoCoordinates();
    for (size_t k = 0; k < a.size(); ++k) {
        std::snprintf(buf, sizeof buf, ",%.17g,%.17g", a[k], b[k]);
        text_ += buf;
    }
    text_ += "\n";
}

std::string ReferenceCsv::summary() const {
    if (!impl_->run) return "";
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "MuJoCo reference: largest body position difference %.3g m (step %lld)%s%s", impl_->worst,
                  static_cast<long long>(impl_->worstStep),
                  impl_->run->diverged() ? "; MuJoCo diverged (it reset its state) during the run" : "",
                  impl_->run->overflowed()
                      ? "; MuJoCo ran out of room for contacts or constraint rows in a step and ran it "
                        "without them"
                      : "");
    return buf;
}
#else
bool ReferenceCsv::start(const World&, std::string& error) {
    error = "this build has no MuJoCo (configured with JOINTLAB_BUILD_INTEROP=OFF; see README.md's setup)";
    return false;
}
bool ReferenceCsv::running() const {
    return false;
}
void ReferenceCsv::step(const World&) {}
std::string ReferenceCsv::summary() const {
    return "";
}
#endif

}  // namespace jl::runner
