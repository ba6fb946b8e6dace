// The MuJoCo reference run (interop/reference_run.h).
#include "interop/reference_run.h"

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "interop/axes.h"

namespace jl::interop {

namespace {

Vec3 v3(const mjtNum* p) {
    return Vec3(p[0], p[1], p[2]);
}
void put(mjtNum* p, const Vec3& v) {
    p[0] = v.x;
    p[1] = v.y;
    p[2] = v.z;
}
void put(mjtNum* p, const Quat& q) {
    p[0] = q.w;
    p[1] = q.x;
    p[2] = q.y;
    p[3] = q.z;
}
std::string num(Real x) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", x);
    return b;
}

}  // namespace

std::unique_ptr<ReferenceRun> ReferenceRun::start(const World& world, std::string& error) {
    const Scene& scene = world.scene();
    MjcfExport e = exportScene(scene);
    if (!e.error.empty()) {
        error = e.error;
        return nullptr;
    }
    if (!e.loopJoint.empty()) {
        error = "joint \"" + e.loopJoint +
                "\" closes a loop: MuJoCo simulates a tree of joints, so the reference needs a scene whose "
                "joints "
                "form one";
        return nullptr;
    }
    if (!e.tooDeep.empty()) {
        error = e.tooDeep;
        return nullptr;
    }
    if (!e.tooLarge.empty()) {
        error = e.tooLarge;
        return nullptr;
    }
    if (!e.blocking.empty()) {
        error = "MuJoCo cannot hold this scene as JointLab runs it: " + e.blocking.front();
        return nullptr;
    }
    ModelPtr model = compileMjcfText(e.xml, "jointlab_reference.xml", error);
    if (!model) {
        error = "MuJoCo did not load the exported model: " + error;
        return nullptr;
    }
    std::unique_ptr<ReferenceRun> r(new ReferenceRun());
    r->scene_ = scene;
    r->scene_.state.reset();
    r->tree_ = std::move(e.tree);
    r->model_ = std::move(model);
    r->data_ = makeData(r->model_.get());
    if (!r->data_) {
        error = "MuJoCo could not allocate its data for the exported model";
        return nullptr;
    }
    const size_t nb = scene.bodies.size(), nj = scene.joints.size();
    r->mjBody_.assign(nb, 0);
    r->mjJoint_.assign(nb, -1);
    // MuJoCo numbers bodies in the XML's depth-first order (tree.order) and joints in the same walk,
    // one per body that has one: no name look-ups (MuJoCo's are linear, so n of them quadratic).
    int nextJoint = 0;
    for (size_t k = 0; k < r->tree_.order.size(); ++k) {
        const int b = r->tree_.order[k];
        r->mjBody_[static_cast<size_t>(b)] = static_cast<int>(k) + 1;
        const int j = r->tree_.joint[static_cast<size_t>(b)];
        const bool hasJoint = r->tree_.free[static_cast<size_t>(b)] ||
                              (j >= 0 && r->tree_.as[static_cast<size_t>(j)] != ExportedAs::Weld);
        if (hasJoint) r->mjJoint_[static_cast<size_t>(b)] = nextJoint++;
    }
    int fixed = 0;  // static and kinematic bodies: MuJoCo bodies after the moving ones
    for (size_t b = 0; b < nb; ++b) fixed += !r->tree_.moving[b];
    if (nextJoint != r->model_->njnt ||
        static_cast<int>(r->tree_.order.size()) + fixed + 1 != r->model_->nbody) {
        error = "MuJoCo's model does not have the bodies and joints that were written";
        return nullptr;
    }
    std::map<std::string, int> names;
    for (size_t b = 0; b < nb; ++b) names.emplace(scene.bodies[b].name, static_cast<int>(b));
    const auto index = [&](const std::string& n) {
        const auto it = names.find(n);
        return n.empty() || it == names.end() ? -1 : it->second;
    };
    r->body0_.resize(nj);
    r->body1_.resize(nj);
    for (size_t j = 0; j < nj; ++j) {
        r->body0_[j] = index(scene.joints[j].body0);
        r->body1_[j] = index(scene.joints[j].body1);
        const ExportedAs as = r->tree_.as[j];
        if (as == ExportedAs::Hinge || as == ExportedAs::Slide || as == ExportedAs::Ball)
            r->compared_.push_back(static_cast<int>(j));
    }

    // What was set to match, and what could not be.
    const WorldSettings& st = scene.settings;
    const Vec3 g = st.gravity;
    r->matched_ = {
        "time step: " + num(st.dt) + " s, one mj_step per JointLab step",
        "gravity: (" + num(g.x) + ", " + num(g.y) + ", " + num(g.z) +
            ") m/s^2 (Y-up; MuJoCo's is the same turned Z-up)",
        "integrator: MuJoCo's Euler (semi-implicit, like JointLab's step: velocities, then positions)",
        "masses, inertias (JointLab's principal moments) and poses: as in the scene",
        std::string("contacts: ") + (st.groundPlane || st.bodyCollisions
                                         ? std::string(st.groundPlane ? "ground plane" : "") +
                                               (st.groundPlane && st.bodyCollisions ? " and " : "") +
                                               (st.bodyCollisions ? "body contacts" : "") + " in both"
                                         : "off in both"),
    };
    int drives = 0;
    for (const JointDesc& j : scene.joints) {
        if (const auto* h = std::get_if<RevoluteJoint>(&j.params)) drives += h->drive.enabled;
        if (const auto* p = std::get_if<PrismaticJoint>(&j.params)) drives += p->drive.enabled;
    }
    if (drives > 0)
        r->matched_.push_back("joint springs and damping: " + std::to_string(drives) +
                              " drive(s) as MuJoCo joint stiffness and damping");
    r->differences_ = groupedLines(e.notes);
    r->differences_.insert(r->differences_.begin(),
                           std::string("JointLab solves its joints' rows (") +
                               kSolverTypeNames[static_cast<int>(st.solver)] + ", " +
                               std::to_string(st.posIters) +
                               " position iterations), so its joints have an error; MuJoCo's joint "
                               "coordinates have none");
    if (!st.gyroscopic) r->differences_.push_back("JointLab's gyroscopic term is off; MuJoCo always has it");
    for (const JointDesc& j : scene.joints)
        if (std::isfinite(j.breakForce) || std::isfinite(j.breakTorque)) {
            r->differences_.push_back("break thresholds: MuJoCo's joints never break");
            break;
        }
    r->differences_.push_back("JointLab caps speeds at " + num(st.maxLinearSpeed) + " m/s and " +
                              num(st.maxAngularSpeed) + " rad/s; MuJoCo does not");
    r->syncFrom(world);
    return r;
}

void ReferenceRun::syncFrom(const World& world) {
    mjModel* m = model_.get();
    mjData* d = data_.get();
    mj_resetData(m, d);
    const auto bodies = world.bodies();
    const auto poseOf = [&](int b) { return b < 0 ? Transform{} : bodies[static_cast<size_t>(b)].pose; };
    const auto omegaOf = [&](int b) {
        return b < 0 ? Vec3(0.0) : bodies[static_cast<size_t>(b)].angularVelocity;
    };
    const auto velocityAt = [&](int b, const Vec3& point) {
        if (b < 0) return Vec3(0.0);
        const BodyState& s = bodies[static_cast<size_t>(b)];
        return s.linearVelocity + glm::cross(s.angularVelocity, point - s.pose.p);
    };
    for (const int b : tree_.order) {
        const int jid = mjJoint_[static_cast<size_t>(b)];
        if (jid < 0) continue;
        const int qa = m->jnt_qposadr[jid], va = m->jnt_dofadr[jid];
        const BodyState& s = bodies[static_cast<size_t>(b)];
        if (tree_.free[static_cast<size_t>(b)]) {
            put(d->qpos + qa, toZUp(s.pose.p));
            put(d->qpos + qa + 3, toZUp(s.pose.q));
            put(d->qvel + va, toZUp(s.linearVelocity));
            put(d->qvel + va + 3, glm::conjugate(s.pose.q) * s.angularVelocity);  // body axes
            continue;
        }
        const int j = tree_.joint[static_cast<size_t>(b)];
        const JointDesc& jd = scene_.joints[static_cast<size_t>(j)];
        const int sign = tree_.sign[static_cast<size_t>(j)];
        const int b0 = body0_[static_cast<size_t>(j)], b1 = body1_[static_cast<size_t>(j)];
        const Transform f0 = poseOf(b0) * jd.frame0, f1 = poseOf(b1) * jd.frame1;
        const Vec3 axis = f0.rotate(Vec3(1, 0, 0));
        switch (tree_.as[static_cast<size_t>(j)]) {
            case ExportedAs::Hinge:
                d->qpos[qa] = sign * jointCoordinate(jd, poseOf(b0), poseOf(b1));
                d->qvel[va] = sign * glm::dot(omegaOf(b1) - omegaOf(b0), axis);
                break;
            case ExportedAs::Slide: {
                d->qpos[qa] = sign * jointCoordinate(jd, poseOf(b0), poseOf(b1));
                // d/dt of (p1 − p0)·x0: the points' relative velocity along x0, and x0 turning.
                const Real rate = glm::dot(velocityAt(b1, f1.p) - velocityAt(b0, f0.p), axis) +
                                  glm::dot(f1.p - f0.p, glm::cross(omegaOf(b0), axis));
                d->qvel[va] = sign * rate;
                break;
            }
            case ExportedAs::Ball: {
                // The child's rotation from where the XML put it, relative to its MuJoCo parent, in
                // the child's axes; its angular velocity relative to the parent's, in the same axes.
                const int p = tree_.parent[static_cast<size_t>(b)];
                const BodyDesc& cd = scene_.bodies[static_cast<size_t>(b)];
                const Quat parentStart =
                    p < 0 ? kIdentityQuat : scene_.bodies[static_cast<size_t>(p)].orientation;
                const Quat parentNow = p < 0 ? kIdentityQuat : bodies[static_cast<size_t>(p)].pose.q;
                const Quat relStart = glm::conjugate(parentStart) * cd.orientation;
                const Quat relNow = glm::conjugate(parentNow) * s.pose.q;
                put(d->qpos + qa, glm::normalize(glm::conjugate(relStart) * relNow));
                put(d->qvel + va, glm::conjugate(s.pose.q) * (s.angularVelocity - omegaOf(p)));
                break;
            }
            default:
                break;
        }
    }
    mj_forward(m, d);
    steps_ = world.stepCount();
}

void ReferenceRun::step() {
    // mj_step computes the poses (xpos, xquat) of the state it starts from, then integrates: the
    // poses it leaves are a step old. Forward kinematics brings them to the new qpos.
    mj_step(model_.get(), data_.get());
    mj_kinematics(model_.get(), data_.get());
    ++steps_;
}

bool ReferenceRun::diverged() const {
    return data_->warning[mjWARN_BADQACC].number > 0;
}

bool ReferenceRun::overflowed() const {
    return data_->warning[mjWARN_CNSTRFULL].number > 0 || data_->warning[mjWARN_CONTACTFULL].number > 0;
}

Transform ReferenceRun::bodyPose(int b) const {
    if (b < 0) return {};
    const int mb = mjBody_[static_cast<size_t>(b)];
    if (mb == 0) {
        const BodyDesc& d = scene_.bodies[static_cast<size_t>(b)];
        return {d.position, d.orientation};
    }
    const mjtNum* q = data_->xquat + 4 * mb;
    return {toYUp(v3(data_->xpos + 3 * mb)), toYUp(Quat(q[0], q[1], q[2], q[3]))};
}

Real ReferenceRun::maxPositionDivergence(const World& world) const {
    Real worst = 0.0;
    const auto bodies = world.bodies();
    for (const int b : tree_.order)
        worst = std::max(worst, glm::length(bodies[static_cast<size_t>(b)].pose.p - bodyPose(b).p));
    return worst;
}

std::vector<Real> ReferenceRun::jointlabCoordinates(const World& world) const {
    const auto bodies = world.bodies();
    const auto poseOf = [&](int b) { return b < 0 ? Transform{} : bodies[static_cast<size_t>(b)].pose; };
    std::vector<Real> out;
    out.reserve(compared_.size());
    for (const int j : compared_)
        out.push_back(jointCoordinate(scene_.joints[static_cast<size_t>(j)],
                                      poseOf(body0_[static_cast<size_t>(j)]),
                                      poseOf(body1_[static_cast<size_t>(j)])));
    return out;
}

std::vector<Real> ReferenceRun::mujocoCoordinates() const {
    std::vector<Real> out;
    out.reserve(compared_.size());
    for (const int j : compared_)
        out.push_back(jointCoordinate(scene_.joints[static_cast<size_t>(j)],
                                      bodyPose(body0_[static_cast<size_t>(j)]),
                                      bodyPose(body1_[static_cast<size_t>(j)])));
    return out;
}

}  // namespace jl::interop
