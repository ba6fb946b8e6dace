// jointlab_bench_contacts: a pile of 1000 mixed shapes (boxes, spheres, capsules, cylinders and
// convex hulls) dropped onto the ground and left to settle, in JointLab (PGS and TGS at their
// default iterations) and in Bullet (its btDiscreteDynamicsWorld at its default 10 iterations) —
// the per-step cost of body-body contacts, broad phase to solve, and how well each pile settled
// (make bench; docs/contacts.md).
//
//   jointlab_bench_contacts [--bodies N] [--steps S] [--md OUT.md]
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "jointlab/scene.h"
#include "jointlab/world.h"

namespace {

using namespace jl;
using Clock = std::chrono::steady_clock;

/// One body of the pile, described once and built in both engines.
struct Piece {
    ShapeType shape = ShapeType::Box;
    Vec3 halfExtents{0.2};
    Real radius = 0.2, halfHeight = 0.15;
    std::vector<Vec3> hull;
    Vec3 position{0.0};
    Quat orientation{1.0, 0.0, 0.0, 0.0};
    Real mass = 1.0;
};

/// A small deterministic generator (the same pile on every machine and run).
struct Lcg {
    uint64_t s = 0x9e3779b97f4a7c15ull;
    Real next() {  // in [0, 1)
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<Real>(s >> 11) * (1.0 / 9007199254740992.0);
    }
};

/// `n` shapes in layers of a 10 × 10 grid 0.7 m apart, the lowest layer 0.5 m up, each turned a
/// little at random so that they do not land flat on one another; shapes in turn: box, sphere,
/// capsule, cylinder, hull (an irregular 8-point hull).
std::vector<Piece> pile(int n) {
    std::vector<Piece> out;
    Lcg rng;
    for (int i = 0; i < n; ++i) {
        Piece p;
        const int layer = i / 100, cell = i % 100;
        p.position = Vec3(0.7 * (cell % 10 - 4.5), 0.5 + 0.7 * layer, 0.7 * (cell / 10 - 4.5));
        const Vec3 axis =
            glm::normalize(Vec3(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) + Vec3(1e-3));
        p.orientation = glm::angleAxis(0.6 * rng.next(), axis);
        switch (i % 5) {
            case 0:
                p.shape = ShapeType::Box;
                p.halfExtents =
                    Vec3(0.15 + 0.1 * rng.next(), 0.12 + 0.08 * rng.next(), 0.15 + 0.1 * rng.next());
                break;
            case 1:
                p.shape = ShapeType::Sphere;
                p.radius = 0.15 + 0.1 * rng.next();
                break;
            case 2:
                p.shape = ShapeType::Capsule;
                p.radius = 0.1 + 0.05 * rng.next();
                p.halfHeight = 0.1 + 0.1 * rng.next();
                break;
            case 3:
                p.shape = ShapeType::Cylinder;
                p.radius = 0.12 + 0.08 * rng.next();
                p.halfHeight = 0.1 + 0.1 * rng.next();
                break;
            default:
                p.shape = ShapeType::Hull;
                for (int k = 0; k < 8; ++k)
                    p.hull.push_back(Vec3((k & 1 ? 1 : -1) * (0.12 + 0.1 * rng.next()),
                                          (k & 2 ? 1 : -1) * (0.1 + 0.08 * rng.next()),
                                          (k & 4 ? 1 : -1) * (0.12 + 0.1 * rng.next())));
                break;
        }
        out.push_back(p);
    }
    return out;
}

Scene jointlabScene(const std::vector<Piece>& pieces, SolverType solver) {
    Scene s;
    s.settings.solver = solver;
    s.settings.groundPlane = true;
    s.settings.bodyCollisions = true;
    for (size_t i = 0; i < pieces.size(); ++i) {
        const Piece& p = pieces[i];
        BodyDesc b;
        b.name = "piece" + std::to_string(i);
        b.shape = p.shape;
        b.halfExtents = p.halfExtents;
        b.radius = p.radius;
        b.halfHeight = p.halfHeight;
        b.hullPoints = p.hull;
        b.mass = p.mass;
        b.position = p.position;
        b.orientation = p.orientation;
        s.bodies.push_back(b);
    }
    return s;
}

struct Result {
    std::string engine;
    std::vector<double> stepMs;
    int moving = 0;        ///< bodies faster than 0.1 m/s after the last step (spheres may roll on)
    double deepest = 0.0;  ///< the deepest overlap of any contact after the last step [m]
    double lowest = 0.0;   ///< the lowest body centre after the last step [m]
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}
double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0
                     : v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

Result runJointLab(const std::vector<Piece>& pieces, SolverType solver, int steps) {
    World w(jointlabScene(pieces, solver));
    Result r;
    r.engine = std::string("JointLab ") + (solver == SolverType::PGS ? "PGS" : "TGS") + " (" +
               std::to_string(w.scene().settings.posIters) + "+" +
               std::to_string(w.scene().settings.velIters) + ")";
    for (int i = 0; i < steps; ++i) {
        const auto t0 = Clock::now();
        w.step();
        r.stepMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        if (w.divergence()) {
            std::fprintf(stderr, "jointlab_bench_contacts: %s diverged at step %d\n", r.engine.c_str(), i);
            break;
        }
    }
    r.lowest = 1e9;
    for (const BodyState& b : w.bodies()) {
        r.moving += glm::length(b.linearVelocity) > 0.1 ? 1 : 0;
        r.lowest = std::min(r.lowest, b.pose.p.y);
    }
    for (const ContactPoint& c : w.contactPoints()) r.deepest = std::max(r.deepest, -c.separation);
    return r;
}

btVector3 bt(const Vec3& v) {
    return btVector3(static_cast<btScalar>(v.x), static_cast<btScalar>(v.y), static_cast<btScalar>(v.z));
}

/// Bullet with the same shapes, masses, poses, dt, gravity and friction (0.6), its solver at its
/// defaults (10 iterations, split impulse for penetrations), sleeping off (JointLab has none).
Result runBullet(const std::vector<Piece>& pieces, int steps) {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
    world.setGravity(btVector3(0, -9.81f, 0));
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btDefaultMotionState>> states;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    auto add = [&](btCollisionShape* shape, btScalar mass, const btTransform& pose) {
        shapes.emplace_back(shape);
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        states.push_back(std::make_unique<btDefaultMotionState>(pose));
        btRigidBody::btRigidBodyConstructionInfo info(mass, states.back().get(), shape, inertia);
        info.m_friction = 0.6f;
        bodies.push_back(std::make_unique<btRigidBody>(info));
        bodies.back()->setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(bodies.back().get());
    };
    add(new btStaticPlaneShape(btVector3(0, 1, 0), 0), 0, btTransform::getIdentity());
    for (const Piece& p : pieces) {
        btCollisionShape* shape = nullptr;
        switch (p.shape) {
            case ShapeType::Box:
                shape = new btBoxShape(bt(p.halfExtents));
                break;
            case ShapeType::Sphere:
                shape = new btSphereShape(static_cast<btScalar>(p.radius));
                break;
            case ShapeType::Capsule:
                shape = new btCapsuleShapeX(static_cast<btScalar>(p.radius),
                                            static_cast<btScalar>(2 * p.halfHeight));
                break;
            case ShapeType::Cylinder:
                shape = new btCylinderShapeX(btVector3(static_cast<btScalar>(p.halfHeight),
                                                       static_cast<btScalar>(p.radius),
                                                       static_cast<btScalar>(p.radius)));
                break;
            default: {
                auto* h = new btConvexHullShape();
                for (const Vec3& v : p.hull) h->addPoint(bt(v), false);
                h->recalcLocalAabb();
                shape = h;
            }
        }
        const btQuaternion q(static_cast<btScalar>(p.orientation.x), static_cast<btScalar>(p.orientation.y),
                             static_cast<btScalar>(p.orientation.z), static_cast<btScalar>(p.orientation.w));
        add(shape, static_cast<btScalar>(p.mass), btTransform(q, bt(p.position)));
    }
    Result r;
    r.engine = "Bullet " + std::to_string(BT_BULLET_VERSION / 100) + "." +
               std::to_string(BT_BULLET_VERSION % 100) + " (10 iterations)";
    const btScalar dt = 1.0f / 60.0f;
    for (int i = 0; i < steps; ++i) {
        const auto t0 = Clock::now();
        world.stepSimulation(dt, 0, dt);
        r.stepMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    r.lowest = 1e9;
    for (size_t i = 1; i < bodies.size(); ++i) {
        r.moving += bodies[i]->getLinearVelocity().length() > 0.1f ? 1 : 0;
        r.lowest = std::min(r.lowest, static_cast<double>(bodies[i]->getCenterOfMassPosition().y()));
    }
    for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
        const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(m);
        for (int k = 0; k < manifold->getNumContacts(); ++k)
            r.deepest = std::max(r.deepest, -static_cast<double>(manifold->getContactPoint(k).getDistance()));
    }
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    int n = 1000, steps = 600;
    const char* md = nullptr;
    for (int i = 1; i < argc; ++i) {
        const bool more = i + 1 < argc;
        if (!std::strcmp(argv[i], "--bodies") && more) {
            n = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--steps") && more) {
            steps = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--md") && more) {
            md = argv[++i];
        } else {
            std::fprintf(stderr, "usage: jointlab_bench_contacts [--bodies N] [--steps S] [--md OUT.md]\n");
            return 64;
        }
    }
    if (n < 1 || n > 100000 || steps < 1) {
        std::fprintf(stderr, "jointlab_bench_contacts: --bodies must be 1..100000 and --steps >= 1\n");
        return 64;
    }
    const std::vector<Piece> pieces = pile(n);
    std::vector<Result> results;
    results.push_back(runJointLab(pieces, SolverType::PGS, steps));
    results.push_back(runJointLab(pieces, SolverType::TGS, steps));
    results.push_back(runBullet(pieces, steps));
    const double bullet = median(results.back().stepMs);
    std::string table =
        "| engine | step median | step p95 | vs Bullet | still moving at the end | deepest overlap | lowest "
        "centre |\n"
        "|---|---:|---:|---:|---:|---:|---:|\n";
    for (const Result& r : results) {
        char line[512];
        std::snprintf(line, sizeof line,
                      "| %s | %.2f ms | %.2f ms | %.2f× | %d bodies > 0.1 m/s | %.1f mm | %.3f m |\n",
                      r.engine.c_str(), median(r.stepMs), percentile(r.stepMs, 0.95),
                      bullet > 0 ? median(r.stepMs) / bullet : 0.0, r.moving, 1000.0 * r.deepest, r.lowest);
        table += line;
    }
    std::printf("%s", table.c_str());
    if (md) {
        FILE* f = std::fopen(md, "w");
        if (!f) {
            std::fprintf(stderr, "jointlab_bench_contacts: cannot write %s\n", md);
            return 1;
        }
        std::fprintf(
            f,
            "# Contacts benchmark\n\nWritten by `make bench` (`jointlab_bench_contacts`): %d mixed shapes "
            "(boxes, spheres, capsules, cylinders, 8-point convex hulls; 1 kg each, turned a little at "
            "random) dropped in layers of 10 × 10 onto the ground and left to settle for %d steps at 60 Hz. "
            "The same pile in both engines; Bullet's bodies never sleep (JointLab has no sleeping). Step "
            "times are wall times on the machine that ran it, from the broad phase to the solve; the last "
            "three columns say how well the pile settled after the last step.\n\n%s",
            n, steps, table.c_str());
        std::fclose(f);
    }
    return 0;
}
