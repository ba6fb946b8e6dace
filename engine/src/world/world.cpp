// The World: construction, snapshots, hashing and queries (the step: world/step.cpp).
#include "jointlab/world.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "jointlab/name_index.h"
#include "joints/lock_only.h"
#include "world/world_impl.h"

namespace jl {

// [SECTION] construction

World::World(Scene scene) : scene_(std::move(scene)), impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.scene = &scene_;
    const size_t nb = scene_.bodies.size();
    bodies_.resize(nb);
    m.mass.resize(nb);
    m.solverIndex.resize(nb);
    m.extForce.assign(nb, Vec3(0.0));
    m.extTorque.assign(nb, Vec3(0.0));
    m.contactImpulse.assign(nb * kMaxGroundContacts * 3, 0.0);
    m.nextContactImpulse.assign(nb * kMaxGroundContacts * 3, 0.0);
    int next = 1;
    for (size_t i = 0; i < nb; ++i) {
        const BodyDesc& b = scene_.bodies[i];
        m.mass[i] = computeMassProperties(b);
        const MassProperties& mp = m.mass[i];
        m.bodyConsts.push_back({glm::sqrt(safeInverse(mp.inertia)), glm::sqrt(mp.inertia),
                                mp.mass > 0 ? 1.0 / mp.mass : 0.0, b.linearDamping, b.angularDamping,
                                isDynamic(b)});
        m.solverIndex[i] = b.motion == MotionType::Static ? 0 : next++;
        bodies_[i].pose = {b.position, glm::normalize(b.orientation)};
        if (b.motion != MotionType::Static) {
            bodies_[i].linearVelocity = b.linearVelocity;
            bodies_[i].angularVelocity = b.angularVelocity;
        }
    }
    m.data.bodies.resize(static_cast<size_t>(next));
    m.data.info.resize(static_cast<size_t>(next));
    m.solverBodyCount = next;

    // Name → index once, so building a world is linear rather than a string search per joint.
    const NameIndex bodyByName(scene_.bodies);
    auto bodyIndex = [&bodyByName](const std::string& name) { return bodyByName.find(name); };
    const size_t nj = scene_.joints.size();
    joints_.resize(nj);
    m.jointBody0.resize(nj);
    m.jointBody1.resize(nj);
    m.jointSolver0.resize(nj);
    m.jointSolver1.resize(nj);
    m.jointKey0.resize(nj);
    m.jointKey1.resize(nj);
    m.jointBodies.resize(nj);
    m.jointFrames.resize(nj);
    m.jointX1.resize(nj);
    m.jointRowRange.resize(nj);
    m.colouredSkip.assign(nj, 0);
    m.jointLockPrep.assign(nj, 0);
    m.memory.assign(nj, JointMemory{});
    m.jointProjections.assign(nj, 0);
    for (size_t j = 0; j < nj; ++j) {
        const JointDesc& d = scene_.joints[j];
        m.jointBody0[j] = d.body0.empty() ? -1 : bodyIndex(d.body0);
        m.jointBody1[j] = d.body1.empty() ? -1 : bodyIndex(d.body1);
        m.jointFrames[j] = JointFrames{d.frame0,           d.frame1,        d.invMassScale0,
                                       d.invInertiaScale0, d.invMassScale1, d.invInertiaScale1};
        // length > +inf and length > NaN are never true: only other thresholds can break a joint
        const bool breakable = !(d.breakForce == kInf || std::isnan(d.breakForce)) ||
                               !(d.breakTorque == kInf || std::isnan(d.breakTorque));
        if (breakable) m.breakableJoints.push_back(static_cast<int>(j));
        // Joints the AVX2 set-up can prep itself (all rows lock parts: joints/lock_only.h). Not
        // breakable ones: the step reads their rows for the break test, and the batch's set-up
        // does not write rows (Impl::ensureLockRows).
        m.jointLockPrep[j] =
            breakable
                ? 0
                : static_cast<uint8_t>(std::visit([](const auto& p) { return lockOnlyParts(p); }, d.params));
        for (int side = 0; side < 2; ++side) {
            const int b = side == 0 ? m.jointBody0[j] : m.jointBody1[j];
            const int si = b >= 0 ? m.solverIndex[static_cast<size_t>(b)] : 0;
            (side == 0 ? m.jointSolver0 : m.jointSolver1)[j] = si;
            (side == 0 ? m.jointKey0 : m.jointKey1)[j] =
                b >= 0 && isDynamic(scene_.bodies[static_cast<size_t>(b)]) ? si : -1;
        }
        joints_[j].broken = d.startBroken;
        if (d.projection.enabled && d.typeInfo().projection.any())
            m.projectedJoints.push_back({static_cast<int>(j), d.typeInfo().projection,
                                         d.projection.linearTolerance, d.projection.angularTolerance});
        // Coupling joints (gear, rack-and-pinion) measure from the poses the scene starts in: the
        // same in every World built from the scene, so snapshots restore into a fresh World.
        JointMemory& mem = m.memory[j];
        mem.reference[0] =
            m.jointBody0[j] >= 0 ? bodies_[static_cast<size_t>(m.jointBody0[j])].pose : Transform{};
        mem.reference[1] =
            m.jointBody1[j] >= 0 ? bodies_[static_cast<size_t>(m.jointBody1[j])].pose : Transform{};
        mem.hasReference = true;
    }
    m.collider = std::make_unique<Collider>(scene_);
    // A scene saved mid-run: continue from its state (validateScene checked it fits the scene).
    if (scene_.state) {
        restore(*scene_.state);
        scene_.state.reset();
    }
}

World::~World() = default;

void World::applyScene(Scene scene, const Scene& previous) {
    scene.state.reset();  // the running state is kept below; a saved one does not apply to an edit
    World fresh(scene);
    const NameIndex oldBodies(scene_.bodies), previousBodies(previous.bodies), oldJoints(scene_.joints);
    for (size_t i = 0; i < fresh.bodies_.size(); ++i) {
        const BodyDesc& d = fresh.scene_.bodies[i];
        const int old = oldBodies.find(d.name);
        const int prev = previousBodies.find(d.name);
        if (old < 0) continue;
        const BodyDesc* before = prev >= 0 ? &previous.bodies[static_cast<size_t>(prev)] : nullptr;
        BodyState st = bodies_[static_cast<size_t>(old)];
        // Edited in the description: the edit wins over the running state.
        if (!before || before->position != d.position || before->orientation != d.orientation)
            st.pose = fresh.bodies_[i].pose;
        if (!before || before->linearVelocity != d.linearVelocity ||
            before->angularVelocity != d.angularVelocity) {
            st.linearVelocity = fresh.bodies_[i].linearVelocity;
            st.angularVelocity = fresh.bodies_[i].angularVelocity;
        }
        if (d.motion == MotionType::Static) st.linearVelocity = st.angularVelocity = Vec3(0.0);
        fresh.bodies_[i] = st;
    }
    for (size_t j = 0; j < fresh.joints_.size(); ++j) {
        const int old = oldJoints.find(fresh.scene_.joints[j].name);
        if (old < 0) continue;
        fresh.joints_[j].broken = joints_[static_cast<size_t>(old)].broken;
        fresh.impl_->memory[j] = impl_->memory[static_cast<size_t>(old)];
    }
    // The stored body contacts carry over when the bodies kept their places (an edit of a
    // body's properties, a joint's, a setting): their impulses warm-start the next step as before.
    bool samePlaces = fresh.scene_.bodies.size() == scene_.bodies.size();
    for (size_t i = 0; samePlaces && i < scene_.bodies.size(); ++i)
        samePlaces = fresh.scene_.bodies[i].name == scene_.bodies[i].name;
    // So do the ground contacts' impulses (keyed by body and feature): without them an edit (a
    // setting, or the stepper's switch to the reference kernel) restarted a resting stack's ground
    // contacts from zero.
    if (samePlaces) {
        fresh.impl_->bodyContacts = impl_->bodyContacts;
        fresh.impl_->contactImpulse = impl_->contactImpulse;
        fresh.impl_->contactImpulseDirty = impl_->contactImpulseDirty;
    }
    scene_ = std::move(fresh.scene_);
    bodies_ = std::move(fresh.bodies_);
    joints_ = std::move(fresh.joints_);
    impl_ = std::move(fresh.impl_);
    impl_->scene = &scene_;
}

// [SECTION] divergence, snapshots, hashing

bool World::recoverFromDivergence() {
    Impl& m = *impl_;
    int bad = -1;
    for (size_t i = 0; i < bodies_.size() && bad < 0; ++i) {
        const BodyState& b = bodies_[i];
        if (!isFinite(b.pose.p) || !isFinite(b.pose.q) || !isFinite(b.linearVelocity) ||
            !isFinite(b.angularVelocity))
            bad = static_cast<int>(i);
    }
    if (bad < 0) return false;
    // Blame the joint on that body that pushed hardest (or produced a non-finite impulse).
    m.ensureLockRows();
    int joint = -1;
    Real worst = -1.0;
    for (size_t j = 0; j < joints_.size(); ++j) {
        if (m.jointBody0[j] != bad && m.jointBody1[j] != bad) continue;
        const Impl::RowRange& range = m.jointRowRange[j];
        for (int k = range.first; k < range.first + range.count; ++k) {
            const Real l = m.impulse(static_cast<size_t>(k));
            const Real size = std::isfinite(l) ? std::abs(l) : kInf;
            if (size > worst) {
                worst = size;
                joint = static_cast<int>(j);
            }
        }
    }
    bodies_ = m.lastGood;
    std::fill(m.contactImpulse.begin(), m.contactImpulse.end(), 0.0);
    m.bodyContacts.clear();
    divergence_.step = stepCount_ + 1;
    divergence_.body = bad;
    divergence_.joint = joint;
    // The joint first: it is what the user has to change (its stiffness, mass scales, limits).
    const std::string step = std::to_string(divergence_.step);
    const std::string body = "body \"" + scene_.bodies[static_cast<size_t>(bad)].name + "\"";
    divergence_.message =
        (joint >= 0 ? "joint \"" + scene_.joints[static_cast<size_t>(joint)].name + "\" diverged at step " +
                          step + " (" + body + " became non-finite)"
                    : body + " became non-finite at step " + step + " (no joint on it)") +
        "; every body was put back to its state before that step";
    return true;
}

WorldSnapshot World::snapshot() const {
    WorldSnapshot s;
    s.stepCount = stepCount_;
    s.time = time_;
    s.bodies = bodies_;
    for (const JointState& j : joints_) s.broken.push_back(j.broken);
    for (const JointMemory& mem : impl_->memory)
        for (int k = 0; k < JointMemory::kSlots; ++k) {
            s.jointAngles.push_back(mem.angle[k]);
            s.jointAngleValid.push_back(mem.valid[k]);
        }
    s.contactImpulses = impl_->contactImpulse;
    s.bodyContacts = impl_->bodyContacts;
    s.breakEventCount = breakEvents_.size();
    return s;
}

void World::restore(const WorldSnapshot& s) {
    stepCount_ = s.stepCount;
    time_ = s.time;
    bodies_ = s.bodies;
    for (size_t j = 0; j < joints_.size() && j < s.broken.size(); ++j) joints_[j].broken = s.broken[j];
    impl_->brokenChanged = true;
    std::fill(impl_->jointProjections.begin(), impl_->jointProjections.end(), uint8_t{0});
    for (size_t j = 0; j < impl_->memory.size(); ++j)
        for (int k = 0; k < JointMemory::kSlots; ++k) {
            const size_t i = j * JointMemory::kSlots + static_cast<size_t>(k);
            if (i < s.jointAngles.size()) {
                impl_->memory[j].angle[k] = s.jointAngles[i];
                impl_->memory[j].valid[k] = s.jointAngleValid[i];
            }
        }
    if (s.contactImpulses.size() == impl_->contactImpulse.size()) impl_->contactImpulse = s.contactImpulses;
    impl_->contactImpulseDirty = true;
    impl_->bodyContacts = s.bodyContacts;
    if (s.breakEventCount <= breakEvents_.size()) breakEvents_.resize(s.breakEventCount);
    divergence_ = Divergence{};
}

uint64_t World::stateHash() const {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](Real x) {
        uint64_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        for (int i = 0; i < 8; ++i) {
            h ^= (bits >> (8 * i)) & 0xffu;
            h *= 1099511628211ull;
        }
    };
    for (const BodyState& b : bodies_) {
        for (int k = 0; k < 3; ++k) mix(b.pose.p[k]);
        mix(b.pose.q.w);
        mix(b.pose.q.x);
        mix(b.pose.q.y);
        mix(b.pose.q.z);
        for (int k = 0; k < 3; ++k) mix(b.linearVelocity[k]);
        for (int k = 0; k < 3; ++k) mix(b.angularVelocity[k]);
    }
    return h;
}

// [SECTION] queries and edits

void World::setBodyState(int body, const BodyState& s) {
    bodies_[static_cast<size_t>(body)] = s;
}

std::span<const Row> World::rows() const {
    impl_->ensureLockRows();
    return {impl_->rows.data(), static_cast<size_t>(impl_->jointRowCount)};
}
std::span<const RowResult> World::rowResults() const {
    impl_->ensureResults();
    return {impl_->results.data(),
            std::min(impl_->results.size(), static_cast<size_t>(impl_->jointRowCount))};
}
std::span<const Row> World::contactRows() const {
    const Impl& m = *impl_;
    return {m.rows.data() + m.jointRowCount, static_cast<size_t>(m.contactRowCount)};
}
std::span<const RowResult> World::contactRowResults() const {
    impl_->ensureResults();
    const Impl& m = *impl_;
    if (m.results.size() < static_cast<size_t>(m.jointRowCount + m.contactRowCount)) return {};
    return {m.results.data() + m.jointRowCount, static_cast<size_t>(m.contactRowCount)};
}
std::span<const Row> World::jointRows(int joint) const {
    const Impl::RowRange& range = impl_->jointRowRange[static_cast<size_t>(joint)];
    impl_->ensureLockRows();
    if (range.count == 0) return {};
    return {impl_->rows.data() + range.first, static_cast<size_t>(range.count)};
}
std::span<const RowResult> World::jointRowResults(int joint) const {
    const Impl::RowRange& range = impl_->jointRowRange[static_cast<size_t>(joint)];
    impl_->ensureResults();
    if (range.count == 0 || impl_->results.size() < static_cast<size_t>(range.first + range.count)) return {};
    return {impl_->results.data() + range.first, static_cast<size_t>(range.count)};
}

void World::restoreJoint(int joint) {
    setJointBroken(joint, false);
}
void World::resetJointMemory(int joint) {
    impl_->memory[static_cast<size_t>(joint)] = JointMemory{};
}
void World::setJointBroken(int joint, bool broken) {
    joints_[static_cast<size_t>(joint)].broken = broken;
    impl_->brokenChanged = true;
}

void World::applyForce(int body, const Vec3& force, const Vec3& worldPoint) {
    impl_->externalLoads = true;
    impl_->extForce[static_cast<size_t>(body)] += force;
    impl_->extTorque[static_cast<size_t>(body)] +=
        glm::cross(worldPoint - bodies_[static_cast<size_t>(body)].pose.p, force);
}

int World::jointProjections(int joint) const {
    return impl_->jointProjections[static_cast<size_t>(joint)];
}

int World::jointBody0(int joint) const {
    return impl_->jointBody0[static_cast<size_t>(joint)];
}
int World::jointBody1(int joint) const {
    return impl_->jointBody1[static_cast<size_t>(joint)];
}

std::span<const Real> World::lastResiduals() const {
    return impl_->data.residuals;
}

int World::contactRowCount() const {
    return impl_->contactRowCount;
}

std::vector<ContactPoint> World::contactPoints() const {
    const Impl& m = *impl_;
    std::vector<ContactPoint> out;
    out.reserve(m.contacts.size());
    for (const ContactRef& c : m.contacts) {
        ContactPoint p;
        if (c.stored >= 0 && static_cast<size_t>(c.stored) < m.bodyContacts.size()) {
            p.body0 = m.bodyContacts[static_cast<size_t>(c.stored)].body0;
            p.body1 = m.bodyContacts[static_cast<size_t>(c.stored)].body1;
        } else {
            p.body0 = c.key / kMaxGroundContacts;
        }
        const size_t f = static_cast<size_t>(c.firstRow);
        if (static_cast<size_t>(p.body0) < m.lastGood.size())
            p.point = m.lastGood[static_cast<size_t>(p.body0)].pose.p + c.rb.r0;
        p.normal = m.rows[f].linear0;
        p.separation = m.rows[f].geometricError;
        p.normalImpulse = m.impulse(f);
        p.frictionImpulse =
            m.impulse(f + 1) * m.rows[f + 1].linear0 + m.impulse(f + 2) * m.rows[f + 2].linear0;
        p.firstRow = c.firstRow - m.jointRowCount;
        p.friction = c.friction;
        out.push_back(p);
    }
    return out;
}

int World::activeJointRowCount() const {
    const Impl& m = *impl_;
    // Rows of lock batches whose reports are not written yet were counted by their set-up.
    const bool lockCounted = m.lockRowsPending;
    int n = lockCounted ? m.lockActiveRows : 0;
    for (size_t j = 0; j < m.jointRowRange.size(); ++j) {
        if (lockCounted && m.jointInLockBatch[j]) continue;
        const Impl::RowRange& range = m.jointRowRange[j];
        for (int k = range.first; k < range.first + range.count; ++k)
            n += (m.rowOut[static_cast<size_t>(k)].flags & solver::kSolveInactive) ? 0 : 1;
    }
    return n;
}

std::vector<int> World::jointsWithInactiveRows() const {
    const Impl& m = *impl_;
    int rowCount = 0;
    for (const Impl::RowRange& range : m.jointRowRange) rowCount += range.count;
    std::vector<int> joints;
    if (activeJointRowCount() == rowCount) return joints;
    for (size_t j = 0; j < m.jointRowRange.size(); ++j)
        for (const RowResult& r : jointRowResults(static_cast<int>(j)))
            if (!r.active) {
                joints.push_back(static_cast<int>(j));
                break;
            }
    return joints;
}

Real World::minRowResponse() {
    return solver::kMinResponse;
}

Real World::inverseMass(int body) const {
    const size_t i = static_cast<size_t>(body);
    return isDynamic(scene_.bodies[i]) && impl_->mass[i].mass > 0 ? 1.0 / impl_->mass[i].mass : 0.0;
}

Vec3 World::localInertia(int body) const {
    return impl_->mass[static_cast<size_t>(body)].inertia;
}

Real World::kineticEnergy() const {
    Real e = 0.0;
    for (size_t i = 0; i < bodies_.size(); ++i) {
        if (!isDynamic(scene_.bodies[i])) continue;
        const BodyState& st = bodies_[i];
        const Vec3 wLocal = glm::conjugate(st.pose.q) * st.angularVelocity;
        e += 0.5 * impl_->mass[i].mass * glm::length2(st.linearVelocity) +
             0.5 * glm::dot(wLocal, impl_->mass[i].inertia * wLocal);
    }
    return e;
}

Real World::potentialEnergy() const {
    Real e = 0.0;
    for (size_t i = 0; i < bodies_.size(); ++i)
        if (isDynamic(scene_.bodies[i]))
            e -= impl_->mass[i].mass * glm::dot(scene_.settings.gravity, bodies_[i].pose.p);
    return e;
}

void World::setRowTrace(std::function<void(const RowTrace&)> visit) {
    impl_->trace = std::move(visit);
}

}  // namespace jl
