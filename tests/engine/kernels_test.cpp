// The reference kernel (engine/src/solver/reference/) and the fast kernel (solver/fast/) solve the
// same rows in the same order: on every example and on scenes that exercise the parallel solve
// and the row orders, after 10 steps every body's position and velocity agree within 1e-9 and
// every joint row's impulse within 1e-9 (relative above 1 N·s). They are not bit-identical: the
// fast PGS finds each row's velocity through its batch's row couplings (docs/performance.md) and
// the AVX2 set-up groups its sums differently, which moves the last bits; 1e-9 is six orders of
// magnitude above the differences seen (~1e-15 per step) and six below any joint error a scene
// shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> examples() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(fs::path(JOINTLAB_SOURCE_DIR) / "assets" / "scenarios"))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

/// Largest difference between the two worlds' body states and joint row impulses.
struct Difference {
    Real position = 0.0, velocity = 0.0, impulse = 0.0;
};

Difference compare(const World& a, const World& b) {
    Difference d;
    for (size_t i = 0; i < a.bodies().size(); ++i) {
        const BodyState &x = a.bodies()[i], &y = b.bodies()[i];
        d.position = std::max(d.position, glm::length(x.pose.p - y.pose.p));
        d.position = std::max(d.position, std::abs(std::abs(glm::dot(x.pose.q, y.pose.q)) - 1.0));
        d.velocity = std::max(d.velocity, glm::length(x.linearVelocity - y.linearVelocity));
        d.velocity = std::max(d.velocity, glm::length(x.angularVelocity - y.angularVelocity));
    }
    const auto ra = a.rowResults(), rb = b.rowResults();
    EXPECT_EQ(ra.size(), rb.size());
    for (size_t k = 0; k < std::min(ra.size(), rb.size()); ++k)
        d.impulse = std::max(
            d.impulse, std::abs(ra[k].impulse - rb[k].impulse) / std::max(1.0, std::abs(ra[k].impulse)));
    return d;
}

/// Runs `scene` 10 steps with each kernel and expects them to agree.
void expectKernelsAgree(Scene scene, const std::string& what) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        scene.settings.solver = solver;
        scene.settings.kernel = KernelType::Fast;
        World fast(scene);
        scene.settings.kernel = KernelType::Reference;
        World reference(scene);
        Difference worst;
        for (int i = 0; i < 10; ++i) {
            fast.step();
            reference.step();
            const Difference d = compare(fast, reference);
            worst.position = std::max(worst.position, d.position);
            worst.velocity = std::max(worst.velocity, d.velocity);
            worst.impulse = std::max(worst.impulse, d.impulse);
        }
        const std::string label = what + " " + kSolverTypeNames[int(solver)];
        EXPECT_LE(worst.position, 1e-9) << label;
        EXPECT_LE(worst.velocity, 1e-9) << label;
        EXPECT_LE(worst.impulse, 1e-9) << label;
        EXPECT_EQ(fast.stepCount(), 10) << label;  // neither diverged and reset
        EXPECT_EQ(reference.stepCount(), 10) << label;
        std::printf("%-28s position %.1e m, velocity %.1e m/s, impulse %.1e\n", label.c_str(), worst.position,
                    worst.velocity, worst.impulse);
    }
}

TEST(Kernels, ReferenceAndFastAgreeOnEveryExample) {
    const std::vector<fs::path> files = examples();
    ASSERT_GE(files.size(), 10u);
    for (const fs::path& file : files) {
        Scene scene;
        std::string error;
        ASSERT_TRUE(loadScenario(file.string(), scene, error)) << error;
        expectKernelsAgree(scene, file.stem().string());
    }
}

// The same under PGS's rattle correction, whose position pass runs after either kernel (TGS solves
// rattle as relax).
TEST(Kernels, ReferenceAndFastAgreeUnderRattle) {
    for (const fs::path& file : examples()) {
        Scene scene;
        std::string error;
        ASSERT_TRUE(loadScenario(file.string(), scene, error)) << error;
        scene.settings.correction = Correction::Rattle;
        expectKernelsAgree(scene, file.stem().string() + " rattle");
    }
}

/// A hanging chain of `n` boxes on hinges, released sideways so that every row works.
Scene chain(int n) {
    Scene s;
    const Quat hinge = test::axisAngle(Vec3(0, 1, 0), -kPi / 2);
    std::string prev;
    for (int i = 0; i < n; ++i) {
        const std::string name = test::indexed("link", i);
        s.bodies.push_back(
            test::box(name, Vec3(0.25 + 0.5 * i, 30.0, 0), Vec3(0.25, 0.05, 0.05), 1.0 + (i % 3)));
        s.joints.push_back(test::joint<RevoluteJoint>(s, test::indexed("hinge", i), prev, name,
                                                      Vec3(0.5 * i, 30.0, 0), hinge, RevoluteJoint{}));
        prev = name;
    }
    return s;
}

TEST(Kernels, ReferenceFollowsEveryRowOrder) {
    for (SolverOrder order : {SolverOrder::Coloured, SolverOrder::Wavefront, SolverOrder::Sequential}) {
        Scene s = chain(40);
        s.settings.rowOrder = order;
        expectKernelsAgree(s, std::string("chain40 ") + kSolverOrderNames[int(order)]);
    }
}

TEST(Kernels, ReferenceFollowsTheParallelSolvesOrder) {
    // 200 joints on 2 threads: two parts and the joints between them, which the fast kernel
    // sweeps first (solver/fast/fast.h sweepTask); the reference kernel sweeps in that order.
    Scene s = chain(200);
    s.settings.threads = 2;
    expectKernelsAgree(s, "chain200 threads 2");
}

TEST(Kernels, TheReferenceKernelIsWhatRuns) {
    // The kernel setting changes which code solves: with the row order changed, the reference
    // kernel's result moves as the fast kernel's does (Gauss-Seidel depends on the order), so
    // the setting is not ignored.
    Scene s = chain(40);
    s.settings.kernel = KernelType::Reference;
    World coloured(s);
    s.settings.rowOrder = SolverOrder::Sequential;
    World sequential(s);
    for (int i = 0; i < 60; ++i) coloured.step(), sequential.step();
    EXPECT_NE(coloured.stateHash(), sequential.stateHash());
    // And it is deterministic: the same scene gives the same bits.
    s.settings.rowOrder = SolverOrder::Coloured;
    World again(s);
    for (int i = 0; i < 60; ++i) again.step();
    EXPECT_EQ(again.stateHash(), coloured.stateHash());
}

}  // namespace
}  // namespace jl
