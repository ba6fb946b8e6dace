// The TGS batch kernel with AVX2: one __m256d holds one quantity of the 4 lanes of a batch
// (solver/fast/batch.h, TgsLanes). Compiled with -mavx2 -mno-fma like solver/fast/pgs_avx2.cpp and only
// called after the run-time check.
//
// Per lane it performs exactly the operations of solveTgsBatchScalar (solver/fast/tgs.cpp), in the
// same order. Where the plain kernel branches (angular or linear row, spring or hard row, rows it
// skips) this one computes both sides and blends per lane; a skipped lane keeps its bodies'
// velocities and its impulse bit for bit. Keep the two in step.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "solver/block.h"
#include "solver/fast/avx2.h"
#include "solver/fast/batch.h"

namespace jl::solver {

namespace {

inline __m256d ld(const double* p) {
    return _mm256_load_pd(p);
}
inline __m256d add(__m256d a, __m256d b) {
    return _mm256_add_pd(a, b);
}
inline __m256d sub(__m256d a, __m256d b) {
    return _mm256_sub_pd(a, b);
}
inline __m256d mul(__m256d a, __m256d b) {
    return _mm256_mul_pd(a, b);
}
inline __m256d pick(__m256d mask, __m256d yes, __m256d no) {
    return _mm256_blendv_pd(no, yes, mask);
}

inline void load3(const double (&v)[3][kLanes], __m256d* out) {
    for (int k = 0; k < 3; ++k) out[k] = _mm256_load_pd(v[k]);
}

/// A slot's 3-vector of lanes read where it lies, at each use: the compiler then takes it as a
/// memory operand instead of copying the slot's vectors to the stack (register pressure is high).
struct Mem3 {
    const double (*v)[kLanes];
    __m256d operator[](int k) const { return _mm256_load_pd(v[k]); }
};
inline Mem3 mem(const double (&v)[3][kLanes]) {
    return {v};
}

/// The helpers below take 3-vectors in registers (const __m256d*) or in a slot (Mem3), with the
/// same operations in the same order either way.
template <class A, class B>
inline __m256d dotv(const A& a, const B& b) {  // glm::dot's order
    return add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
}
template <class X, class Y>
inline void crossv(const X& x, const Y& y, __m256d* out) {  // glm::cross's operations
    out[0] = sub(mul(x[1], y[2]), mul(y[1], x[2]));
    out[1] = sub(mul(x[2], y[0]), mul(y[2], x[0]));
    out[2] = sub(mul(x[0], y[1]), mul(y[0], x[1]));
}
/// v + d·j (add) or v − d·j (sub) per component.
template <class J>
inline void addScaled(Vec3x4& v, __m256d d, const J& j) {
    v.x = add(v.x, mul(d, j[0]));
    v.y = add(v.y, mul(d, j[1]));
    v.z = add(v.z, mul(d, j[2]));
}
template <class J>
inline void subScaled(Vec3x4& v, __m256d d, const J& j) {
    v.x = sub(v.x, mul(d, j[0]));
    v.y = sub(v.y, mul(d, j[1]));
    v.z = sub(v.z, mul(d, j[2]));
}

inline __m256d hasBit(__m256i kind, int64_t bit) {
    const __m256i b = _mm256_set1_epi64x(bit);
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(kind, b), b));
}

/// What a batch's visits share: its bodies' motion and lever arms this substep (F 66), I^-½ and
/// mass scales (constant over the sweep).
struct BatchNow {
    __m256d r0[3], r1[3], d0[3], d1[3];  ///< lever arms now; Δx + (r' − r) per side
    __m256d dAang[3], dBang[3];          ///< the integrated momocity of each side
    const __m256d *IA, *IB;              ///< I^-½, packed per batch (TgsArms::invI0, invI1)
    __m256d ls0, as0, ls1, as1;
};
/// The batch's bodies' velocities, updated slot by slot: apart from BatchNow (whose address the
/// block solve takes) and passed by value, so that they stay in registers.
struct Velocities {
    Vec3x4 av, aw, bv, bw;
};

/// A slot's rows brought up to date (F 66): the angular Jacobians, errors and unit responses.
struct SlotNow {
    __m256d angM0[3], angM1[3];
    __m256d error, response, recip;
};
/// `solve`: the lanes that will use it (the others' values are never used, so an all-angular
/// slot skips the lever-arm refresh).
__attribute__((always_inline)) inline SlotNow refreshSlot(const TgsLanes* R, __m256d solve,
                                                          const BatchNow& n) {
    SlotNow w;
    const __m256i kind = _mm256_load_si256(reinterpret_cast<const __m256i*>(R->kind));
    const __m256d angular = hasBit(kind, kTgsAngular);
    const Mem3 lin0 = mem(R->lin0), lin1 = mem(R->lin1), base0 = mem(R->baseM0), base1 = mem(R->baseM1);
    // The linear row's refreshed J⁽ᵐ⁾ = I^-½(κ_base + r' × μ); an angular row keeps its own.
    const bool allAngular = _mm256_movemask_pd(_mm256_andnot_pd(angular, solve)) == 0;
    const bool anyAngular = _mm256_movemask_pd(_mm256_and_pd(angular, solve)) != 0;
    if (allAngular) {  // every solved lane keeps its Jacobian: nothing to refresh
        for (int i = 0; i < 3; ++i) w.angM0[i] = base0[i], w.angM1[i] = base1[i];
    } else {
        __m256d c[3], k[3], m[3];
        crossv(n.r0, lin0, c);
        for (int i = 0; i < 3; ++i) k[i] = add(ld(R->ang0Base[i]), c[i]);
        mulMat3(n.IA, k, m);
        for (int i = 0; i < 3; ++i) w.angM0[i] = anyAngular ? pick(angular, base0[i], m[i]) : m[i];
        crossv(n.r1, lin1, c);
        for (int i = 0; i < 3; ++i) k[i] = add(ld(R->ang1Base[i]), c[i]);
        mulMat3(n.IB, k, m);
        for (int i = 0; i < 3; ++i) w.angM1[i] = anyAngular ? pick(angular, base1[i], m[i]) : m[i];
    }
    const __m256d error0 = ld(R->error0);
    w.error = error0;
    if (!allAngular) {
        const __m256d moved = add(error0, sub(dotv(lin0, n.d0), dotv(lin1, n.d1)));
        w.error = anyAngular ? pick(angular, error0, moved) : moved;
    }
    w.error = add(w.error, sub(dotv(base0, n.dAang), dotv(base1, n.dBang)));
    w.response = add(add(add(ld(R->linResponse0), mul(n.as0, dotv(w.angM0, w.angM0))), ld(R->linResponse1)),
                     mul(n.as1, dotv(w.angM1, w.angM1)));
    w.recip = _mm256_and_pd(_mm256_cmp_pd(w.response, _mm256_set1_pd(kMinResponse), _CMP_GT_OQ),
                            _mm256_div_pd(_mm256_set1_pd(1.0), w.response));
    return w;
}

/// J⁽ᵐ⁾v⁽ᵐ⁾ of a slot's rows with the velocities now (F 62).
__attribute__((always_inline)) inline __m256d slotVelocity(const TgsLanes* R, const SlotNow& w,
                                                           const Velocities& n) {
    const __m256d av3[3] = {n.av.x, n.av.y, n.av.z}, aw3[3] = {n.aw.x, n.aw.y, n.aw.z};
    const __m256d bv3[3] = {n.bv.x, n.bv.y, n.bv.z}, bw3[3] = {n.bw.x, n.bw.y, n.bw.z};
    return sub(sub(add(dotv(mem(R->lin0), av3), dotv(w.angM0, aw3)), dotv(mem(R->lin1), bv3)),
               dotv(w.angM1, bw3));
}

/// A hard row's position bias b = α·C/h (F 11): none in velocity iterations unless it keeps it.
__attribute__((always_inline)) inline __m256d hardBias(const TgsLanes* R, __m256d error, const TgsSweep& s) {
    if (!s.velocityPass) return _mm256_div_pd(mul(ld(R->erp), error), _mm256_set1_pd(s.h));
    const __m256i kind = _mm256_load_si256(reinterpret_cast<const __m256i*>(R->kind));
    return _mm256_and_pd(hasBit(kind, kTgsKeepBias),
                         _mm256_div_pd(mul(ld(R->erp), error), _mm256_set1_pd(s.dt)));
}

/// A slot's rows' new (unclamped) accumulated impulses, each row on its own: λ' = λ − (v + b − v_T)/r
/// for a hard row (F 65 with full velocities), the spring update (D 44) for a soft one.
__attribute__((always_inline)) inline __m256d rowImpulses(const TgsLanes* R, const SlotNow& w,
                                                          const Velocities& v, const TgsSweep& s,
                                                          __m256i kind, __m256d spring, __m256d solve,
                                                          __m256d acc) {
    const __m256d normalVel = slotVelocity(R, w, v);
    __m256d na = sub(acc, mul(w.recip, sub(add(normalVel, hardBias(R, w.error, s)), ld(R->velTarget))));
    if (_mm256_movemask_pd(_mm256_and_pd(spring, solve)) != 0) {  // D 44
        const __m256d h = _mm256_set1_pd(s.h), one = _mm256_set1_pd(1.0);
        const __m256d subT = _mm256_set1_pd(s.dt - static_cast<double>(s.substep) * s.h);  // D 41
        const __m256d k = ld(R->stiffness), c = ld(R->damping), vT = ld(R->velTarget);
        const __m256d aa = mul(h, add(mul(h, k), c));  // D 13
        const __m256d cSub = add(w.error, mul(subT, vT));
        const __m256d bracket = sub(sub(mul(mul(h, c), vT), mul(mul(h, k), cSub)), mul(aa, normalVel));
        const __m256d force = _mm256_div_pd(bracket, add(mul(aa, w.response), one));
        const __m256d accel = mul(_mm256_div_pd(bracket, add(aa, one)), w.recip);
        na = pick(spring, add(acc, pick(hasBit(kind, kTgsAccelSpring), accel, force)), na);
    }
    return na;
}

/// A batch's blocks (solver/block.h) in one sweep: the slots they brought up to date (bit t of
/// `fresh`: rows[t]) and the new unclamped impulses they found for their rows (pend[t], in the
/// lanes of pendMask[t]) with the velocity change each row asked for (asked[t]: its residual term).
struct BlockSweep {
    SlotNow rows[kMaxBatchSlots];
    __m256d pend[kMaxBatchSlots], pendMask[kMaxBatchSlots], asked[kMaxBatchSlots];
    unsigned fresh = 0;
    explicit BlockSweep(int slots) {
        for (int t = 0; t < slots; ++t) pend[t] = pendMask[t] = asked[t] = _mm256_setzero_pd();
    }
};

/// The blocks that start at slot t, in the lanes `group` whose blocks have n rows: K from the rows
/// brought up to date (refreshed here if not yet), and Δλ = K⁻¹·(−(J⁽ᵐ⁾v⁽ᵐ⁾ + b − v_T)) from
/// the velocities now. Where K is regular, the rows' new unclamped impulses go to B.pend.
void solveBlocks(const TgsLanes* R, int t, int n, __m256d group, const BatchNow& now, Velocities v,
                 const TgsSweep& s, BlockSweep& B) {
    block::Jacobian<Lane4> j[kMaxBlockRows];
    Lane4 c[kMaxBlockRows] = {_mm256_setzero_pd(), _mm256_setzero_pd(), _mm256_setzero_pd()};
    for (int i = 0; i < n; ++i) {
        const TgsLanes* Ri = R + t + i;
        if (!(B.fresh & (1u << (t + i)))) {
            B.rows[t + i] = refreshSlot(
                Ri, hasBit(_mm256_load_si256(reinterpret_cast<const __m256i*>(Ri->kind)), kTgsActive), now);
            B.fresh |= 1u << (t + i);
        }
        const SlotNow& w = B.rows[t + i];
        auto v3 = [](const __m256d* x) { return block::V3<Lane4>{x[0], x[1], x[2]}; };
        j[i] = {{ld(Ri->lin0[0]), ld(Ri->lin0[1]), ld(Ri->lin0[2])},
                v3(w.angM0),
                {ld(Ri->lin1[0]), ld(Ri->lin1[1]), ld(Ri->lin1[2])},
                v3(w.angM1)};
        const __m256d sign = _mm256_set1_pd(-0.0);
        c[i] = _mm256_xor_pd(sign,
                             sub(add(slotVelocity(Ri, w, v), hardBias(Ri, w.error, s)), ld(Ri->velTarget)));
    }
    const block::Inverse<Lane4> inv =
        block::invert(block::responseMatrix(j, n, block::Scales<Lane4>{now.ls0, now.as0, now.ls1, now.as1}));
    const __m256d ok = _mm256_and_pd(group, inv.ok.m);
    const block::V3<Lane4> dl = block::apply(inv.inv, block::V3<Lane4>{c[0], c[1], c[2]});
    const Lane4 blockDl[kMaxBlockRows] = {dl.x, dl.y, dl.z};
    for (int i = 0; i < n; ++i) {
        B.pend[t + i] = pick(ok, add(ld(R[t + i].accum), blockDl[i].v), B.pend[t + i]);
        B.asked[t + i] = pick(ok, c[i].v, B.asked[t + i]);
        B.pendMask[t + i] = _mm256_or_pd(B.pendMask[t + i], ok);
    }
}

/// Every lane's block that starts at slot t (grouped by size: usually all lanes alike).
void startBlocks(const Batch& bt, const TgsLanes* R, int t, const BatchNow& now, Velocities v,
                 const TgsSweep& s, BlockSweep& B) {
    int32_t start, size;
    std::memcpy(&start, bt.blockStart, sizeof start);
    std::memcpy(&size, bt.blockSize, sizeof size);
    const __m256i here =
        _mm256_cmpeq_epi64(_mm256_cvtepi8_epi64(_mm_cvtsi32_si128(start)), _mm256_set1_epi64x(t));
    const __m256i sizes = _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(size));
    for (int n = 2; n <= kMaxBlockRows; ++n) {
        const __m256d group =
            _mm256_castsi256_pd(_mm256_and_si256(here, _mm256_cmpeq_epi64(sizes, _mm256_set1_epi64x(n))));
        if (_mm256_movemask_pd(group)) solveBlocks(R, t, n, group, now, v, s, B);
    }
}

/// Nothing: a batch without blocks keeps no block state.
struct NoBlocks {
    explicit NoBlocks(int) {}
};

/// One batch; Blocks: some lane has a block (Batch::blockSize), else the batch keeps no block
/// state at all (whose addresses would keep the velocities out of registers).
template <bool Blocks>
__m256d solveTgsBatch(const Batch& bt, const TgsArms& arm, TgsLanes* slots, const TgsSweep& s,
                      __m256d residual) {
    double* a[kLanes];
    double* b[kLanes];
    const double *da[kLanes], *db[kLanes], *qa[kLanes], *qb[kLanes];
    for (int l = 0; l < kLanes; ++l) {
        a[l] = s.vel + 8 * bt.body0[l];
        b[l] = s.vel + 8 * bt.body1[l];
        da[l] = s.delta + 8 * bt.body0[l];
        db[l] = s.delta + 8 * bt.body1[l];
        const double* infoA = s.info + static_cast<std::ptrdiff_t>(s.infoStride) * bt.body0[l];
        const double* infoB = s.info + static_cast<std::ptrdiff_t>(s.infoStride) * bt.body1[l];
        qa[l] = infoA + s.quatAt;
        qb[l] = infoB + s.quatAt;
    }
    BatchNow now;
    Velocities v;
    loadBodies4(a, v.av, v.aw);
    loadBodies4(b, v.bv, v.bw);
    const Vec3x4 dAl = load4(da[0], da[1], da[2], da[3]),
                 dAa = load4(da[0] + 4, da[1] + 4, da[2] + 4, da[3] + 4);
    const Vec3x4 dBl = load4(db[0], db[1], db[2], db[3]),
                 dBa = load4(db[0] + 4, db[1] + 4, db[2] + 4, db[3] + 4);
    now.dAang[0] = dAa.x, now.dAang[1] = dAa.y, now.dAang[2] = dAa.z;
    now.dBang[0] = dBa.x, now.dBang[1] = dBa.y, now.dBang[2] = dBa.z;
    // I^-½ of each side, packed per batch at set-up (element 3c + r = M[c][r], as loadMat3 gives)
    now.IA = reinterpret_cast<const __m256d*>(arm.invI0);
    now.IB = reinterpret_cast<const __m256d*>(arm.invI1);
    // F 66: the lever arms at the bodies' current orientation, and Δx + (r' − r) per side
    {
        __m256d q[4], v[3], start[3];
        transpose4(qa[0], qa[1], qa[2], qa[3], q);
        load3(arm.r0Local, v);
        rotate(q, v, now.r0);
        transpose4(qb[0], qb[1], qb[2], qb[3], q);
        load3(arm.r1Local, v);
        rotate(q, v, now.r1);
        const __m256d dA[3] = {dAl.x, dAl.y, dAl.z}, dB[3] = {dBl.x, dBl.y, dBl.z};
        load3(arm.r0, start);
        for (int k = 0; k < 3; ++k) now.d0[k] = add(dA[k], sub(now.r0[k], start[k]));
        load3(arm.r1, start);
        for (int k = 0; k < 3; ++k) now.d1[k] = add(dB[k], sub(now.r1[k], start[k]));
    }
    now.ls0 = ld(bt.linScale0), now.as0 = ld(bt.angScale0), now.ls1 = ld(bt.linScale1),
    now.as1 = ld(bt.angScale1);
    std::conditional_t<Blocks, BlockSweep, NoBlocks> blocks(bt.slotCount);
    TgsLanes* R = slots + bt.firstSlot;
    for (int t = 0; t < bt.slotCount; ++t, ++R) {
        const __m256i kind = _mm256_load_si256(reinterpret_cast<const __m256i*>(R->kind));
        const __m256d spring = hasBit(kind, kTgsSpring);
        __m256d solve = hasBit(kind, kTgsActive);
        if (s.velocityPass) solve = _mm256_andnot_pd(spring, solve);
        if (_mm256_movemask_pd(solve) == 0) continue;
        SlotNow refreshed;
        const SlotNow* fresh = &refreshed;
        bool allInBlocks = false;  // every lane that solves this slot has its impulse from its block
        if constexpr (Blocks) {
            if (bt.blockSlots & (1 << t)) startBlocks(bt, slots + bt.firstSlot, t, now, v, s, blocks);
            if (blocks.fresh & (1u << t))
                fresh = &blocks.rows[t];
            else
                refreshed = refreshSlot(R, solve, now);
            allInBlocks = _mm256_movemask_pd(_mm256_andnot_pd(blocks.pendMask[t], solve)) == 0;
        } else {
            refreshed = refreshSlot(R, solve, now);
        }
        const SlotNow& w = *fresh;
        const Mem3 lin0 = mem(R->lin0), lin1 = mem(R->lin1);
        const __m256d acc = ld(R->accum);
        // The rows' new impulses, each on its own (F 65, D 44), or from their blocks.
        __m256d na = _mm256_setzero_pd();
        if (!allInBlocks) na = rowImpulses(R, w, v, s, kind, spring, solve, acc);
        if constexpr (Blocks)
            na = allInBlocks ? blocks.pend[t] : pick(blocks.pendMask[t], blocks.pend[t], na);
        // na < lo ? lo : (na > hi ? hi : na), as min(hi, max(lo, na)): equal since lo ≤ hi (see
        // solveBatch in solver/fast/pgs_avx2.cpp)
        na = _mm256_min_pd(ld(R->maxImpulse), _mm256_max_pd(ld(R->minImpulse), na));
        const __m256d dl = sub(na, acc);
        const __m256d e0 = mul(dl, now.ls0), f0 = mul(dl, now.as0), e1 = mul(dl, now.ls1),
                      f1 = mul(dl, now.as1);
        __m256d rr = mul(dl, w.response);
        if constexpr (Blocks) rr = pick(blocks.pendMask[t], blocks.asked[t], rr);  // (Δλ·r is not a block's)
        if (_mm256_movemask_pd(solve) == 0xF) {                                    // F 24, 60–61
            _mm256_store_pd(R->accum, na);
            addScaled(v.av, e0, lin0);
            addScaled(v.aw, f0, w.angM0);
            subScaled(v.bv, e1, lin1);
            subScaled(v.bw, f1, w.angM1);
            residual = add(residual, mul(rr, rr));
            continue;
        }
        // Some lanes skip this row (inactive, padding, or a spring in a velocity iteration): they
        // keep their impulse and their bodies' velocities bit for bit.
        _mm256_store_pd(R->accum, pick(solve, na, acc));
        Vec3x4 u = v.av;
        addScaled(u, e0, lin0);
        v.av = {pick(solve, u.x, v.av.x), pick(solve, u.y, v.av.y), pick(solve, u.z, v.av.z)};
        u = v.aw;
        addScaled(u, f0, w.angM0);
        v.aw = {pick(solve, u.x, v.aw.x), pick(solve, u.y, v.aw.y), pick(solve, u.z, v.aw.z)};
        u = v.bv;
        subScaled(u, e1, lin1);
        v.bv = {pick(solve, u.x, v.bv.x), pick(solve, u.y, v.bv.y), pick(solve, u.z, v.bv.z)};
        u = v.bw;
        subScaled(u, f1, w.angM1);
        v.bw = {pick(solve, u.x, v.bw.x), pick(solve, u.y, v.bw.y), pick(solve, u.z, v.bw.z)};
        residual = pick(solve, add(residual, mul(rr, rr)), residual);
    }
    storeBodies4(a, v.av, v.aw);
    storeBodies4(b, v.bv, v.bw);
    return residual;
}

}  // namespace

void sweepTgsBatchesAvx2(const Batch* batches, const TgsArms* arms, int begin, int end, TgsLanes* slots,
                         const TgsSweep& s, LaneSums& residual) {
    __m256d res = _mm256_load_pd(residual.v);
    for (int i = begin; i < end; ++i) {
        const Batch& bt = batches[i];
        // Friction bounds depend on slot 0, a single joint, a row whose axis follows its
        // anchors (kTgsSeparation) or a soft joint row (kTgsSoftJoint): the plain kernel (same
        // results).
        if (bt.contact || bt.laneCount == 1 || bt.separation || bt.softJoints) {
            _mm256_store_pd(residual.v, res);
            sweepTgsBatchesScalar(batches, arms, i, i + 1, slots, s, residual);
            res = _mm256_load_pd(residual.v);
            continue;
        }
        res = hasBlocks(bt) ? solveTgsBatch<true>(bt, arms[i], slots, s, res)
                            : solveTgsBatch<false>(bt, arms[i], slots, s, res);
    }
    _mm256_store_pd(residual.v, res);
}

int integrateTgsBodiesAvx2(const TgsIntegrate& in, int begin, int end, int* left) {
    int nLeft = 0;
    const __m256d h = _mm256_set1_pd(in.h), halfH = _mm256_set1_pd(0.5 * in.h), one = _mm256_set1_pd(1.0);
    const __m256d maxLin2 = _mm256_set1_pd(in.maxLinearSpeed * in.maxLinearSpeed);
    const __m256d maxAng = _mm256_set1_pd(in.maxAngularSpeed), zero = _mm256_setzero_pd();
    const __m256i first3 = _mm256_set_epi64x(0, -1, -1, -1);
    int i = begin;
    for (; i + kLanes <= end; i += kLanes) {
        double* v[kLanes];
        double* d[kLanes];
        double* info[kLanes];
        const double* inv[kLanes];
        for (int l = 0; l < kLanes; ++l) {
            v[l] = in.vel + 8 * (i + l);
            d[l] = in.delta + 8 * (i + l);
            info[l] = in.info + static_cast<std::ptrdiff_t>(in.infoStride) * (i + l);
            inv[l] = info[l] + in.invIAt;
        }
        const Vec3x4 lv = load4(v[0], v[1], v[2], v[3]), av = load4(v[0] + 4, v[1] + 4, v[2] + 4, v[3] + 4);
        // clampSpeed: capped when |v|² > max²; ω = I^-½·ω⁽ᵐ⁾ capped when |ω| > max
        const __m256d l2 = add(add(mul(lv.x, lv.x), mul(lv.y, lv.y)), mul(lv.z, lv.z));
        __m256d I[9], w[3];
        loadMat3(inv, I);
        const __m256d am[3] = {av.x, av.y, av.z};
        mulMat3(I, am, w);
        const __m256d wl = _mm256_sqrt_pd(add(add(mul(w[0], w[0]), mul(w[1], w[1])), mul(w[2], w[2])));
        __m256d special =
            _mm256_or_pd(_mm256_cmp_pd(l2, maxLin2, _CMP_GT_OQ), _mm256_cmp_pd(wl, maxAng, _CMP_GT_OQ));
        // integrateRotation: dq = (0, ω)·q; r = q + (h/2)·dq; q' = r/|r| (glm's operations)
        __m256d q[4];  // x, y, z, w
        transpose4(info[0] + in.quatAt, info[1] + in.quatAt, info[2] + in.quatAt, info[3] + in.quatAt, q);
        const __m256d pw = zero;
        const __m256d dqw = sub(sub(sub(mul(pw, q[3]), mul(w[0], q[0])), mul(w[1], q[1])), mul(w[2], q[2]));
        const __m256d dqx = sub(add(add(mul(pw, q[0]), mul(w[0], q[3])), mul(w[1], q[2])), mul(w[2], q[1]));
        const __m256d dqy = sub(add(add(mul(pw, q[1]), mul(w[1], q[3])), mul(w[2], q[0])), mul(w[0], q[2]));
        const __m256d dqz = sub(add(add(mul(pw, q[2]), mul(w[2], q[3])), mul(w[0], q[1])), mul(w[1], q[0]));
        const __m256d rw = add(q[3], mul(halfH, dqw)), rx = add(q[0], mul(halfH, dqx));
        const __m256d ry = add(q[1], mul(halfH, dqy)), rz = add(q[2], mul(halfH, dqz));
        const __m256d len = _mm256_sqrt_pd(add(add(mul(rw, rw), mul(rx, rx)), add(mul(ry, ry), mul(rz, rz))));
        special = _mm256_or_pd(special, _mm256_cmp_pd(len, zero, _CMP_LE_OQ));
        if (_mm256_movemask_pd(special) != 0) {
            for (int l = 0; l < kLanes; ++l) left[nLeft++] = i + l;
            continue;
        }
        const __m256d inv1 = _mm256_div_pd(one, len);
        const __m256d qo[4] = {mul(rx, inv1), mul(ry, inv1), mul(rz, inv1), mul(rw, inv1)};
        // p += v·h; Δx += v·h; Δθ⁽ᵐ⁾ += ω⁽ᵐ⁾·h
        const Vec3x4 vh = {mul(lv.x, h), mul(lv.y, h), mul(lv.z, h)};
        const Vec3x4 wh = {mul(av.x, h), mul(av.y, h), mul(av.z, h)};
        __m256d p[4];
        transpose4(info[0] + in.posAt, info[1] + in.posAt, info[2] + in.posAt, info[3] + in.posAt, p);
        Vec3x4 dl = load4(d[0], d[1], d[2], d[3]), da = load4(d[0] + 4, d[1] + 4, d[2] + 4, d[3] + 4);
        dl = {add(dl.x, vh.x), add(dl.y, vh.y), add(dl.z, vh.z)};
        da = {add(da.x, wh.x), add(da.y, wh.y), add(da.z, wh.z)};
        store4(d[0], d[1], d[2], d[3], dl);
        store4(d[0] + 4, d[1] + 4, d[2] + 4, d[3] + 4, da);
        // positions (3 doubles each) and orientations back, lane by lane
        const __m256d px = add(p[0], vh.x), py = add(p[1], vh.y), pz = add(p[2], vh.z);
        const __m256d t0 = _mm256_unpacklo_pd(px, py), t1 = _mm256_unpackhi_pd(px, py);
        const __m256d t2 = _mm256_unpacklo_pd(pz, zero), t3 = _mm256_unpackhi_pd(pz, zero);
        const __m256d pos[4] = {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
                                _mm256_permute2f128_pd(t0, t2, 0x31), _mm256_permute2f128_pd(t1, t3, 0x31)};
        const __m256d u0 = _mm256_unpacklo_pd(qo[0], qo[1]), u1 = _mm256_unpackhi_pd(qo[0], qo[1]);
        const __m256d u2 = _mm256_unpacklo_pd(qo[2], qo[3]), u3 = _mm256_unpackhi_pd(qo[2], qo[3]);
        const __m256d quat[4] = {_mm256_permute2f128_pd(u0, u2, 0x20), _mm256_permute2f128_pd(u1, u3, 0x20),
                                 _mm256_permute2f128_pd(u0, u2, 0x31), _mm256_permute2f128_pd(u1, u3, 0x31)};
        for (int l = 0; l < kLanes; ++l) {
            _mm256_maskstore_pd(info[l] + in.posAt, first3, pos[l]);
            _mm256_storeu_pd(info[l] + in.quatAt, quat[l]);
        }
    }
    for (; i < end; ++i) left[nLeft++] = i;  // the last few
    return nLeft;
}

}  // namespace jl::solver
