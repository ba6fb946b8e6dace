// The row trace of the reference kernel (World::setRowTrace, `jointlab run --trace`): every visit
// of every row, with the numbers the teaching features show. The λ after a row's last visit of a
// step is the impulse the step reports for that row; K is J M⁻¹ Jᵀ, computed here independently.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "jointlab/scenario_io.h"
#include "jointlab/world.h"
#include "test_util.h"

namespace jl {
namespace {

Scene showcase() {
    Scene s;
    std::string error;
    EXPECT_TRUE(loadScenario(std::string(JOINTLAB_SOURCE_DIR) + "/assets/scenarios/showcase.json", s, error))
        << error;
    return s;
}

TEST(RowTrace, TheLastVisitOfEachRowIsTheImpulseTheStepReports) {
    for (SolverType solver : {SolverType::PGS, SolverType::TGS}) {
        Scene s = showcase();
        s.settings.solver = solver;
        s.settings.kernel = KernelType::Reference;
        World w(s);
        std::map<std::pair<int, int>, World::RowTrace> last;  // (joint, row) -> its last visit
        int64_t visits = 0, stepSeen = -1;
        w.setRowTrace([&](const World::RowTrace& v) {
            ++visits;
            stepSeen = v.step;
            if (v.joint >= 0) last[{v.joint, v.row}] = v;
        });
        for (int i = 0; i < 30; ++i) {
            last.clear();
            w.step();
            EXPECT_EQ(stepSeen, w.stepCount()) << "the trace numbers steps as the CSV does";
            int rows = 0;
            for (int j = 0; j < static_cast<int>(w.scene().joints.size()); ++j) {
                const auto results = w.jointRowResults(j);
                for (int k = 0; k < static_cast<int>(results.size()); ++k) {
                    if (!results[static_cast<size_t>(k)].active) continue;
                    ++rows;
                    const auto it = last.find({j, k});
                    ASSERT_NE(it, last.end()) << "joint " << j << " row " << k << " was never visited";
                    EXPECT_EQ(it->second.lambdaAfter, results[static_cast<size_t>(k)].impulse)
                        << kSolverTypeNames[int(solver)] << " step " << w.stepCount() << " joint " << j
                        << " row " << k;
                }
            }
            EXPECT_GT(rows, 20);
        }
        EXPECT_GT(visits, 30 * 20 * 5);  // 30 steps, > 20 rows, 5 sweeps
    }
}

TEST(RowTrace, KIsTheUnitResponseOfTheRow) {
    // One box on a ball joint to the world, anchored off its centre: each linear row along axis a
    // has K = 1/m + (r × a)·I⁻¹(r × a) with r from the box's centre to the anchor (F 21).
    Scene s = test::emptyScene();
    s.settings.kernel = KernelType::Reference;
    s.bodies.push_back(test::box("box", Vec3(0.3, 1.0, 0.2), Vec3(0.4, 0.1, 0.25), 3.0));
    s.bodies[0].orientation = test::axisAngle(Vec3(1, 2, 3), 0.7);
    s.joints.push_back(test::joint<SphericalJoint>(s, "ball", "", "box", Vec3(0.0, 1.2, 0.0)));
    World w(s);
    std::vector<World::RowTrace> visits;
    w.setRowTrace([&](const World::RowTrace& v) {
        if (v.phase == 0 && v.sweep == 0) visits.push_back(v);
    });
    const BodyState before = w.bodies()[0];
    w.step();
    ASSERT_EQ(visits.size(), 3u);
    const Mat3 R = glm::mat3_cast(before.pose.q);
    const Vec3 I = w.localInertia(0);
    const Mat3 invI =
        R * Mat3(Vec3(1 / I.x, 0, 0), Vec3(0, 1 / I.y, 0), Vec3(0, 0, 1 / I.z)) * glm::transpose(R);
    const Vec3 r = Vec3(0.0, 1.2, 0.0) - before.pose.p;
    for (const World::RowTrace& v : visits) {
        const Row& row = w.jointRows(0)[static_cast<size_t>(v.row)];
        const Vec3 a = row.linear1;  // body 1's linear Jacobian is −a; K is the same
        const Vec3 ra = glm::cross(r, a);
        const Real K = w.inverseMass(0) * glm::dot(a, a) + glm::dot(ra, invI * ra);
        EXPECT_NEAR(v.K, K, 1e-12 * K) << row.label;
        EXPECT_EQ(v.lambdaBefore, 0.0) << "joint rows start from zero impulse";
    }
}

TEST(RowTrace, OnlyTheReferenceKernelTraces) {
    Scene s = showcase();
    s.settings.kernel = KernelType::Fast;
    World w(s);
    int visits = 0;
    w.setRowTrace([&](const World::RowTrace&) { ++visits; });
    for (int i = 0; i < 5; ++i) w.step();
    EXPECT_EQ(visits, 0);
}

}  // namespace
}  // namespace jl
