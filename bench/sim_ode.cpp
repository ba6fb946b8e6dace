// The ODE side of the benchmark (built when pkg-config finds `ode`).
//
// Settings, all ODE defaults unless said: dWorldQuickStep with N iterations, SOR over-relaxation
// w = 1.3, global ERP 0.2 (unless the run matches ERPs) and CFM 1e-10 (double precision build),
// no warm starting, rows reordered randomly every 8 iterations (seeded: runs repeat). No
// geometry at all, so no collision. Revolute = hinge (with stops), spherical = ball, a cone
// is a ball plus an Euler AMotor whose first two angles have stops at ±cone (a pyramid, ODE has
// no cone limit); prismatic drive = slider with both stops at the target and the stop ERP/CFM of
// an implicit spring (ERP = hk/(hk + c), CFM = 1/(hk + c), the ODE manual's recipe).
//
// Rows: ODE's getInfo1 is internal, so rows() applies its rules with public getters: hinge 5,
// + 1 when its angle is at or past a stop; ball 3; slider 5, + 1 at or past a stop; AMotor one
// per axis at or past a stop.
#include <ode/ode.h>
#include <ode/version.h>

#include <algorithm>
#include <string>

#include "sim.h"

namespace bench {

namespace {

struct OdeInit {
    OdeInit() { dInitODE2(0); }
    ~OdeInit() { dCloseODE(); }
};

struct OdeJoint {
    JointKind kind;
    dJointID joint = nullptr;
    dJointID motor = nullptr;  ///< cone: the Euler AMotor
    Real lo = 0, hi = 0;       ///< stops (hinge, slider)
    bool stops = false;
};

bool atStop(Real x, Real lo, Real hi) {
    return x <= lo || x >= hi;
}

class OdeSim final : public Sim {
public:
    OdeSim(const SceneSpec& s, const SimSettings& cfg) {
        static OdeInit init;
        dRandSetSeed(0);  // quickstep's random row order: the same for every run
        world_ = dWorldCreate();
        dWorldSetGravity(world_, s.gravity.x, s.gravity.y, s.gravity.z);
        dWorldSetQuickStepNumIterations(world_, cfg.iterations);
        if (cfg.erp >= 0) dWorldSetERP(world_, cfg.erp);
        dt_ = s.dt;

        bodies_.reserve(s.bodies.size());
        for (const BodySpec& b : s.bodies) {
            dBodyID body = dBodyCreate(world_);
            dMass m;
            dMassSetZero(&m);
            dMassSetParameters(&m, b.mass, 0, 0, 0, b.inertia.x, b.inertia.y, b.inertia.z, 0, 0, 0);
            dBodySetMass(body, &m);
            dBodySetPosition(body, b.position.x, b.position.y, b.position.z);
            const dQuaternion q = {b.orientation.w, b.orientation.x, b.orientation.y, b.orientation.z};
            dBodySetQuaternion(body, q);
            dBodySetLinearVel(body, b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z);
            dBodySetAngularVel(body, b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z);
            bodies_.push_back(body);
        }

        for (const JointSpec& j : s.joints) {
            dBodyID a = j.body0 < 0 ? nullptr : bodies_[static_cast<size_t>(j.body0)];
            dBodyID b = j.body1 < 0 ? nullptr : bodies_[static_cast<size_t>(j.body1)];
            const Vec3 ax = j.axes * Vec3(1, 0, 0);
            OdeJoint oj{j.kind};
            switch (j.kind) {
                case JointKind::Revolute:
                    oj.joint = dJointCreateHinge(world_, nullptr);
                    dJointAttach(oj.joint, a, b);
                    dJointSetHingeAnchor(oj.joint, j.anchor.x, j.anchor.y, j.anchor.z);
                    dJointSetHingeAxis(oj.joint, ax.x, ax.y, ax.z);
                    if (j.limit) {
                        oj.stops = true;
                        oj.lo = -j.limitAngle;
                        oj.hi = j.limitAngle;
                        dJointSetHingeParam(oj.joint, dParamLoStop, oj.lo);
                        dJointSetHingeParam(oj.joint, dParamHiStop, oj.hi);
                    }
                    break;
                case JointKind::Spherical:
                    oj.joint = dJointCreateBall(world_, nullptr);
                    dJointAttach(oj.joint, a, b);
                    dJointSetBallAnchor(oj.joint, j.anchor.x, j.anchor.y, j.anchor.z);
                    if (j.cone) {
                        // Euler AMotor: axis 0 = frame Z on body 0, axis 2 = the cone (twist) axis on
                        // body 1; angles 0 and 1 (the swings) have stops, angle 2 (twist) is free.
                        const Vec3 az = j.axes * Vec3(0, 0, 1);
                        oj.motor = dJointCreateAMotor(world_, nullptr);
                        dJointAttach(oj.motor, a, b);
                        dJointSetAMotorMode(oj.motor, dAMotorEuler);
                        dJointSetAMotorAxis(oj.motor, 0, 1, az.x, az.y, az.z);
                        dJointSetAMotorAxis(oj.motor, 2, 2, ax.x, ax.y, ax.z);
                        oj.lo = -j.coneAngle;
                        oj.hi = j.coneAngle;
                        dJointSetAMotorParam(oj.motor, dParamLoStop, oj.lo);
                        dJointSetAMotorParam(oj.motor, dParamHiStop, oj.hi);
                        dJointSetAMotorParam(oj.motor, dParamLoStop2, oj.lo);
                        dJointSetAMotorParam(oj.motor, dParamHiStop2, oj.hi);
                    }
                    break;
                case JointKind::Prismatic: {
                    oj.joint = dJointCreateSlider(world_, nullptr);
                    dJointAttach(oj.joint, a, b);
                    dJointSetSliderAxis(oj.joint, ax.x, ax.y, ax.z);  // the current offset is position 0
                    if (j.drive) {
                        // ODE's slider position grows as body 0 moves along the axis relative to
                        // body 1, i.e. it is −(d − d0) for JointLab's slide d = ax·(p1 − p0).
                        const Transform fa =
                            (j.body0 < 0 ? Transform{}
                                         : Transform{s.bodies[static_cast<size_t>(j.body0)].position,
                                                     s.bodies[static_cast<size_t>(j.body0)].orientation}) *
                            j.frame0;
                        const Transform fb =
                            (j.body1 < 0 ? Transform{}
                                         : Transform{s.bodies[static_cast<size_t>(j.body1)].position,
                                                     s.bodies[static_cast<size_t>(j.body1)].orientation}) *
                            j.frame1;
                        const Real d0 = glm::dot(fb.p - fa.p, ax);
                        const Real stop = -(j.target - d0);
                        const Real hk = s.dt * j.stiffness;
                        oj.stops = true;
                        oj.lo = oj.hi = stop;
                        dJointSetSliderParam(oj.joint, dParamLoStop, stop);
                        dJointSetSliderParam(oj.joint, dParamHiStop, stop);
                        dJointSetSliderParam(oj.joint, dParamStopERP, hk / (hk + j.damping));
                        dJointSetSliderParam(oj.joint, dParamStopCFM, 1.0 / (hk + j.damping));
                    }
                    break;
                }
            }
            joints_.push_back(oj);
        }
    }

    ~OdeSim() override { dWorldDestroy(world_); }

    void beforeStep() override {
        rows_ = 0;
        for (const OdeJoint& j : joints_) {
            switch (j.kind) {
                case JointKind::Revolute:
                    rows_ += 5 + (j.stops && atStop(dJointGetHingeAngle(j.joint), j.lo, j.hi) ? 1 : 0);
                    break;
                case JointKind::Spherical:
                    rows_ += 3;
                    break;
                case JointKind::Prismatic:
                    rows_ += 5 + (j.stops && atStop(dJointGetSliderPosition(j.joint), j.lo, j.hi) ? 1 : 0);
                    break;
            }
        }
    }
    void step() override { dWorldQuickStep(world_, dt_); }
    void afterStep() override {
        // The AMotor's Euler angles are the ones its getInfo1 computed at the start of this step.
        for (const OdeJoint& j : joints_)
            if (j.motor)
                for (int axis = 0; axis < 2; ++axis)
                    rows_ += atStop(dJointGetAMotorAngle(j.motor, axis), j.lo, j.hi) ? 1 : 0;
    }
    int rows() const override { return rows_; }
    void state(std::vector<BodyState>& out) const override {
        out.resize(bodies_.size());
        for (size_t i = 0; i < bodies_.size(); ++i) {
            const dReal* p = dBodyGetPosition(bodies_[i]);
            const dReal* q = dBodyGetQuaternion(bodies_[i]);
            const dReal* v = dBodyGetLinearVel(bodies_[i]);
            const dReal* w = dBodyGetAngularVel(bodies_[i]);
            out[i] = {Vec3(p[0], p[1], p[2]), Quat(q[0], q[1], q[2], q[3]), Vec3(v[0], v[1], v[2]),
                      Vec3(w[0], w[1], w[2])};
        }
    }

private:
    dWorldID world_ = nullptr;
    Real dt_ = 1.0 / 60.0;
    std::vector<dBodyID> bodies_;
    std::vector<OdeJoint> joints_;
    int rows_ = 0;
};

}  // namespace

std::unique_ptr<Sim> makeOdeSim(const SceneSpec& s, const SimSettings& settings) {
    return std::make_unique<OdeSim>(s, settings);
}

std::string odeVersion() {
    return std::string("ODE ") + dODE_VERSION +
           (sizeof(dReal) == 8 ? " (double precision)" : " (single precision)");
}

}  // namespace bench
