// One source for the joint maths (issue 23, point 1): the rows the solver solves are the rows the
// joint's file prepares. For every joint type and flag combination (limits, drives and motors,
// breakable, mass scales, attached to the world or to two bodies, PGS and TGS, the AVX2 kernel on
// and off, one part or several threads) a World steps, and then for every joint:
//
//  1. its rows (World::jointRows: for lock batches, written on request) equal, field by field and
//     bit for bit, the rows its prep function writes from a PrepContext made here from the body
//     poses the step started from (and the joint's memory as it was before the step);
//  2. each row's solver slot (PGS: RowLanes, HardLanes or LockLanes, wherever rowSolver places it;
//     TGS: TgsLanes) holds, bit for bit, what the plain set-up (solver::setupRowLane) makes of
//     that reference row — for lock batches this is the fused AVX2 prep (prepLockBatchAvx2, the
//     joints' lock parts on 4 lanes), for other batches setupHardSlot or setupRowLane;
//  3. its block (a point constraint's rows solved at once, solver/block.h) is where the reference
//     rows put it (solver::findBlock), and PGS's gain G = K⁻¹·diag(K) in its batch holds, bit for
//     bit, what block.h makes (with L = double) of the reference slots of 2.
//
// Bit-identical everywhere: the AVX2 lock parts, set-up and the plain code perform the same IEEE
// operations in the same order per lane (no FMA, -ffp-contract=off), so no tolerance is needed and
// none is used. The one derived quantity TGS stores, ang0Base = angular0 − r0 × linear0, is
// recomputed here with the same glm operations, so it is compared bit for bit too.
#include <gtest/gtest.h>

#include <cstring>
#include <string_view>
#include <type_traits>
#include <variant>

#include "jointlab/joint.h"
#include "jointlab/scenario_io.h"
#include "jointlab/solver_kernel.h"
#include "jointlab/world.h"
#include "solver/block.h"
#include "solver/fast/batch.h"
#include "test_util.h"
#include "world/world_probe.h"

namespace jl {
namespace {

/// Rows the checked cases solved as blocks (so the block checks are seen to run).
int gBlockRows = 0;

bool sameBits(Real a, Real b) {
    return std::memcmp(&a, &b, sizeof(Real)) == 0;
}
bool sameBits(const Vec3& a, const Vec3& b) {
    return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}

/// Sets a joint's limits and drives (motors too) on or off through its field list, with values
/// that make their rows appear: narrow limit ranges, stiff drives, a motor with a target speed.
struct Configure {
    bool limits, drives;
    static bool has(std::string_view key, std::string_view part) { return key.find(part) != key.npos; }
    bool isDrive(std::string_view k) const {
        return has(k, "drive") || has(k, "Drive") || has(k, "motor") || has(k, "Motor");
    }
    bool isLimit(std::string_view k) const {
        return has(k, "imit") || has(k, "cone") || has(k, "Cone") || has(k, "swing") || has(k, "Swing");
    }
    template <class T, class... Rest>
    void operator()(const char* name, T&& value, Rest&&...) {
        const std::string_view k(name);
        using V = std::remove_cvref_t<T>;
        if constexpr (std::is_same_v<V, bool>) {
            if (has(k, "enabled") && isDrive(k)) value = drives;
            if (has(k, "enabled") && isLimit(k) && !isDrive(k)) value = limits;
        } else if constexpr (std::is_same_v<V, Real>) {
            if (drives && isDrive(k) && (has(k, "stiffness") || has(k, "damping"))) value = 40.0;
            if (drives && isDrive(k) && has(k, "argetVelocity")) value = 1.5;
            if (limits && isLimit(k) && !isDrive(k) && has(k, "lower")) value = -0.01;
            if (limits && isLimit(k) && !isDrive(k) && has(k, "upper")) value = 0.01;
        }
    }
};

struct Case {
    int type = 0;  // index into JointParams
    bool limits = false, drives = false, breakable = false, massScales = false, world = false;
    bool tgs = false, avx2 = false;
    int d6Motions = 0;  // D6: 0 all locked, 1 mixed (limited, free and locked axes)
    int joints = 8;     // copies of the joint, each on its own bodies
    int threads = 1;
    std::string name() const {
        std::string n = jointTypeInfo(type).name;
        n += limits ? " limits" : "";
        n += drives ? " drives" : "";
        n += breakable ? " breakable" : "";
        n += massScales ? " mass-scales" : "";
        n += world ? " world" : " two-bodies";
        n += tgs ? " TGS" : " PGS";
        n += avx2 ? " avx2" : " scalar";
        if (d6Motions) n += " d6-mixed";
        if (threads > 1) n += " threads";
        return n;
    }
};

Scene caseScene(const Case& c) {
    Scene s = test::emptyScene(false);
    s.settings.solver = c.tgs ? SolverType::TGS : SolverType::PGS;
    s.settings.threads = c.threads;
    for (int i = 0; i < c.joints; ++i) {
        const Real x = 1.5 * i;
        const std::string a = test::indexed("a", i), b = test::indexed("b", i);
        if (!c.world) {
            s.bodies.push_back(
                test::box(a, Vec3(x - 0.4, 5.0, 0.0), Vec3(0.2, 0.1, 0.15), 1.0 + 0.25 * (i % 8)));
            s.bodies.back().orientation = test::axisAngle(Vec3(0.2, 1.0, 0.1), 0.2 * i);
            s.bodies.back().angularVelocity = Vec3(0.3, -0.1 * i, 0.2);
        }
        s.bodies.push_back(test::box(b, Vec3(x + 0.4, 5.0, 0.1), Vec3(0.25, 0.1, 0.1), 2.0 - 0.1 * (i % 8)));
        s.bodies.back().linearVelocity = Vec3(0.2, -0.3, 0.05 * i);
        JointParams params = makeJointParams(c.type);
        std::visit(
            [&](auto& p) {
                Configure v{c.limits, c.drives};
                p.visit(v);
                if constexpr (std::is_same_v<std::decay_t<decltype(p)>, D6Joint>)
                    if (c.d6Motions == 1) {
                        p.motion[0] = D6Motion::Limited;
                        p.motion[1] = D6Motion::Free;
                        p.motion[kD6Twist] = D6Motion::Limited;
                        p.motion[kD6Swing1] = D6Motion::Limited;
                        p.motion[kD6Swing2] = D6Motion::Limited;
                    }
            },
            params);
        JointDesc j;
        std::visit(
            [&](const auto& p) {
                j = test::joint(s, test::indexed("j", i), c.world ? std::string() : a, b, Vec3(x, 5.0, 0.05),
                                test::axisAngle(Vec3(0.3, 1.0, -0.2), 0.4 + 0.3 * i), p);
            },
            params);
        if (c.massScales) {
            j.invMassScale0 = 0.5;
            j.invInertiaScale0 = 0.75;
            j.invMassScale1 = 2.0;
            j.invInertiaScale1 = 1.5;
        }
        if (c.breakable) j.breakForce = 1e12;
        s.joints.push_back(j);
        // Body 1 off its joint frame, so that every row starts with an error.
        BodyDesc& body1 = s.bodies[static_cast<size_t>(s.findBody(b))];
        body1.position += Vec3(0.01, -0.02, 0.015 * (i % 3));
        body1.orientation =
            glm::normalize(test::axisAngle(Vec3(1.0, 0.2, 0.4), 0.03 + 0.01 * i) * body1.orientation);
    }
    return s;
}

/// The reference rows of joint j: its prep function at the poses the last step started from.
int referenceRows(const World& w, int j, const std::vector<JointMemory>& memoryBefore, Row* out) {
    const WorldProbe::Impl& m = WorldProbe::impl(w);
    const JointFrames& f = m.jointFrames[static_cast<size_t>(j)];
    const int b0 = m.jointBody0[static_cast<size_t>(j)], b1 = m.jointBody1[static_cast<size_t>(j)];
    const Transform pose0 = b0 >= 0 ? m.lastGood[static_cast<size_t>(b0)].pose : Transform{};
    const Transform pose1 = b1 >= 0 ? m.lastGood[static_cast<size_t>(b1)].pose : Transform{};
    PrepContext ctx = PrepContext::make(pose0, f.frame0, pose1, f.frame1, w.scene().settings.dt);
    JointMemory memory = memoryBefore[static_cast<size_t>(j)];
    ctx.memory = &memory;
    RowWriter writer{out, kMaxRowsPerJoint};
    std::visit([&](const auto& p) { prep(p, ctx, writer); }, w.scene().joints[static_cast<size_t>(j)].params);
    return writer.count;
}

void expectSameRow(const Row& got, const Row& want, const std::string& where) {
    EXPECT_TRUE(sameBits(got.linear0, want.linear0)) << where << " linear0";
    EXPECT_TRUE(sameBits(got.angular0, want.angular0)) << where << " angular0";
    EXPECT_TRUE(sameBits(got.linear1, want.linear1)) << where << " linear1";
    EXPECT_TRUE(sameBits(got.angular1, want.angular1)) << where << " angular1";
    EXPECT_TRUE(sameBits(got.geometricError, want.geometricError)) << where << " geometricError";
    EXPECT_TRUE(sameBits(got.velocityTarget, want.velocityTarget)) << where << " velocityTarget";
    EXPECT_TRUE(sameBits(got.minImpulse, want.minImpulse)) << where << " minImpulse";
    EXPECT_TRUE(sameBits(got.maxImpulse, want.maxImpulse)) << where << " maxImpulse";
    EXPECT_TRUE(sameBits(got.mods.spring.stiffness, want.mods.spring.stiffness)) << where << " mods[0]";
    EXPECT_TRUE(sameBits(got.mods.spring.damping, want.mods.spring.damping)) << where << " mods[1]";
    EXPECT_EQ(got.flags, want.flags) << where;
    EXPECT_EQ(got.solveHint, want.solveHint) << where;
    EXPECT_EQ(got.blockSize, want.blockSize) << where;
    EXPECT_EQ(got.blockIndex, want.blockIndex) << where;
    EXPECT_TRUE(sameBits(got.erpOverride, want.erpOverride)) << where << " erpOverride";
    EXPECT_STREQ(got.label, want.label) << where;
}

/// What the plain set-up makes of row `row` for joint j, as lane 0 of a full slot.
solver::RowLanes referenceSlot(const World& w, int j, const Row& row) {
    const WorldProbe::Impl& m = WorldProbe::impl(w);
    const WorldSettings& s = w.scene().settings;
    const solver::BodyInfo& i0 = m.data.info[static_cast<size_t>(m.jointSolver0[static_cast<size_t>(j)])];
    const solver::BodyInfo& i1 = m.data.info[static_cast<size_t>(m.jointSolver1[static_cast<size_t>(j)])];
    const JointFrames& f = m.jointFrames[static_cast<size_t>(j)];
    solver::Batch bt;
    solver::bodyScales(i0, f.invMassScale0, f.invInertiaScale0, bt.linScale0[0], bt.angScale0[0]);
    solver::bodyScales(i1, f.invMassScale1, f.invInertiaScale1, bt.linScale1[0], bt.angScale1[0]);
    solver::Params p;
    p.dt = s.dt;
    p.erp = s.effectiveBaumgarte();
    solver::RowLanes L{};
    RowOut report;
    solver::setupRowLane(row, i0, i1, bt, 0, p, L, report);
    return L;
}

/// Row k's slot against the reference set-up: every field the layout holds, and for the compact
/// layouts what it implies (linear1 = lin; a lock slot's bounds ±kMaxRowVelocityChange·(−vMul)).
void expectSlot(const WorldProbe::Impl& m, size_t k, const solver::RowLanes& ref, const std::string& where) {
    const int place = m.rowSolver[k];
    const size_t at = static_cast<size_t>(place >> 2), slot = at / solver::kLanes;
    const size_t l = at % solver::kLanes;
    auto same = [&](const double(&got)[solver::kLanes], Real want, const char* what) {
        EXPECT_TRUE(sameBits(got[l], want)) << where << " " << what << ": " << got[l] << " vs " << want;
    };
    auto same3 = [&](const double(&got)[3][solver::kLanes], const double(&want)[3][solver::kLanes],
                     const char* what) {
        for (int c = 0; c < 3; ++c)
            EXPECT_TRUE(sameBits(got[c][l], want[c][0])) << where << " " << what << "[" << c << "]";
    };
    switch (place & 3) {
        case solver::kLayoutLock: {
            const solver::LockLanes& L = m.data.lockSlots[slot];
            same3(L.lin, ref.lin0, "lin");
            same3(L.lin, ref.lin1, "lin (= lin1)");
            same3(L.ang0, ref.ang0, "ang0");
            same3(L.ang1, ref.ang1, "ang1");
            same(L.constant, ref.constant[0], "constant");
            same(L.unbiasedConstant, ref.unbiasedConstant[0], "unbiasedConstant");
            same(L.vMul, ref.vMul[0], "vMul");
            same(L.response, ref.response[0], "response");
            EXPECT_TRUE(ref.response[0] == 0.0 ||
                        sameBits(solver::kMaxRowVelocityChange * -L.vMul[l], ref.maxImpulse[0]))
                << where << " implied bounds";
            break;
        }
        case solver::kLayoutHard: {
            const solver::HardLanes& L = m.data.hardSlots[slot];
            same3(L.lin, ref.lin0, "lin");
            same3(L.lin, ref.lin1, "lin (= lin1)");
            same3(L.ang0, ref.ang0, "ang0");
            same3(L.ang1, ref.ang1, "ang1");
            same(L.constant, ref.constant[0], "constant");
            same(L.unbiasedConstant, ref.unbiasedConstant[0], "unbiasedConstant");
            same(L.vMul, ref.vMul[0], "vMul");
            same(L.minImpulse, ref.minImpulse[0], "minImpulse");
            same(L.maxImpulse, ref.maxImpulse[0], "maxImpulse");
            same(L.response, ref.response[0], "response");
            break;
        }
        default: {
            const solver::RowLanes& L = m.data.slots[slot];
            same3(L.lin0, ref.lin0, "lin0");
            same3(L.lin1, ref.lin1, "lin1");
            same3(L.ang0, ref.ang0, "ang0");
            same3(L.ang1, ref.ang1, "ang1");
            same(L.constant, ref.constant[0], "constant");
            same(L.unbiasedConstant, ref.unbiasedConstant[0], "unbiasedConstant");
            same(L.vMul, ref.vMul[0], "vMul");
            same(L.impulseMul, ref.impulseMul[0], "impulseMul");
            same(L.minImpulse, ref.minImpulse[0], "minImpulse");
            same(L.maxImpulse, ref.maxImpulse[0], "maxImpulse");
            same(L.response, ref.response[0], "response");
            break;
        }
    }
}

/// TGS: row k's slot holds the reference row's Jacobian and error (ang0Base, ang1Base: the
/// angular Jacobian less its lever-arm part, recomputed with the same glm operations).
void expectTgsSlot(const WorldProbe::Impl& m, int j, size_t k, const Row& want, const std::string& where) {
    const int place = m.rowSolver[k];
    const size_t at = static_cast<size_t>(place >> 2), slot = at / solver::kLanes;
    const size_t l = at % solver::kLanes;
    const solver::TgsLanes& L = m.data.tgsSlots[slot];
    const solver::RowBodies& rb = m.jointBodies[static_cast<size_t>(j)];
    const Vec3 base0 = want.angular0 - glm::cross(rb.r0, want.linear0);
    const Vec3 base1 = want.angular1 - glm::cross(rb.r1, want.linear1);
    for (int c = 0; c < 3; ++c) {
        EXPECT_TRUE(sameBits(L.lin0[c][l], want.linear0[c])) << where << " lin0";
        EXPECT_TRUE(sameBits(L.lin1[c][l], want.linear1[c])) << where << " lin1";
        EXPECT_TRUE(sameBits(L.ang0Base[c][l], base0[c])) << where << " ang0Base";
        EXPECT_TRUE(sameBits(L.ang1Base[c][l], base1[c])) << where << " ang1Base";
    }
    EXPECT_TRUE(sameBits(L.error0[l], want.geometricError)) << where << " error0";
}

/// The batch and lane that solve joint j.
bool batchOf(const WorldProbe::Impl& m, int j, const solver::Batch*& bt, int& lane) {
    for (const solver::Batch& b : m.data.batches)
        for (int l = 0; l < solver::kLanes; ++l)
            if (!b.contact && b.constraint[l] == j) {
                bt = &b;
                lane = l;
                return true;
            }
    return false;
}

/// Joint j's block against the reference rows `want` (n of them) and, for PGS, its gains
/// against block.h's from the reference slots. Returns the rows in a block.
int checkBlock(const World& w, int j, const Row* want, int n, bool tgs, const std::string& where) {
    const WorldProbe::Impl& m = WorldProbe::impl(w);
    const solver::Batch* bt = nullptr;
    int l = 0;
    if (!batchOf(m, j, bt, l)) {
        ADD_FAILURE() << where << ": no batch";
        return 0;
    }
    int size = 0;
    const int start = solver::findBlock(want, n, size);
    if (bt->blockSize[l] == 0) return 0;  // none, or singular (ASingularBlockIsSolvedRowByRow)
    EXPECT_EQ(bt->blockStart[l], start) << where;
    EXPECT_EQ(bt->blockSize[l], size) << where;
    if (tgs || start < 0) return bt->blockSize[l];
    solver::block::Jacobian<Real> jac[kMaxBlockRows];
    for (int i = 0; i < size; ++i) {
        const solver::RowLanes ref = referenceSlot(w, j, want[start + i]);
        jac[i] = {{ref.lin0[0][0], ref.lin0[1][0], ref.lin0[2][0]},
                  {ref.ang0[0][0], ref.ang0[1][0], ref.ang0[2][0]},
                  {ref.lin1[0][0], ref.lin1[1][0], ref.lin1[2][0]},
                  {ref.ang1[0][0], ref.ang1[1][0], ref.ang1[2][0]}};
    }
    const solver::block::Sym3<Real> K = solver::block::responseMatrix(
        jac, size,
        solver::block::Scales<Real>{bt->linScale0[l], bt->angScale0[l], bt->linScale1[l], bt->angScale1[l]});
    const solver::block::Inverse<Real> inv = solver::block::invert(K);
    EXPECT_TRUE(inv.ok) << where;
    const solver::block::Mat3<Real> g = solver::block::gain(inv.inv, K);
    const solver::BlockLanes& G = m.data.blocks[static_cast<size_t>(bt->firstBlock)];
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 3; ++c)
            EXPECT_TRUE(sameBits(G.gain[3 * i + c][l], g.m[i][c])) << where << " gain " << i << c;
    return size;
}

/// Steps the case's world and checks every joint's rows and slots after the last step. Returns
/// the rows the AVX2 lock batches set up (LockLanes), so callers can tell the fast path ran.
int checkCase(const Case& c) {
    setSolverKernel(c.avx2 ? SolverKernel::Auto : SolverKernel::Scalar);
    const Scene scene = caseScene(c);
    const std::string invalid = validateScene(scene);
    EXPECT_EQ(invalid, "") << c.name();
    if (!invalid.empty()) return 0;
    World w(scene);
    const WorldProbe::Impl& m = WorldProbe::impl(w);
    for (int i = 0; i < 3; ++i) w.step();
    const std::vector<JointMemory> memoryBefore = m.memory;
    w.step();
    int lockRows = 0;
    for (int j = 0; j < static_cast<int>(scene.joints.size()); ++j) {
        const std::string where = c.name() + ", joint " + std::to_string(j);
        Row want[kMaxRowsPerJoint];
        const int n = referenceRows(w, j, memoryBefore, want);
        const std::span<const Row> got = w.jointRows(j);
        EXPECT_FALSE(w.jointState(j).broken) << where;
        EXPECT_EQ(static_cast<int>(got.size()), n) << where;
        if (static_cast<int>(got.size()) != n) continue;
        const int first = m.jointRowRange[static_cast<size_t>(j)].first;
        for (int t = 0; t < n; ++t) {
            const std::string row = where + ", row " + std::to_string(t) + " (" + want[t].label + ")";
            expectSameRow(got[static_cast<size_t>(t)], want[t], row);
            const size_t k = static_cast<size_t>(first + t);
            if (c.tgs) {
                expectTgsSlot(m, j, k, want[t], row);
            } else {
                expectSlot(m, k, referenceSlot(w, j, want[t]), row);
                if ((m.rowSolver[k] & 3) == solver::kLayoutLock && m.batchLockPrep.size() > 0) ++lockRows;
            }
        }
        gBlockRows += checkBlock(w, j, want, n, c.tgs, where);
    }
    setSolverKernel(SolverKernel::Auto);
    return lockRows;
}

TEST(OneSource, FastPathSolvesTheRowsTheJointFilesPrepare) {
    int cases = 0, lockBatchRows = 0;
    for (int type = 0; type < kJointTypeCount; ++type)
        for (int flags = 0; flags < 128; ++flags) {
            Case c;
            c.type = type;
            c.limits = flags & 1;
            c.drives = flags & 2;
            c.breakable = flags & 4;
            c.massScales = flags & 8;
            c.world = flags & 16;
            c.tgs = flags & 32;
            c.avx2 = flags & 64;
            const bool d6 = std::holds_alternative<D6Joint>(makeJointParams(type));
            for (int motions = 0; motions <= (d6 ? 1 : 0); ++motions) {
                c.d6Motions = motions;
                const int before = ::testing::Test::HasFailure() ? 1 : 0;
                const int locks = checkCase(c);
                lockBatchRows += locks;
                ++cases;
                // A lock-only joint (fixed; revolute without limit or drive; spherical without
                // cone), not breakable, under PGS with AVX2 is what the fused lock batches take.
                const JointParams p = makeJointParams(type);
                const bool lockOnly =
                    std::holds_alternative<FixedJoint>(p) || ((std::holds_alternative<RevoluteJoint>(p) ||
                                                               std::holds_alternative<SphericalJoint>(p)) &&
                                                              !c.limits && !c.drives);
                const bool fused = lockOnly && !c.breakable && !c.tgs && c.avx2 &&
                                   activeSolverKernel() == SolverKernel::Avx2;
                EXPECT_TRUE(!fused || locks > 0) << c.name() << ": expected the AVX2 lock batches to run";
                if (!before && ::testing::Test::HasFailure()) return;  // one failing case is enough to read
            }
        }
    std::printf("%d cases, %d rows from AVX2 lock batches, %d rows in blocks\n", cases, lockBatchRows,
                gBlockRows);
    EXPECT_GT(gBlockRows, 0);
}

// Several parts (threads): the lock batches are set up after the others, split between threads,
// and each part's static body is its own stand-in.
TEST(OneSource, FastPathSolvesTheRowsTheJointFilesPrepareWithThreads) {
    for (int type = 0; type < kJointTypeCount; ++type)
        for (bool tgs : {false, true}) {
            Case c;
            c.type = type;
            c.tgs = tgs;
            c.avx2 = true;
            c.joints = 80;
            c.threads = 2;
            checkCase(c);
            c.world = true;
            checkCase(c);
            if (::testing::Test::HasFailure()) return;
        }
}

}  // namespace
}  // namespace jl
