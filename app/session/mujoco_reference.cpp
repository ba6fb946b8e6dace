// JointLab app — the MuJoCo reference beside the live run (session/mujoco_reference.h).
#include "session/mujoco_reference.h"

#include <algorithm>

#ifdef JOINTLAB_HAVE_INTEROP
#include "interop/reference_run.h"
#endif

namespace jl::app {

namespace {
const std::vector<std::string> kNone;
}

#ifdef JOINTLAB_HAVE_INTEROP
struct MujocoReference::Impl {
    std::unique_ptr<interop::ReferenceRun> run;
    std::string xml;  ///< the model it runs, as exported: an unchanged scene exports the same text
};
bool MujocoReference::available() {
    return true;
}
#else
struct MujocoReference::Impl {};
bool MujocoReference::available() {
    return false;
}
#endif

MujocoReference::MujocoReference() : impl_(std::make_unique<Impl>()) {}
MujocoReference::~MujocoReference() = default;

void MujocoReference::setEnabled(bool on, const World* world, uint64_t sceneRevision) {
    enabled_ = on;
    refusal_.clear();
#ifdef JOINTLAB_HAVE_INTEROP
    impl_->run.reset();
#endif
    bodies_.clear();
    steps_.clear();
    divergence_.clear();
    coords_.clear();
    jointNames_.clear();
    if (on) {
        if (world) start(*world, sceneRevision);
    }
}

bool MujocoReference::running() const {
#ifdef JOINTLAB_HAVE_INTEROP
    return enabled_ && impl_->run != nullptr;
#else
    return false;
#endif
}

void MujocoReference::start(const World& world, uint64_t sceneRevision) {
    revision_ = sceneRevision;
    steps_.clear();
    divergence_.clear();
    coords_.clear();
    jointNames_.clear();
    bodies_.clear();
#ifdef JOINTLAB_HAVE_INTEROP
    std::string error;
    impl_->xml = interop::exportScene(world.scene()).xml;
    impl_->run = interop::ReferenceRun::start(world, error);
    refusal_ = impl_->run ? "" : error;
    if (!impl_->run) return;
    for (const int j : impl_->run->comparedJoints())
        jointNames_.push_back(world.scene().joints[static_cast<size_t>(j)].name);
    updateBodies();
#else
    (void)world;
    refusal_ = "this build has no MuJoCo (configured with JOINTLAB_BUILD_INTEROP=OFF; see README.md's setup)";
#endif
}

ReferenceRecordView MujocoReference::recordView() const {
    ReferenceRecordView v;
    v.steps = steps_;
    v.divergence = divergence_;
    v.coordinates = coords_;
    v.joints = jointNames_;
    if (!enabled_)
        v.status = available() ? "off (Simulation > Reference: MuJoCo)"
                               : "this build has no MuJoCo (JOINTLAB_BUILD_INTEROP=OFF)";
    else if (!running())
        v.status = "cannot run this scene: " + refusal_;
    else if (steps_.empty())
        v.status = "no step since the reference started";
    return v;
}

void MujocoReference::sync(const World& world, bool jumped, uint64_t sceneRevision) {
    if (!enabled_) return;
#ifdef JOINTLAB_HAVE_INTEROP
    if (sceneRevision != revision_) {
        // The scene may have changed (an edit, a file) or not (the timeline took a World from the
        // history: a new revision with the same descriptions). The export, linear and without
        // MuJoCo's compiler, tells: the same model goes on from the live state, another is rebuilt.
        revision_ = sceneRevision;
        if (!impl_->run || interop::exportScene(world.scene()).xml != impl_->xml) {
            start(world, sceneRevision);
            return;
        }
        jumped = true;
    }
    if (!impl_->run) return;
    if (jumped) {
        // Back on the timeline or a reset: the record keeps what led there, MuJoCo starts again.
        while (!steps_.empty() && steps_.back() > world.stepCount()) {
            steps_.pop_back();
            divergence_.pop_back();
            coords_.resize(coords_.size() - 2 * jointNames_.size());
        }
        impl_->run->syncFrom(world);
    } else {
        impl_->run->step();
        record(world);
    }
    updateBodies();
#else
    (void)world;
    (void)jumped;
    (void)sceneRevision;
#endif
}

void MujocoReference::record(const World& world) {
#ifdef JOINTLAB_HAVE_INTEROP
    if (steps_.size() >= kMaxSamples) {
        const size_t drop = kMaxSamples / 2;
        steps_.erase(steps_.begin(), steps_.begin() + static_cast<std::ptrdiff_t>(drop));
        divergence_.erase(divergence_.begin(), divergence_.begin() + static_cast<std::ptrdiff_t>(drop));
        coords_.erase(coords_.begin(),
                      coords_.begin() + static_cast<std::ptrdiff_t>(drop * 2 * jointNames_.size()));
    }
    steps_.push_back(world.stepCount());
    divergence_.push_back(impl_->run->maxPositionDivergence(world));
    const std::vector<Real> a = impl_->run->jointlabCoordinates(world), b = impl_->run->mujocoCoordinates();
    for (size_t k = 0; k < a.size(); ++k) {
        coords_.push_back(a[k]);
        coords_.push_back(b[k]);
    }
#else
    (void)world;
#endif
}

void MujocoReference::updateBodies() {
#ifdef JOINTLAB_HAVE_INTEROP
    const interop::ReferenceRun& r = *impl_->run;
    // One pose per scene body (static ones as placed): the drawing indexes by scene body.
    bodies_.resize(r.bodyCount());
    for (size_t b = 0; b < bodies_.size(); ++b) bodies_[b].pose = r.bodyPose(static_cast<int>(b));
#endif
}

const std::vector<std::string>& MujocoReference::matched() const {
#ifdef JOINTLAB_HAVE_INTEROP
    if (impl_->run) return impl_->run->matched();
#endif
    return kNone;
}

const std::vector<std::string>& MujocoReference::differences() const {
#ifdef JOINTLAB_HAVE_INTEROP
    if (impl_->run) return impl_->run->differences();
#endif
    return kNone;
}

bool MujocoReference::diverged() const {
#ifdef JOINTLAB_HAVE_INTEROP
    return impl_->run && impl_->run->diverged();
#else
    return false;
#endif
}

bool MujocoReference::overflowed() const {
#ifdef JOINTLAB_HAVE_INTEROP
    return impl_->run && impl_->run->overflowed();
#else
    return false;
#endif
}

}  // namespace jl::app
