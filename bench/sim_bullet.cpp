// The Bullet side of the benchmark (built when pkg-config finds `bullet`).
//
// Settings, all Bullet defaults unless said:
//   btDiscreteDynamicsWorld + btSequentialImpulseConstraintSolver, m_numIterations = N,
//   m_erp = 0.2 (joints) unless the run matches ERPs, m_globalCfm = 0, warm starting on (it applies
//   to contacts only: joint rows start from zero impulse every step, as in JointLab), split
//   impulse on (contacts only; there are none), m_leastSquaresResidualThreshold = 0 (an island
//   stops iterating once its residual is exactly 0: the iterations actually run are counted and
//   used for the per-iteration cost). No collision: performDiscreteCollisionDetection()
//   does nothing (no AABB update, broadphase or narrowphase), so a step is integration, joint
//   set-up (getInfo1/getInfo2), the iterations and write-back. Sleeping is disabled. Hinge limits
//   keep Bullet's defaults (softness 0.9, bias 0.3, relaxation 1); cones are btConeTwistConstraint
//   with twist free; prismatic drives are btGeneric6DofSpring2Constraint springs.
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpring2Constraint.h>
#include <btBulletDynamicsCommon.h>

#include <memory>
#include <string>

#include "sim.h"

namespace bench {

namespace {

btVector3 bt(const Vec3& v) {
    return btVector3(static_cast<btScalar>(v.x), static_cast<btScalar>(v.y), static_cast<btScalar>(v.z));
}
btQuaternion bt(const Quat& q) {
    return btQuaternion(static_cast<btScalar>(q.x), static_cast<btScalar>(q.y), static_cast<btScalar>(q.z),
                        static_cast<btScalar>(q.w));
}
btTransform bt(const Transform& t) {
    return btTransform(bt(t.q), bt(t.p));
}
Vec3 jlv(const btVector3& v) {
    return Vec3(v.x(), v.y(), v.z());
}

/// Bullet's solver, counting the row-iterations it actually runs: it stops iterating an island
/// once the residual is ≤ m_leastSquaresResidualThreshold (0 by default, i.e. exactly converged).
class CountingSolver final : public btSequentialImpulseConstraintSolver {
public:
    double rowIterations = 0;

protected:
    btScalar solveSingleIteration(int iteration, btCollisionObject** bodies, int numBodies,
                                  btPersistentManifold** manifolds, int numManifolds,
                                  btTypedConstraint** constraints, int numConstraints,
                                  const btContactSolverInfo& info, btIDebugDraw* debugDrawer) override {
        rowIterations += m_tmpSolverNonContactConstraintPool.size();
        return btSequentialImpulseConstraintSolver::solveSingleIteration(iteration, bodies, numBodies,
                                                                         manifolds, numManifolds, constraints,
                                                                         numConstraints, info, debugDrawer);
    }
};

/// A dynamics world with collision detection switched off: joints only, like the other engines.
class JointsOnlyWorld final : public btDiscreteDynamicsWorld {
public:
    using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;
    void performDiscreteCollisionDetection() override {}
};

class BulletSim final : public Sim {
public:
    BulletSim(const SceneSpec& s, const SimSettings& cfg) : dt_(static_cast<btScalar>(s.dt)) {
        dispatcher_ = std::make_unique<btCollisionDispatcher>(&collisionConfig_);
        world_ =
            std::make_unique<JointsOnlyWorld>(dispatcher_.get(), &broadphase_, &solver_, &collisionConfig_);
        world_->setGravity(bt(s.gravity));
        btContactSolverInfo& info = world_->getSolverInfo();
        info.m_numIterations = cfg.iterations;
        if (cfg.erp >= 0) info.m_erp = static_cast<btScalar>(cfg.erp);

        groundShape_ = std::make_unique<btSphereShape>(btScalar(0.1));
        ground_ = std::make_unique<btRigidBody>(btScalar(0), nullptr, groundShape_.get(), btVector3(0, 0, 0));
        world_->addRigidBody(ground_.get());

        bodies_.reserve(s.bodies.size());
        for (const BodySpec& b : s.bodies) {
            std::unique_ptr<btCollisionShape> shape;
            if (b.shape == Shape::Box)
                shape = std::make_unique<btBoxShape>(bt(b.halfExtents));
            else
                shape = std::make_unique<btSphereShape>(static_cast<btScalar>(b.radius));
            btRigidBody::btRigidBodyConstructionInfo ci(static_cast<btScalar>(b.mass), nullptr, shape.get(),
                                                        bt(b.inertia));
            ci.m_startWorldTransform = btTransform(bt(b.orientation), bt(b.position));
            auto body = std::make_unique<btRigidBody>(ci);
            body->setLinearVelocity(bt(b.linearVelocity));
            body->setAngularVelocity(bt(b.angularVelocity));
            body->setActivationState(DISABLE_DEACTIVATION);
            world_->addRigidBody(body.get());
            shapes_.push_back(std::move(shape));
            bodies_.push_back(std::move(body));
        }

        constraints_.reserve(s.joints.size());
        for (const JointSpec& j : s.joints) {
            btRigidBody& a = j.body0 < 0 ? *ground_ : *bodies_[static_cast<size_t>(j.body0)];
            btRigidBody& b = j.body1 < 0 ? *ground_ : *bodies_[static_cast<size_t>(j.body1)];
            std::unique_ptr<btTypedConstraint> c;
            switch (j.kind) {
                case JointKind::Revolute: {
                    const Vec3 axisA = j.frame0.q * Vec3(1, 0, 0), axisB = j.frame1.q * Vec3(1, 0, 0);
                    auto h = std::make_unique<btHingeConstraint>(a, b, bt(j.frame0.p), bt(j.frame1.p),
                                                                 bt(axisA), bt(axisB));
                    if (j.limit)
                        h->setLimit(static_cast<btScalar>(-j.limitAngle),
                                    static_cast<btScalar>(j.limitAngle));
                    c = std::move(h);
                    break;
                }
                case JointKind::Spherical:
                    if (j.cone) {
                        auto ct = std::make_unique<btConeTwistConstraint>(a, b, bt(j.frame0), bt(j.frame1));
                        ct->setLimit(static_cast<btScalar>(j.coneAngle), static_cast<btScalar>(j.coneAngle),
                                     BT_LARGE_FLOAT);
                        c = std::move(ct);
                    } else {
                        c = std::make_unique<btPoint2PointConstraint>(a, b, bt(j.frame0.p), bt(j.frame1.p));
                    }
                    break;
                case JointKind::Prismatic: {
                    auto g = std::make_unique<btGeneric6DofSpring2Constraint>(a, b, bt(j.frame0),
                                                                              bt(j.frame1), RO_XYZ);
                    g->setLinearLowerLimit(btVector3(1, 0, 0));  // lower > upper: X free
                    g->setLinearUpperLimit(btVector3(-1, 0, 0));
                    g->setAngularLowerLimit(btVector3(0, 0, 0));
                    g->setAngularUpperLimit(btVector3(0, 0, 0));
                    if (j.drive) {
                        g->enableSpring(0, true);
                        g->setStiffness(0, static_cast<btScalar>(j.stiffness));
                        g->setDamping(0, static_cast<btScalar>(j.damping));
                        g->setEquilibriumPoint(0, static_cast<btScalar>(j.target));
                    }
                    c = std::move(g);
                    break;
                }
            }
            world_->addConstraint(c.get(), true);
            constraints_.push_back(std::move(c));
        }
    }

    ~BulletSim() override {
        for (auto& c : constraints_) world_->removeConstraint(c.get());
        for (auto& b : bodies_) world_->removeRigidBody(b.get());
        world_->removeRigidBody(ground_.get());
    }

    /// Rows as the solver will count them this step (getInfo1 at the start-of-step poses).
    void beforeStep() override {
        rows_ = 0;
        for (auto& c : constraints_) {
            btTypedConstraint::btConstraintInfo1 info;
            c->getInfo1(&info);
            rows_ += info.m_numConstraintRows;
        }
    }
    void step() override { world_->stepSimulation(dt_, 0); }  // maxSubSteps = 0: exactly one step of dt
    void afterStep() override {
        iterationsDone_ = rows_ > 0 ? solver_.rowIterations / rows_ : 0.0;
        solver_.rowIterations = 0;
    }
    int rows() const override { return rows_; }
    double iterationsDone() const override { return iterationsDone_; }
    void state(std::vector<BodyState>& out) const override {
        out.resize(bodies_.size());
        for (size_t i = 0; i < bodies_.size(); ++i) {
            const btRigidBody& b = *bodies_[i];
            const btQuaternion q = b.getOrientation();
            out[i] = {jlv(b.getCenterOfMassPosition()), Quat(q.w(), q.x(), q.y(), q.z()),
                      jlv(b.getLinearVelocity()), jlv(b.getAngularVelocity())};
        }
    }

private:
    btScalar dt_;
    btDefaultCollisionConfiguration collisionConfig_;
    std::unique_ptr<btCollisionDispatcher> dispatcher_;
    btDbvtBroadphase broadphase_;
    CountingSolver solver_;
    std::unique_ptr<JointsOnlyWorld> world_;
    std::unique_ptr<btCollisionShape> groundShape_;
    std::unique_ptr<btRigidBody> ground_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btRigidBody>> bodies_;
    std::vector<std::unique_ptr<btTypedConstraint>> constraints_;
    int rows_ = 0;
    double iterationsDone_ = 0;
};

}  // namespace

std::unique_ptr<Sim> makeBulletSim(const SceneSpec& s, const SimSettings& settings) {
    return std::make_unique<BulletSim>(s, settings);
}

std::string bulletVersion() {
    const int v = btGetVersion();
    return "Bullet " + std::to_string(v / 100) + "." + std::to_string(v % 100) +
           (sizeof(btScalar) == 8 ? " (double precision)" : " (single precision)");
}

}  // namespace bench
