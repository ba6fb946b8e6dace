// The World: one fixed step, as a sequence of named stages (see world.h).
#include "jointlab/world.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string_view>

#include <glm/gtx/norm.hpp>

#include "contacts.h"
#include "solver.h"

namespace jl {

// [SECTION] runtime data

struct World::Impl {
    std::vector<MassProperties> mass;    // per scene body
    std::vector<int> solverIndex;        // scene body -> solver body (0 = static / world)
    std::vector<int> jointBody0, jointBody1;  // scene body index, -1 = world
    std::vector<Vec3> extForce, extTorque;    // user forces for the next step
    std::vector<JointMemory> memory;          // per joint: angles tracked through full turns
    std::vector<Row> rows;                    // joint rows, then ground contact rows: [0, rowCount)
    size_t rowCount = 0;                      // rows in use (the vector only grows: no per-step allocation)
    std::vector<solver::RowBodies> rowBodies;
    std::vector<RowResult> results;
    std::vector<int> contactKey;              // per contact row group: body * kMaxGroundContacts + feature
    std::vector<Real> contactImpulse;         // warm start: last step's impulses, 3 per (body, feature)
    std::vector<Real> nextContactImpulse;
    std::vector<BodyState> lastGood;          // body states before the current step
    int jointRowCount = 0;
    int contactRowCount = 0;
    solver::Data data;

    /// Room for `n` more rows at the end; the prep functions write straight into it.
    Row* reserveRows(size_t n) {
        if (rows.size() < rowCount + n) rows.resize(std::max(rows.size() * 2, rowCount + n));
        return rows.data() + rowCount;
    }
    Row& appendRow() {
        Row& r = *reserveRows(1);
        r = Row{};
        ++rowCount;
        return r;
    }
};

namespace {

constexpr Real kContactMargin = 0.02;  // speculative contact distance [m]
constexpr Real kContactSlop = 0.0;     // penetration left uncorrected, so resting contacts do not chatter [m]

bool isDynamic(const BodyDesc& b) { return b.motion == MotionType::Dynamic; }

/// R·diag(s)·Rᵀ: a symmetric world tensor from principal values in the body frame.
Mat3 worldTensor(const Quat& q, const Vec3& s) {
    const Mat3 R = glm::mat3_cast(q);
    Mat3 D(0.0);
    D[0][0] = s.x;
    D[1][1] = s.y;
    D[2][2] = s.z;
    return R * D * glm::transpose(R);
}

Vec3 safeInverse(const Vec3& v) {
    return Vec3(v.x > 0 ? 1.0 / v.x : 0.0, v.y > 0 ? 1.0 / v.y : 0.0, v.z > 0 ? 1.0 / v.z : 0.0);
}

Vec3 clampLength(const Vec3& v, Real maxLen) {
    const Real l2 = glm::length2(v);
    return l2 > maxLen * maxLen ? v * (maxLen / std::sqrt(l2)) : v;
}

}  // namespace

// [SECTION] construction

World::World(Scene scene) : scene_(std::move(scene)), impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
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
        m.solverIndex[i] = b.motion == MotionType::Static ? 0 : next++;
        bodies_[i].pose = {b.position, glm::normalize(b.orientation)};
        if (b.motion != MotionType::Static) {
            bodies_[i].linearVelocity = b.linearVelocity;
            bodies_[i].angularVelocity = b.angularVelocity;
        }
    }
    m.data.bodies.resize(static_cast<size_t>(next));
    m.data.info.resize(static_cast<size_t>(next));

    // Name → index once, so building a world is O(n log n) rather than a string search per joint.
    std::map<std::string_view, int> bodyByName;
    for (size_t i = 0; i < nb; ++i) bodyByName.emplace(scene_.bodies[i].name, static_cast<int>(i));
    auto bodyIndex = [&bodyByName](const std::string& name) {
        const auto it = bodyByName.find(name);
        return it == bodyByName.end() ? -1 : it->second;
    };
    const size_t nj = scene_.joints.size();
    joints_.resize(nj);
    m.jointBody0.resize(nj);
    m.jointBody1.resize(nj);
    m.memory.assign(nj, JointMemory{});
    for (size_t j = 0; j < nj; ++j) {
        const JointDesc& d = scene_.joints[j];
        m.jointBody0[j] = d.body0.empty() ? -1 : bodyIndex(d.body0);
        m.jointBody1[j] = d.body1.empty() ? -1 : bodyIndex(d.body1);
        joints_[j].broken = d.startBroken;
        // Coupling joints (gear, rack-and-pinion) measure from the poses the scene starts in: the
        // same in every World built from the scene, so snapshots restore into a fresh World.
        JointMemory& mem = m.memory[j];
        mem.reference[0] = m.jointBody0[j] >= 0 ? bodies_[static_cast<size_t>(m.jointBody0[j])].pose : Transform{};
        mem.reference[1] = m.jointBody1[j] >= 0 ? bodies_[static_cast<size_t>(m.jointBody1[j])].pose : Transform{};
        mem.hasReference = true;
    }
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
    for (size_t i = 0; i < fresh.bodies_.size(); ++i) {
        const BodyDesc& d = fresh.scene_.bodies[i];
        const int old = scene_.findBody(d.name);
        const int prev = previous.findBody(d.name);
        if (old < 0) continue;
        const BodyDesc* before = prev >= 0 ? &previous.bodies[static_cast<size_t>(prev)] : nullptr;
        BodyState st = bodies_[static_cast<size_t>(old)];
        // Edited in the description: the edit wins over the running state.
        if (!before || before->position != d.position || before->orientation != d.orientation)
            st.pose = fresh.bodies_[i].pose;
        if (!before || before->linearVelocity != d.linearVelocity || before->angularVelocity != d.angularVelocity) {
            st.linearVelocity = fresh.bodies_[i].linearVelocity;
            st.angularVelocity = fresh.bodies_[i].angularVelocity;
        }
        if (d.motion == MotionType::Static) st.linearVelocity = st.angularVelocity = Vec3(0.0);
        fresh.bodies_[i] = st;
    }
    for (size_t j = 0; j < fresh.joints_.size(); ++j) {
        const int old = scene_.findJoint(fresh.scene_.joints[j].name);
        if (old < 0) continue;
        fresh.joints_[j].broken = joints_[static_cast<size_t>(old)].broken;
        fresh.impl_->memory[j] = impl_->memory[static_cast<size_t>(old)];
    }
    scene_ = std::move(fresh.scene_);
    bodies_ = std::move(fresh.bodies_);
    joints_ = std::move(fresh.joints_);
    impl_ = std::move(fresh.impl_);
}

// [SECTION] step

void World::step() {
    Impl& m = *impl_;
    const WorldSettings& s = scene_.settings;
    const Real dt = s.dt;
    const bool tgs = s.solver == SolverType::TGS;
    solver::Params params{dt, std::max(1, s.posIters), std::max(0, s.velIters), s.effectiveBaumgarte(),
                          s.maxLinearSpeed, s.maxAngularSpeed};

    m.lastGood = bodies_;  // (no allocation once sized)

    // 1. external forces and damping -> v_pre; per-step body constants (inertia frozen, F "TGS").
    solver::Data& data = m.data;
    data.info[0] = solver::BodyInfo{};
    for (size_t i = 0; i < bodies_.size(); ++i) {
        const BodyDesc& desc = scene_.bodies[i];
        const BodyState& st = bodies_[i];
        const int si = m.solverIndex[i];
        if (si == 0) continue;
        solver::BodyInfo& info = data.info[static_cast<size_t>(si)];
        info.pose = st.pose;
        info.q0 = st.pose.q;
        if (isDynamic(desc)) {
            const MassProperties& mp = m.mass[i];
            const Vec3 invI = safeInverse(mp.inertia);
            info.dynamic = true;
            info.invMass = mp.mass > 0 ? 1.0 / mp.mass : 0.0;
            info.sqrtInvInertia = worldTensor(st.pose.q, glm::sqrt(invI));
            info.sqrtInertia = worldTensor(st.pose.q, glm::sqrt(mp.inertia));
            const Mat3 invInertia = worldTensor(st.pose.q, invI);
            Vec3 v = st.linearVelocity + dt * (s.gravity + info.invMass * m.extForce[i]);
            Vec3 w = st.angularVelocity + dt * (invInertia * m.extTorque[i]);
            v *= 1.0 / (1.0 + desc.linearDamping * dt);
            w *= 1.0 / (1.0 + desc.angularDamping * dt);
            info.vPre = v;
            info.wPre = w;
        } else {  // kinematic: infinitely heavy, moves at its set velocity; momocity = ω
            info.dynamic = false;
            info.invMass = 0.0;
            info.sqrtInvInertia = Mat3(1.0);
            info.sqrtInertia = Mat3(1.0);
            info.vPre = st.linearVelocity;
            info.wPre = st.angularVelocity;
        }
        m.extForce[i] = Vec3(0.0);
        m.extTorque[i] = Vec3(0.0);
    }

    // 2. prep: joints write their rows (PxConstraintShaderTable::solverPrep).
    m.rowCount = 0;
    m.rowBodies.clear();
    for (size_t j = 0; j < joints_.size(); ++j) {
        JointState& js = joints_[j];
        js.firstRow = static_cast<int>(m.rowCount);
        js.rowCount = 0;
        if (js.broken) continue;
        const JointDesc& d = scene_.joints[j];
        const int b0 = m.jointBody0[j], b1 = m.jointBody1[j];
        const Transform pose0 = b0 >= 0 ? bodies_[static_cast<size_t>(b0)].pose : Transform{};
        const Transform pose1 = b1 >= 0 ? bodies_[static_cast<size_t>(b1)].pose : Transform{};
        PrepContext ctx = PrepContext::make(pose0, d.frame0, pose1, d.frame1, dt);
        ctx.memory = &m.memory[j];
        RowWriter out{m.reserveRows(kMaxRowsPerJoint), kMaxRowsPerJoint};
        std::visit([&](const auto& params) { prep(params, ctx, out); }, d.params);
        const solver::RowBodies rb{b0 >= 0 ? m.solverIndex[static_cast<size_t>(b0)] : 0,
                                   b1 >= 0 ? m.solverIndex[static_cast<size_t>(b1)] : 0,
                                   d.invMassScale0, d.invInertiaScale0, d.invMassScale1, d.invInertiaScale1,
                                   ctx.r0, ctx.r1};
        m.rowBodies.insert(m.rowBodies.end(), static_cast<size_t>(out.count), rb);
        m.rowCount += static_cast<size_t>(out.count);
        js.rowCount = out.count;
    }
    m.jointRowCount = static_cast<int>(m.rowCount);

    // 2b. ground contacts: a normal row (C = height above the plane, impulse >= 0) and two
    // friction rows bounded by ±μ·(normal impulse) per support point below the margin.
    m.contactKey.clear();
    if (s.groundPlane) {
        for (size_t i = 0; i < bodies_.size(); ++i) {
            if (!isDynamic(scene_.bodies[i])) continue;
            GroundPoint pts[kMaxGroundContacts];
            const int n = groundContactPoints(scene_.bodies[i], bodies_[i].pose, kContactMargin, pts);
            for (int k = 0; k < n; ++k) {
                m.contactKey.push_back(static_cast<int>(i) * kMaxGroundContacts + pts[k].feature);
                const Vec3 r0 = pts[k].p - bodies_[i].pose.p;
                const solver::RowBodies rb{m.solverIndex[i], 0, 1.0, 1.0, 1.0, 1.0, r0, Vec3(0.0)};
                Row normal;
                normal.linear0 = Vec3(0, 1, 0);
                normal.angular0 = glm::cross(r0, normal.linear0);
                normal.linear1 = Vec3(0, 1, 0);
                normal.geometricError = pts[k].p.y;
                normal.minImpulse = 0.0;
                normal.flags = static_cast<uint16_t>(normal.geometricError > 0 ? kRowKeepBias : 0);
                if (s.groundRestitution > 0) {
                    normal.flags = kRowRestitution;
                    normal.mods.bounce.restitution = s.groundRestitution;
                    normal.mods.bounce.velocityThreshold = 0.5;
                }
                normal.solveHint = SolveHint::Inequality;
                normal.label = "ground normal";
                m.appendRow() = normal;
                m.rowBodies.push_back(rb);
                for (int t = 0; t < 2; ++t) {
                    Row f;
                    f.linear0 = t == 0 ? Vec3(1, 0, 0) : Vec3(0, 0, 1);
                    f.angular0 = glm::cross(r0, f.linear0);
                    f.linear1 = f.linear0;
                    f.label = t == 0 ? "ground friction X" : "ground friction Z";
                    m.appendRow() = f;
                    m.rowBodies.push_back(rb);
                }
            }
        }
    }
    m.contactRowCount = static_cast<int>(m.rowCount) - m.jointRowCount;

    // 3. solver setup
    data.rows.resize(m.rowCount);
    data.extra.resize(m.rowCount);
    for (size_t k = 0; k < m.rowCount; ++k)
        solver::setupRow(m.rows[k], m.rowBodies[k], data, params, tgs, data.rows[k], data.extra[k]);
    // Contacts are warm-started from the same body feature's impulses of the last step (joint
    // rows start from zero, as PhysX's joints do). Without it, 4 sweeps over a box's 12 coupled
    // rows leave a residual tangential velocity every step and a resting box creeps.
    for (size_t k = static_cast<size_t>(m.jointRowCount), c = 0; k < m.rowCount; k += 3, ++c) {
        const size_t key = static_cast<size_t>(m.contactKey[c]) * 3;
        data.rows[k].accum = data.rows[k].flags & solver::kSolveInactive ? 0.0 : m.contactImpulse[key];
        for (size_t t = 1; t <= 2; ++t) {
            solver::SolverRow& f = data.rows[k + t];
            f.flags |= solver::kSolveFriction;
            f.normalRow = static_cast<int>(k);
            f.frictionCoef = s.groundFriction;
            data.extra[k + t].erp = 0.0;
            const Real bound = s.groundFriction * data.rows[k].accum;
            f.accum = f.flags & solver::kSolveInactive ? 0.0 : std::clamp(m.contactImpulse[key + t], -bound, bound);
        }
    }

    // 4. solve
    if (tgs)
        solver::solveTGS(data, params);
    else
        solver::solvePGS(data, params);

    std::fill(m.nextContactImpulse.begin(), m.nextContactImpulse.end(), 0.0);
    for (size_t k = static_cast<size_t>(m.jointRowCount), c = 0; k < m.rowCount; k += 3, ++c)
        for (size_t t = 0; t < 3; ++t)
            m.nextContactImpulse[static_cast<size_t>(m.contactKey[c]) * 3 + t] = data.rows[k + t].accum;
    std::swap(m.contactImpulse, m.nextContactImpulse);

    // 5. write back, with the speed caps
    for (size_t i = 0; i < bodies_.size(); ++i) {
        const int si = m.solverIndex[i];
        if (si == 0) continue;
        BodyState& st = bodies_[i];
        st.pose = data.info[static_cast<size_t>(si)].pose;
        st.linearVelocity = clampLength(data.bodies[static_cast<size_t>(si)].linVel, s.maxLinearSpeed);
        st.angularVelocity = clampLength(data.bodies[static_cast<size_t>(si)].angVel, s.maxAngularSpeed);
    }
    if (recoverFromDivergence()) return;
    divergence_ = Divergence{};
    if (stepCount_ < INT64_MAX) ++stepCount_;  // saturates: a state loaded from a file may start anywhere
    time_ += dt;

    // 6. row results, force reporting (physx-joints-guide.md "Force Reporting") and breakage
    m.results.resize(m.rowCount);
    for (size_t k = 0; k < m.rowCount; ++k) {
        const Row& row = m.rows[k];
        const solver::SolverRow& sr = data.rows[k];
        const solver::SolverRowExtra& sx = data.extra[k];
        const solver::RowBodies& rb = m.rowBodies[k];
        const solver::Body& a = data.bodies[static_cast<size_t>(rb.b0)];
        const solver::Body& b = data.bodies[static_cast<size_t>(rb.b1)];
        RowResult& res = m.results[k];
        const Real h = tgs ? dt / params.posIters : dt;
        res.impulse = sr.accum;
        res.geometricError = row.geometricError;
        res.bias = sx.erp * row.geometricError / h;
        res.unitResponse = sr.response;
        res.active = !(sr.flags & solver::kSolveInactive);
        const Real jv = glm::dot(row.linear0, a.linVel) + glm::dot(row.angular0, a.angVel) -
                        glm::dot(row.linear1, b.linVel) - glm::dot(row.angular1, b.angVel);
        const Real lastBias = (sr.flags & solver::kSolveKeepBias) ? sx.erp * row.geometricError / dt : 0.0;
        res.velocityError = (sr.flags & solver::kSolveSpring) ? 0.0 : jv + lastBias - sx.velTarget;
        const Real eps = 1e-12 * (1.0 + std::abs(sr.accum));
        res.clamped = (std::isfinite(sr.minImpulse) && sr.accum <= sr.minImpulse + eps) ||
                      (std::isfinite(sr.maxImpulse) && sr.accum >= sr.maxImpulse - eps);
    }
    for (size_t j = 0; j < joints_.size(); ++j) {
        JointState& js = joints_[j];
        js.force = Vec3(0.0);
        js.torque = Vec3(0.0);
        if (js.broken) continue;
        const int b1 = m.jointBody1[j];
        const Vec3 x1 = b1 >= 0 ? bodies_[static_cast<size_t>(b1)].pose.p : Vec3(0.0);
        const Vec3 anchor1 = m.rowBodies.empty() || js.rowCount == 0
                                 ? x1
                                 : x1 + m.rowBodies[static_cast<size_t>(js.firstRow)].r1;
        Vec3 linImpulse(0.0), angImpulse(0.0);
        for (int k = js.firstRow; k < js.firstRow + js.rowCount; ++k) {
            const Row& row = m.rows[static_cast<size_t>(k)];
            if (!(row.flags & kRowOutputForce)) continue;
            const Real l = data.rows[static_cast<size_t>(k)].accum;
            // Impulse on body 1 is −λ·(linear1, angular1) about its centre of mass.
            linImpulse -= l * row.linear1;
            angImpulse -= l * row.angular1;
        }
        // Move the torque from body 1's centre of mass to its joint frame origin.
        const Vec3 torqueAtAnchor = angImpulse - glm::cross(anchor1 - x1, linImpulse);
        js.force = linImpulse / dt;
        js.torque = torqueAtAnchor / dt;
        const JointDesc& d = scene_.joints[j];
        if (glm::length(js.force) > d.breakForce || glm::length(js.torque) > d.breakTorque) {
            js.broken = true;
            breakEvents_.push_back({static_cast<int>(j), stepCount_, time_, js.force, js.torque});
        }
    }
}

// [SECTION] divergence, snapshots, hashing

bool World::recoverFromDivergence() {
    Impl& m = *impl_;
    int bad = -1;
    for (size_t i = 0; i < bodies_.size() && bad < 0; ++i) {
        const BodyState& b = bodies_[i];
        if (!isFinite(b.pose.p) || !isFinite(b.pose.q) || !isFinite(b.linearVelocity) || !isFinite(b.angularVelocity))
            bad = static_cast<int>(i);
    }
    if (bad < 0) return false;
    // Blame the joint on that body that pushed hardest (or produced a non-finite impulse).
    int joint = -1;
    Real worst = -1.0;
    for (size_t j = 0; j < joints_.size(); ++j) {
        if (m.jointBody0[j] != bad && m.jointBody1[j] != bad) continue;
        const JointState& js = joints_[j];
        for (int k = js.firstRow; k < js.firstRow + js.rowCount; ++k) {
            const Real l = m.data.rows[static_cast<size_t>(k)].accum;
            const Real size = std::isfinite(l) ? std::abs(l) : kInf;
            if (size > worst) {
                worst = size;
                joint = static_cast<int>(j);
            }
        }
    }
    bodies_ = m.lastGood;
    std::fill(m.contactImpulse.begin(), m.contactImpulse.end(), 0.0);
    divergence_.step = stepCount_ + 1;
    divergence_.body = bad;
    divergence_.joint = joint;
    divergence_.message = "step " + std::to_string(divergence_.step) + ": body \"" + scene_.bodies[static_cast<size_t>(bad)].name +
                          "\" became non-finite" +
                          (joint >= 0 ? " at joint \"" + scene_.joints[static_cast<size_t>(joint)].name + "\"" : std::string()) +
                          "; bodies were put back to the last good state";
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
    s.breakEventCount = breakEvents_.size();
    return s;
}

void World::restore(const WorldSnapshot& s) {
    stepCount_ = s.stepCount;
    time_ = s.time;
    bodies_ = s.bodies;
    for (size_t j = 0; j < joints_.size() && j < s.broken.size(); ++j) joints_[j].broken = s.broken[j];
    for (size_t j = 0; j < impl_->memory.size(); ++j)
        for (int k = 0; k < JointMemory::kSlots; ++k) {
            const size_t i = j * JointMemory::kSlots + static_cast<size_t>(k);
            if (i < s.jointAngles.size()) {
                impl_->memory[j].angle[k] = s.jointAngles[i];
                impl_->memory[j].valid[k] = s.jointAngleValid[i];
            }
        }
    if (s.contactImpulses.size() == impl_->contactImpulse.size()) impl_->contactImpulse = s.contactImpulses;
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

void World::setBodyState(int body, const BodyState& s) { bodies_[static_cast<size_t>(body)] = s; }

std::span<const Row> World::rows() const {
    return {impl_->rows.data(), static_cast<size_t>(impl_->jointRowCount)};
}
std::span<const RowResult> World::rowResults() const {
    return {impl_->results.data(), std::min(impl_->results.size(), static_cast<size_t>(impl_->jointRowCount))};
}
std::span<const Row> World::jointRows(int joint) const {
    const JointState& js = joints_[static_cast<size_t>(joint)];
    if (js.rowCount == 0) return {};
    return {impl_->rows.data() + js.firstRow, static_cast<size_t>(js.rowCount)};
}
std::span<const RowResult> World::jointRowResults(int joint) const {
    const JointState& js = joints_[static_cast<size_t>(joint)];
    if (js.rowCount == 0 || impl_->results.size() < static_cast<size_t>(js.firstRow + js.rowCount)) return {};
    return {impl_->results.data() + js.firstRow, static_cast<size_t>(js.rowCount)};
}

void World::restoreJoint(int joint) { setJointBroken(joint, false); }
void World::setJointBroken(int joint, bool broken) { joints_[static_cast<size_t>(joint)].broken = broken; }

void World::applyForce(int body, const Vec3& force, const Vec3& worldPoint) {
    impl_->extForce[static_cast<size_t>(body)] += force;
    impl_->extTorque[static_cast<size_t>(body)] += glm::cross(worldPoint - bodies_[static_cast<size_t>(body)].pose.p, force);
}

int World::jointBody0(int joint) const { return impl_->jointBody0[static_cast<size_t>(joint)]; }
int World::jointBody1(int joint) const { return impl_->jointBody1[static_cast<size_t>(joint)]; }

std::span<const Real> World::lastResiduals() const { return impl_->data.residuals; }

int World::contactRowCount() const { return impl_->contactRowCount; }

Real World::inverseMass(int body) const {
    const size_t i = static_cast<size_t>(body);
    return isDynamic(scene_.bodies[i]) && impl_->mass[i].mass > 0 ? 1.0 / impl_->mass[i].mass : 0.0;
}

Vec3 World::localInertia(int body) const { return impl_->mass[static_cast<size_t>(body)].inertia; }

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
        if (isDynamic(scene_.bodies[i])) e -= impl_->mass[i].mass * glm::dot(scene_.settings.gravity, bodies_[i].pose.p);
    return e;
}

}  // namespace jl
