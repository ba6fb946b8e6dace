// The JointLab side of the benchmark: a jl::Scene built from the SceneSpec, ground plane off.
#include <string>

#include "jointlab/scene.h"
#include "jointlab/world.h"
#include "sim.h"

namespace bench {

namespace {

/// prefix + i ("b12"), appending so g++ 12 does not raise a -Wrestrict false positive.
std::string indexed(const char* prefix, int i) {
    std::string s = prefix;
    s += std::to_string(i);
    return s;
}

jl::Scene toScene(const SceneSpec& s, const SimSettings& cfg, bool tgs, int threads) {
    jl::Scene scene;
    scene.description = s.description;
    jl::WorldSettings& w = scene.settings;
    w.dt = s.dt;
    w.posIters = cfg.iterations;
    w.velIters = cfg.velIters;
    w.gravity = s.gravity;
    w.solver = tgs ? jl::SolverType::TGS : jl::SolverType::PGS;
    w.groundPlane = false;  // no contacts in any engine
    w.threads = threads;
    w.rowOrder = cfg.order;
    w.pointSolve = cfg.pointSolve;
    w.correction = cfg.correction;
    if (cfg.erp >= 0) {
        w.autoBaumgarte = false;
        w.baumgarte = cfg.erp;
    }
    scene.bodies.reserve(s.bodies.size());
    for (size_t i = 0; i < s.bodies.size(); ++i) {
        const BodySpec& b = s.bodies[i];
        jl::BodyDesc d;
        d.name = indexed("b", static_cast<int>(i));
        d.shape = b.shape == Shape::Box ? jl::ShapeType::Box : jl::ShapeType::Sphere;
        d.halfExtents = b.halfExtents;
        d.radius = b.radius;
        d.mass = b.mass;
        d.position = b.position;
        d.orientation = b.orientation;
        d.linearVelocity = b.linearVelocity;
        d.angularVelocity = b.angularVelocity;
        scene.bodies.push_back(d);
    }
    scene.joints.reserve(s.joints.size());
    for (size_t i = 0; i < s.joints.size(); ++i) {
        const JointSpec& j = s.joints[i];
        jl::JointDesc d;
        d.name = indexed("j", static_cast<int>(i));
        d.body0 = j.body0 < 0 ? std::string() : indexed("b", j.body0);
        d.body1 = j.body1 < 0 ? std::string() : indexed("b", j.body1);
        d.frame0 = j.frame0;
        d.frame1 = j.frame1;
        switch (j.kind) {
            case JointKind::Revolute: {
                jl::RevoluteJoint p;
                p.limit.enabled = j.limit;
                p.limit.lower = -j.limitAngle;
                p.limit.upper = j.limitAngle;
                d.params = p;
                break;
            }
            case JointKind::Spherical: {
                jl::SphericalJoint p;
                p.cone.enabled = j.cone;
                p.cone.yAngle = p.cone.zAngle = j.coneAngle;
                d.params = p;
                break;
            }
            case JointKind::Prismatic: {
                jl::PrismaticJoint p;
                p.drive.enabled = j.drive;
                p.drive.stiffness = j.stiffness;
                p.drive.damping = j.damping;
                p.driveTarget = j.target;
                d.params = p;
                break;
            }
        }
        scene.joints.push_back(std::move(d));
    }
    return scene;
}

class JointLabSim final : public Sim {
public:
    JointLabSim(const SceneSpec& s, const SimSettings& cfg, bool tgs, int threads)
        : world_(toScene(s, cfg, tgs, threads)), threads_(threads) {}

    void step() override { world_.step(); }
    void afterStep() override {
        // (not by counting rowResults(): that builds every row view, which the step itself
        // leaves out, and the next timed step would start with a cache full of them)
        rows_ = world_.activeJointRowCount();
    }
    int rows() const override { return rows_; }
    bool multiThreaded() const override { return threads_ > 1; }
    void state(std::vector<BodyState>& out) const override {
        const auto bodies = world_.bodies();
        out.resize(bodies.size());
        for (size_t i = 0; i < bodies.size(); ++i)
            out[i] = {bodies[i].pose.p, bodies[i].pose.q, bodies[i].linearVelocity,
                      bodies[i].angularVelocity};
    }

private:
    jl::World world_;
    int threads_ = 1;
    int rows_ = 0;
};

}  // namespace

std::unique_ptr<Sim> makeJointLabSim(const SceneSpec& s, const SimSettings& settings, bool tgs, int threads) {
    return std::make_unique<JointLabSim>(s, settings, tgs, threads);
}

}  // namespace bench
