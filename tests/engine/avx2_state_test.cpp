// The AVX2 kernels return with the upper halves of the YMM registers clean (vzeroupper).
//
// Plain SSE code that runs while those halves are dirty is slowed down on this machine's CPUs: a
// set-up that returned through a call to a function with __m256d arguments (after which GCC emits
// no vzeroupper) made the ragdoll step 65% slower with the same instruction count. No functional
// test sees that, so this one reads the processor's XINUSE bitmap (XGETBV with ECX = 1; bit 2:
// the AVX upper state is in use) right after each entry point of solver/fast/pgs_avx2.cpp and
// solver/fast/tgs_avx2.cpp, called on a small batch. White-box: it includes the engine's internal,
// glm-free solver/fast/batch.h. (x86-64 only; elsewhere there is no AVX2 kernel to check.)
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "jointlab/solver_kernel.h"
#include "solver/fast/batch.h"

namespace jl::solver {
namespace {

#if defined(__x86_64__)
bool xinuseReadable() {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return false;  // OSXSAVE
    if (!__get_cpuid_count(0xD, 1, &a, &b, &c, &d)) return false;
    return (a & (1u << 2)) != 0;  // XGETBV with ECX = 1 (XINUSE)
}

/// True while the AVX upper state (XINUSE bit 2) is in use.
bool upperDirty() {
    uint32_t lo, hi;
    asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return (lo & 4u) != 0;
}

void dirtyUpper() {
    asm volatile("vpcmpeqd %%ymm2, %%ymm2, %%ymm2" ::: "xmm2");
}
void cleanUpper() {
    asm volatile("vzeroupper" ::: "memory");
}

#else
bool xinuseReadable() {
    return false;
}
bool upperDirty() {
    return false;
}
void dirtyUpper() {}
void cleanUpper() {}
#endif

constexpr double kIdentity[8] = {0, 0, 0, 0, 0, 0, 1, 0};  // jl::Transform: p, then q (x, y, z, w)

TEST(Avx2Kernels, ReturnWithTheUpperYmmHalvesClean) {
    if (activeSolverKernel() != SolverKernel::Avx2 || !xinuseReadable())
        GTEST_SKIP() << "no AVX2 kernel or no XINUSE";
    // The probe itself: a YMM write shows up in XINUSE and vzeroupper clears it on this CPU.
    dirtyUpper();
    const bool seen = upperDirty();
    cleanUpper();
    if (!seen || upperDirty()) GTEST_SKIP() << "this CPU does not report the AVX upper state in XINUSE";

    // Two lanes (the AVX2 paths take batches of two or more), the first joining body 1 to the
    // static body 0, the second a padding lane.
    alignas(32) Batch bt{};
    for (int l = 0; l < kLanes; ++l) bt.constraint[l] = -1;
    bt.constraint[0] = 0;
    bt.constraint[1] = 1;
    bt.body1[0] = bt.body1[1] = 1;
    bt.linScale1[0] = bt.linScale1[1] = 1.0;
    bt.angScale1[0] = bt.angScale1[1] = 1.0;
    bt.laneCount = 2;
    bt.slotCount = 1;
    bt.layout = kLayoutLock;

    alignas(32) double bodies[4 * 8] = {};  // solver::Body records: v, pad, ω, pad
    alignas(32) double invI[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    alignas(32) double pre[8] = {};
    alignas(32) double row[16] = {1, 0, 0, 0, 0.5, 0, 1, 0, 0, 0, 0.5, 0, 0.01, 0, -1e300, 1e300};
    alignas(32) LockLanes lock[6] = {};
    double response[kLanes];

    HardRowsIn in{};
    for (int l = 0; l < kLanes; ++l) {
        in.row[l] = row;
        in.invI0[l] = in.invI1[l] = invI;
        in.pre0[l] = in.pre1[l] = pre;
    }
    SlotOut out;
    out.lock = lock;
    dirtyUpper();
    cleanUpper();
    ASSERT_GE(setupHardRowsAvx2(bt, in, 1.0 / 60.0, out, response), 0);
    EXPECT_FALSE(upperDirty()) << "setupHardRowsAvx2";

    LockPrepIn prep{};
    prep.parts = parts::kLockPoint | parts::kLockHinge;  // a revolute joint's
    for (int l = 0; l < kLanes; ++l) {
        prep.pose0[l] = prep.pose1[l] = prep.frame0[l] = prep.frame1[l] = kIdentity;
        prep.invI0[l] = prep.invI1[l] = invI;
        prep.pre0[l] = prep.pre1[l] = pre;
    }
    ASSERT_GE(prepLockBatchAvx2(bt, prep, 1.0, 1.0 / 60.0, lock), 0);
    EXPECT_FALSE(upperDirty()) << "prepLockBatchAvx2";

    LaneSums sums;
    bt.firstCoupling = 0;
    CouplingLanes couplings[couplingCount(kMaxLockPrepRows)];
    computeCouplings(bt, nullptr, nullptr, lock, couplings);
    sweepBatchesAvx2(&bt, 0, 1, nullptr, nullptr, lock, couplings, nullptr, bodies, true, sums);
    EXPECT_FALSE(upperDirty()) << "sweepBatchesAvx2";

    // TGS: one slot of a linear row, bodies' records as TgsSweep describes them.
    alignas(32) TgsLanes tgs[1] = {};
    alignas(32) TgsArms arms[1] = {};
    for (int l = 0; l < 2; ++l) {
        tgs[0].lin0[0][l] = tgs[0].lin1[0][l] = 1.0;
        tgs[0].kind[l] = kTgsActive;
        tgs[0].minImpulse[l] = -1e300;
        tgs[0].maxImpulse[l] = 1e300;
        tgs[0].erp[l] = 1.0;
        for (int e : {0, 4, 8}) arms[0].invI0[e][l] = arms[0].invI1[e][l] = 1.0;
    }
    alignas(32) double deltas[4 * 8] = {};
    alignas(32) double info[4 * 16] = {};  // per body: I^-½ (9), pad, position (3), pad... quaternion at 12
    for (int b = 0; b < 4; ++b) {
        std::memcpy(info + 16 * b, invI, 9 * sizeof(double));
        info[16 * b + 15] = 1.0;  // q.w
    }
    const TgsSweep sweep{bodies, deltas, info, 16, 12, 0, 1.0 / 240.0, 1.0 / 60.0, 1, false};
    sweepTgsBatchesAvx2(&bt, arms, 0, 1, tgs, sweep, sums);
    EXPECT_FALSE(upperDirty()) << "sweepTgsBatchesAvx2";

    int left[4];
    const TgsIntegrate integrate{bodies, deltas, info, 16, 9, 12, 0, 1.0 / 240.0, 1e300, 1e300};
    integrateTgsBodiesAvx2(integrate, 0, 4, left);
    EXPECT_FALSE(upperDirty()) << "integrateTgsBodiesAvx2";
}

}  // namespace
}  // namespace jl::solver
