// JointLab engine — the direct solve along joint trees (solver/tree.h: the maths and why).
#include "solver/tree.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace jl::solver::tree {

namespace {

constexpr int kBody = 6;  ///< a body node's size: v (3), ω⁽ᵐ⁾ (3)
/// A definite D's Cholesky pivot at most this times its largest diagonal entry: the factor fails
/// (a joint whose rows are dependent, or nearly so); rounding gives about 1e-16.
constexpr Real kMinPivot = 1e-12;

Real* at(std::vector<Real>& v, size_t node) {
    return v.data() + node * 36;
}

/// Row t's Jacobian towards body `b` (one of its bodies), as a node block row of 6: +[μ0, κ0⁽ᵐ⁾]
/// on body 0, −[μ1, κ1⁽ᵐ⁾] on body 1 (J·v = μ0·v0 + κ0·ω0 − μ1·v1 − κ1·ω1, F 62).
void jacobianTowards(const SolverRow& r, const Fresh& f, int b, Real out[kBody]) {
    const bool side0 = r.b0 == b;
    const Vec3 lin = side0 ? f.lin0 : -f.lin1, ang = side0 ? f.angM0 : -f.angM1;
    for (int k = 0; k < 3; ++k) out[k] = lin[k], out[3 + k] = ang[k];
}

/// D⁻¹ of the n×n symmetric `d` (row-major, stride 6), definite of sign `sign` (+1 a body node,
/// −1 a joint node), through the Cholesky factor of sign·D. False when a pivot is too small.
bool invertDefinite(const Real* d, int n, Real sign, Real* out) {
    Real l[36] = {}, maxDiag = 0.0;
    for (int i = 0; i < n; ++i) maxDiag = std::max(maxDiag, sign * d[i * 6 + i]);
    if (!(maxDiag > 0.0) || !std::isfinite(maxDiag)) return n == 0;
    for (int j = 0; j < n; ++j) {
        Real s = sign * d[j * 6 + j];
        for (int k = 0; k < j; ++k) s -= l[j * 6 + k] * l[j * 6 + k];
        if (!(s > kMinPivot * maxDiag)) return false;
        l[j * 6 + j] = std::sqrt(s);
        for (int i = j + 1; i < n; ++i) {
            Real t = sign * d[i * 6 + j];
            for (int k = 0; k < j; ++k) t -= l[i * 6 + k] * l[j * 6 + k];
            l[i * 6 + j] = t / l[j * 6 + j];
        }
    }
    // (sign·D)⁻¹ column by column: L·Lᵀ·x = e_c.
    for (int c = 0; c < n; ++c) {
        Real y[6] = {};
        for (int i = 0; i < n; ++i) {
            Real t = i == c ? 1.0 : 0.0;
            for (int k = 0; k < i; ++k) t -= l[i * 6 + k] * y[k];
            y[i] = t / l[i * 6 + i];
        }
        for (int i = n - 1; i >= 0; --i) {
            Real t = y[i];
            for (int k = i + 1; k < n; ++k) t -= l[k * 6 + i] * y[k];
            y[i] = t / l[i * 6 + i];
        }
        for (int i = 0; i < n; ++i) out[i * 6 + c] = sign * y[i];
    }
    return true;
}

/// The off-diagonal block H between node i and its parent p, as n_i × n_p (stride 6): a joint's
/// equality rows towards a body, or their transpose.
void parentBlock(const Forest& f, const Node& ni, const Node& np, Real* h) {
    const bool jointChild = ni.joint >= 0;
    const Node& jn = jointChild ? ni : np;
    const int body = jointChild ? np.body : ni.body;
    for (int a = 0; a < jn.n; ++a) {
        const int row = f.eq[static_cast<size_t>(jn.firstEq + a)];
        Real j[kBody];
        jacobianTowards(f.rows[static_cast<size_t>(row)], f.fresh[static_cast<size_t>(row)], body, j);
        for (int k = 0; k < kBody; ++k) {
            if (jointChild)
                h[a * 6 + k] = j[k];
            else
                h[k * 6 + a] = j[k];
        }
    }
}

/// Factors every node, leaves first (the reverse of each component's BFS order). False if a D is
/// not invertible.
bool factor(const State& s, Forest& f) {
    const size_t n = f.nodes.size();
    // (only each node's n_i × n_i and n_i × n_parent corners are used: written before read)
    f.dinv.resize(n * 36);
    f.lmat.resize(n * 36);
    std::vector<Real>& d = f.x;  // D_i, accumulated (x is free until the solves)
    d.resize(n * 36);
    for (size_t i = 0; i < n; ++i) {
        const Node& nd = f.nodes[i];
        Real* di = at(d, i);
        for (int a = 0; a < nd.n; ++a)
            for (int c = 0; c < nd.n; ++c) di[a * 6 + c] = 0.0;
        if (nd.body < 0) continue;  // a joint node: H_ii = 0
        const Real m = 1.0 / s.info[static_cast<size_t>(nd.body)].invMass;
        for (int k = 0; k < 3; ++k) di[k * 6 + k] = m, di[(3 + k) * 6 + 3 + k] = 1.0;
    }
    for (size_t ii = n; ii-- > 0;) {
        const Node& nd = f.nodes[ii];
        if (!invertDefinite(at(d, ii), nd.n, nd.body >= 0 ? 1.0 : -1.0, at(f.dinv, ii))) return false;
        if (nd.parent < 0) continue;
        const Node& np = f.nodes[static_cast<size_t>(nd.parent)];
        Real h[36] = {};
        parentBlock(f, nd, np, h);
        const Real* dinv = at(f.dinv, ii);
        Real* l = at(f.lmat, ii);
        for (int a = 0; a < nd.n; ++a)  // L = D⁻¹·H
            for (int c = 0; c < np.n; ++c) {
                Real t = 0.0;
                for (int k = 0; k < nd.n; ++k) t += dinv[a * 6 + k] * h[k * 6 + c];
                l[a * 6 + c] = t;
            }
        Real* dp = at(d, static_cast<size_t>(nd.parent));
        for (int a = 0; a < np.n; ++a)  // D_p −= Hᵀ·L
            for (int c = 0; c < np.n; ++c) {
                Real t = 0.0;
                for (int k = 0; k < nd.n; ++k) t += h[k * 6 + a] * l[k * 6 + c];
                dp[a * 6 + c] -= t;
            }
    }
    return true;
}

/// Solves H·x = b on component c's nodes, with b in f.x (6 per node) on entry and x there on exit.
void solve(Forest& f, int c) {
    const int begin = f.compNodes[static_cast<size_t>(c)], end = f.compNodes[static_cast<size_t>(c) + 1];
    Real* x = f.x.data();
    for (int i = end - 1; i >= begin; --i) {  // forward: x_p −= L_iᵀ·x_i
        const Node& nd = f.nodes[static_cast<size_t>(i)];
        if (nd.parent < 0) continue;
        const int pn = f.nodes[static_cast<size_t>(nd.parent)].n;
        const Real* l = f.lmat.data() + static_cast<size_t>(i) * 36;
        Real* xp = x + static_cast<size_t>(nd.parent) * 6;
        const Real* xi = x + static_cast<size_t>(i) * 6;
        for (int cc = 0; cc < pn; ++cc) {
            Real t = 0.0;
            for (int k = 0; k < nd.n; ++k) t += l[k * 6 + cc] * xi[k];
            xp[cc] -= t;
        }
    }
    for (int i = begin; i < end; ++i) {  // diagonal: x_i = D_i⁻¹·x_i
        const int n = f.nodes[static_cast<size_t>(i)].n;
        const Real* dinv = f.dinv.data() + static_cast<size_t>(i) * 36;
        Real* xi = x + static_cast<size_t>(i) * 6;
        Real y[6] = {};
        for (int a = 0; a < n; ++a)
            for (int k = 0; k < n; ++k) y[a] += dinv[a * 6 + k] * xi[k];
        std::copy(y, y + n, xi);
    }
    for (int i = begin; i < end; ++i) {  // backward (root first): x_i −= L_i·x_p
        const Node& nd = f.nodes[static_cast<size_t>(i)];
        if (nd.parent < 0) continue;
        const int pn = f.nodes[static_cast<size_t>(nd.parent)].n;
        const Real* l = f.lmat.data() + static_cast<size_t>(i) * 36;
        const Real* xp = x + static_cast<size_t>(nd.parent) * 6;
        Real* xi = x + static_cast<size_t>(i) * 6;
        for (int a = 0; a < nd.n; ++a) {
            Real t = 0.0;
            for (int k = 0; k < pn; ++k) t += l[a * 6 + k] * xp[k];
            xi[a] -= t;
        }
    }
}

void clearComponent(Forest& f, int c) {
    const size_t b = static_cast<size_t>(f.compNodes[static_cast<size_t>(c)]) * 6;
    const size_t e = static_cast<size_t>(f.compNodes[static_cast<size_t>(c) + 1]) * 6;
    std::fill(f.x.begin() + static_cast<std::ptrdiff_t>(b), f.x.begin() + static_cast<std::ptrdiff_t>(e),
              0.0);
}

/// Row `row`'s Jacobian times the body parts of f.x: its velocity change.
Real rowOfSolution(const Forest& f, int row) {
    const SolverRow& r = f.rows[static_cast<size_t>(row)];
    const Fresh& fr = f.fresh[static_cast<size_t>(row)];
    Real sum = 0.0;
    for (int b : {r.b0, r.b1}) {
        const int node = f.bodyNode[static_cast<size_t>(b)];
        if (node < 0) continue;
        Real j[kBody];
        jacobianTowards(r, fr, b, j);
        const Real* x = f.x.data() + static_cast<size_t>(node) * 6;
        for (int k = 0; k < kBody; ++k) sum += j[k] * x[k];
    }
    return sum;
}

/// The factor and every other row's K_eff and μ, from this pass's Jacobians (f.fresh).
void factorAndResponses(const State& s, Forest& f) {
    f.factored = factor(s, f);
    f.x.resize(f.nodes.size() * 6);  // (each solve clears its component first)
    if (!f.factored) return;
    for (size_t o = 0; o < f.other.size(); ++o) {
        const int row = f.other[o], c = f.otherComp[o];
        const SolverRow& r = f.rows[static_cast<size_t>(row)];
        clearComponent(f, c);
        for (int b : {r.b0, r.b1}) {  // b = [Jᵀ on the bodies; 0]
            const int node = f.bodyNode[static_cast<size_t>(b)];
            if (node < 0) continue;
            jacobianTowards(r, f.fresh[static_cast<size_t>(row)], b,
                            f.x.data() + static_cast<size_t>(node) * 6);
        }
        solve(f, c);
        const Real k = rowOfSolution(f, row);  // J·P·Jᵀ
        f.otherK[o] = k > kMinResponse && k > 1e-9 * r.response && std::isfinite(k) ? k : 0.0;
        Real* mu = f.mu.data() + f.otherMu[o];
        for (int i = f.compNodes[static_cast<size_t>(c)]; i < f.compNodes[static_cast<size_t>(c) + 1]; ++i) {
            const Node& nd = f.nodes[static_cast<size_t>(i)];
            for (int a = 0; a < nd.n && nd.joint >= 0; ++a)
                mu[nd.firstEq + a - f.compEq[static_cast<size_t>(c)]] = -f.x[static_cast<size_t>(i) * 6 + a];
        }
    }
}

/// Applies impulse change dl of row r with this pass's Jacobian (F 24, 60–61).
void apply(const SolverRow& r, const Fresh& fr, Real dl, std::vector<Body>& bodies) {
    Body& a = bodies[static_cast<size_t>(r.b0)];
    Body& b = bodies[static_cast<size_t>(r.b1)];
    a.linVel += (dl * r.linScale0) * fr.lin0;
    a.angVel += (dl * r.angScale0) * fr.angM0;
    b.linVel -= (dl * r.linScale1) * fr.lin1;
    b.angVel -= (dl * r.angScale1) * fr.angM1;
}

Real velocity(const State& s, const Fresh& fr, const SolverRow& r) {
    return rowVelocity(fr, s.bodies[static_cast<size_t>(r.b0)], s.bodies[static_cast<size_t>(r.b1)]);
}

/// Step 1: the equality rows asked for c (f.x's joint entries, set by the caller) solved at once
/// and applied. Returns Σ c².
Real solveEqualities(State& s, Forest& f, const std::vector<Real>& c) {
    Real sum = 0.0;
    for (size_t comp = 0; comp + 1 < f.compNodes.size(); ++comp) {
        const int ci = static_cast<int>(comp);
        clearComponent(f, ci);
        for (int i = f.compNodes[comp]; i < f.compNodes[comp + 1]; ++i) {
            const Node& nd = f.nodes[static_cast<size_t>(i)];
            for (int a = 0; a < nd.n && nd.joint >= 0; ++a) {
                const Real ce = c[static_cast<size_t>(nd.firstEq + a)];
                f.x[static_cast<size_t>(i) * 6 + a] = ce;
                sum += ce * ce;
            }
        }
        solve(f, ci);
        for (int i = f.compNodes[comp]; i < f.compNodes[comp + 1]; ++i) {
            const Node& nd = f.nodes[static_cast<size_t>(i)];
            for (int a = 0; a < nd.n && nd.joint >= 0; ++a) {
                const int row = f.eq[static_cast<size_t>(nd.firstEq + a)];
                SolverRow& r = f.rows[static_cast<size_t>(row)];
                const Real dl = clampAccumulate(r, r.accum - f.x[static_cast<size_t>(i) * 6 + a], f.rows);
                apply(r, f.fresh[static_cast<size_t>(row)], dl, s.bodies);
            }
        }
    }
    return sum;
}

/// Step 2's impulse through P: other row o's dl applied plainly, and dl·μ on its component's
/// equality rows (which then stay satisfied).
void applyThroughP(State& s, Forest& f, size_t o, Real dl) {
    const int row = f.other[o], c = f.otherComp[o];
    apply(f.rows[static_cast<size_t>(row)], f.fresh[static_cast<size_t>(row)], dl, s.bodies);
    const Real* mu = f.mu.data() + f.otherMu[o];
    const int e0 = f.compEq[static_cast<size_t>(c)], e1 = f.compEq[static_cast<size_t>(c) + 1];
    for (int e = e0; e < e1; ++e) {
        const Real de = dl * mu[e - e0];
        if (de == 0.0) continue;
        const int row_e = f.eq[static_cast<size_t>(e)];
        SolverRow& r = f.rows[static_cast<size_t>(row_e)];
        r.accum += de;
        apply(r, f.fresh[static_cast<size_t>(row_e)], de, s.bodies);
    }
}

/// PGS: row r's impulse change from its set-up (F 63–65, D 20–22) with response k in place of its
/// own r: the 1D change d solves (r + ε)·d = rhs, with r + ε = −1/vMul (ε = 0 for a hard row,
/// 1/a for a spring); with k the same rhs gives d·(r + ε)/(k + ε).
Real pgsImpulse(const SolverRow& r, Real jv, bool biased, Real k) {
    const Real d = (biased ? r.constant : r.unbiasedConstant) + r.vMul * jv + (r.impulseMul - 1.0) * r.accum;
    if (!(r.vMul < 0.0) || k == r.response) return d;
    const Real w = -1.0 / r.vMul;
    return d * w / ((k - r.response) + w);
}

/// TGS: row r's impulse change (D 44, F 65) with this pass's Jacobian and response k.
Real tgsImpulse(const SolverRow& r, const SolverRowExtra& x, Fresh fr, const TgsPass& pass, Real jv, Real k) {
    fr.response = k;
    fr.recip = 1.0 / k;
    if (r.flags & kSolveSpring) return springImpulse(r, x, fr, pass, jv);
    return hardImpulse(x, fr, jv, hardBias(r, x, fr.C, pass));
}

/// Every row visited on its own (a forest whose factor failed); returns Σ (Δλ·r)².
template <class Impulse>
Real visitOneByOne(State& s, Forest& f, Impulse impulse) {
    Real sum = 0.0;
    for (size_t row = 0; row < f.rows.size(); ++row) {
        SolverRow& r = f.rows[row];
        const Fresh& fr = f.fresh[row];
        if (r.flags & kSolveInactive || !(fr.response > kMinResponse)) continue;
        const Real dl = clampAccumulate(r, r.accum + impulse(row, fr.response), f.rows);
        apply(r, fr, dl, s.bodies);
        sum += (dl * fr.response) * (dl * fr.response);
    }
    return sum;
}

/// Step 2 for every other row; returns Σ (Δλ·K_eff)².
template <class Impulse>
Real visitOthers(State& s, Forest& f, Impulse impulse) {
    Real sum = 0.0;
    for (size_t o = 0; o < f.other.size(); ++o) {
        const Real k = f.otherK[o];
        if (!(k > 0.0)) continue;
        SolverRow& r = f.rows[static_cast<size_t>(f.other[o])];
        const Real dl = clampAccumulate(r, r.accum + impulse(static_cast<size_t>(f.other[o]), k), f.rows);
        applyThroughP(s, f, o, dl);
        sum += (dl * k) * (dl * k);
    }
    return sum;
}

/// Step 0: every spring, and the limits of a component too large for P, visited plainly (its own
/// response, both bodies only); returns Σ (Δλ·r)².
template <class Impulse>
Real visitPlain(State& s, Forest& f, Impulse impulse) {
    Real sum = 0.0;
    for (const int row : f.plain) {
        SolverRow& r = f.rows[static_cast<size_t>(row)];
        const Fresh& fr = f.fresh[static_cast<size_t>(row)];
        if (!(fr.response > kMinResponse)) continue;
        const Real dl = clampAccumulate(r, r.accum + impulse(static_cast<size_t>(row), fr.response), f.rows);
        apply(r, fr, dl, s.bodies);
        sum += (dl * fr.response) * (dl * fr.response);
    }
    return sum;
}

void freshFromRows(Forest& f) {
    f.fresh.resize(f.rows.size());
    for (size_t i = 0; i < f.rows.size(); ++i) {
        const SolverRow& r = f.rows[i];
        f.fresh[i] = Fresh{r.lin0, r.lin1, r.angM0, r.angM1, f.extra[i].error0, r.response, r.recipResponse};
    }
}

}  // namespace

bool isEquality(const Row& row) {
    constexpr uint16_t kHardRow = kRowOutputForce | kRowAngular;
    return row.solveHint == SolveHint::Equality && !(row.flags & ~kHardRow) && row.minImpulse == -kInf &&
           row.maxImpulse == kInf;
}

void selectForest(const std::vector<BodyInfo>& info, const std::vector<int>& b0, const std::vector<int>& b1,
                  const std::vector<uint8_t>& candidate, std::vector<uint8_t>& taken,
                  std::vector<int>& parent) {
    // Union-find over the solver bodies; every body that is not dynamic is the ground, set 0.
    parent.resize(info.size());
    for (size_t i = 0; i < parent.size(); ++i) parent[i] = info[i].dynamic ? static_cast<int>(i) : 0;
    auto find = [&](int a) {
        while (parent[static_cast<size_t>(a)] != a) {
            parent[static_cast<size_t>(a)] = parent[static_cast<size_t>(parent[static_cast<size_t>(a)])];
            a = parent[static_cast<size_t>(a)];
        }
        return a;
    };
    parent[0] = 0;
    taken.assign(candidate.size(), 0);
    for (size_t j = 0; j < candidate.size(); ++j) {
        if (!candidate[j]) continue;
        const int a = find(b0[j]), b = find(b1[j]);
        if (a == b) continue;  // a loop, or the ground to itself
        // The ground stays its own root (set 0), so a second joint to it closes a loop.
        if (a < b)
            parent[static_cast<size_t>(b)] = a;
        else
            parent[static_cast<size_t>(a)] = b;
        taken[j] = 1;
    }
}

void Forest::clear() {
    rows.clear();
    extra.clear();
    equality.clear();
    jointFirst.clear();
    nodes.clear();
}

void begin(const State& s, Forest& f, bool tgs) {
    // The KKT graph: per body its joints (in joint order), then a BFS from each root: a joint to
    // the ground (its component has at most one), else the first joint's first dynamic body.
    const int nj = f.jointCount();
    const size_t nb = s.info.size();
    f.nodes.clear();
    f.compNodes.assign(1, 0);
    f.compEq.assign(1, 0);
    f.eq.clear();
    f.bodyNode.assign(nb, -1);
    auto dynamicBody = [&](int b) { return b > 0 && s.info[static_cast<size_t>(b)].dynamic; };
    std::vector<int>& adj = f.scratch;  // per body: [start, …) into a list of joints, CSR
    adj.assign(nb + 1, 0);
    std::vector<int>&jb0 = f.graph[0], &jb1 = f.graph[1];  // per joint: its dynamic bodies, else −1
    jb0.resize(static_cast<size_t>(nj));
    jb1.resize(static_cast<size_t>(nj));
    for (int j = 0; j < nj; ++j) {
        const SolverRow& r = f.rows[static_cast<size_t>(f.jointFirst[static_cast<size_t>(j)])];
        jb0[static_cast<size_t>(j)] = dynamicBody(r.b0) ? r.b0 : -1;
        jb1[static_cast<size_t>(j)] = dynamicBody(r.b1) ? r.b1 : -1;
        for (int b : {jb0[static_cast<size_t>(j)], jb1[static_cast<size_t>(j)]})
            if (b >= 0) ++adj[static_cast<size_t>(b) + 1];
    }
    for (size_t b = 0; b < nb; ++b) adj[b + 1] += adj[b];
    std::vector<int>&list = f.graph[2], &fill = f.graph[3];
    list.resize(static_cast<size_t>(adj[nb]));
    fill.assign(adj.begin(), adj.end() - 1);
    for (int j = 0; j < nj; ++j)
        for (int b : {jb0[static_cast<size_t>(j)], jb1[static_cast<size_t>(j)]})
            if (b >= 0) list[static_cast<size_t>(fill[static_cast<size_t>(b)]++)] = j;
    std::vector<int>& jointNode = f.graph[4];
    jointNode.assign(static_cast<size_t>(nj), -1);

    auto addJoint = [&](int j, int parent) {
        Node nd;
        nd.parent = parent;
        nd.joint = j;
        nd.firstEq = static_cast<int>(f.eq.size());
        for (int row = f.jointFirst[static_cast<size_t>(j)]; row < f.jointFirst[static_cast<size_t>(j) + 1];
             ++row)
            if (f.equality[static_cast<size_t>(row)] &&
                !(f.rows[static_cast<size_t>(row)].flags & kSolveInactive))
                f.eq.push_back(row);
        nd.n = static_cast<int>(f.eq.size()) - nd.firstEq;
        jointNode[static_cast<size_t>(j)] = static_cast<int>(f.nodes.size());
        f.nodes.push_back(nd);
    };
    auto addBody = [&](int b, int parent) {
        Node nd;
        nd.parent = parent;
        nd.body = b;
        nd.n = kBody;
        f.bodyNode[static_cast<size_t>(b)] = static_cast<int>(f.nodes.size());
        f.nodes.push_back(nd);
    };
    auto grow = [&](size_t from) {  // BFS from the nodes appended so far
        for (size_t i = from; i < f.nodes.size(); ++i) {
            const Node nd = f.nodes[i];
            if (nd.joint >= 0) {
                for (int b : {jb0[static_cast<size_t>(nd.joint)], jb1[static_cast<size_t>(nd.joint)]})
                    if (b >= 0 && f.bodyNode[static_cast<size_t>(b)] < 0) addBody(b, static_cast<int>(i));
            } else {
                for (int k = adj[static_cast<size_t>(nd.body)]; k < adj[static_cast<size_t>(nd.body) + 1];
                     ++k) {
                    const int j = list[static_cast<size_t>(k)];
                    if (jointNode[static_cast<size_t>(j)] < 0) addJoint(j, static_cast<int>(i));
                }
            }
        }
        f.compNodes.push_back(static_cast<int>(f.nodes.size()));
        f.compEq.push_back(static_cast<int>(f.eq.size()));
    };
    for (int j = 0; j < nj; ++j)  // components held by the ground
        if (jointNode[static_cast<size_t>(j)] < 0 &&
            (jb0[static_cast<size_t>(j)] < 0) != (jb1[static_cast<size_t>(j)] < 0)) {
            const size_t from = f.nodes.size();
            addJoint(j, -1);
            grow(from);
        }
    for (int j = 0; j < nj; ++j)  // floating components
        if (jointNode[static_cast<size_t>(j)] < 0 && jb0[static_cast<size_t>(j)] >= 0) {
            const size_t from = f.nodes.size();
            addBody(jb0[static_cast<size_t>(j)], -1);
            grow(from);
        }

    // The other active rows, with their component.
    f.other.clear();
    f.otherComp.clear();
    f.otherMu.clear();
    f.plain.clear();
    std::vector<int>& compOf = f.graph[5];
    compOf.resize(f.nodes.size());
    for (size_t c = 0; c + 1 < f.compNodes.size(); ++c)
        for (int i = f.compNodes[c]; i < f.compNodes[c + 1]; ++i)
            compOf[static_cast<size_t>(i)] = static_cast<int>(c);
    // A row goes through P when its component can afford it: each such row stores μ over the
    // component's equality rows and costs a forest solve per factor, so m limits on a component of
    // e equality rows cost m·e; past kMaxResponseEntries the component's limits are visited
    // plainly, as its springs are (1080 hinges with tight limits in one tree: 220 s for 200 PGS
    // steps through P, quadratic in the size; block 0.95 s).
    auto throughP = [&](int row) {
        const auto flags = f.rows[static_cast<size_t>(row)].flags;
        return !f.equality[static_cast<size_t>(row)] && !(flags & kSolveInactive) && !(flags & kSolveSpring);
    };
    std::vector<int>& limitsOf = f.graph[6];
    limitsOf.assign(f.compNodes.size(), 0);
    for (int j = 0; j < nj; ++j) {
        const int node = jointNode[static_cast<size_t>(j)];
        if (node < 0) continue;
        for (int row = f.jointFirst[static_cast<size_t>(j)]; row < f.jointFirst[static_cast<size_t>(j) + 1];
             ++row)
            limitsOf[static_cast<size_t>(compOf[static_cast<size_t>(node)])] += throughP(row) ? 1 : 0;
    }
    size_t muSize = 0;
    for (int j = 0; j < nj; ++j) {
        const int node = jointNode[static_cast<size_t>(j)];
        if (node < 0) continue;  // (every joint has a node: both ends dynamic, or one)
        const int c = compOf[static_cast<size_t>(node)];
        const size_t eqRows =
            static_cast<size_t>(f.compEq[static_cast<size_t>(c) + 1] - f.compEq[static_cast<size_t>(c)]);
        const bool affordable =
            static_cast<size_t>(limitsOf[static_cast<size_t>(c)]) * eqRows <= kMaxResponseEntries;
        for (int row = f.jointFirst[static_cast<size_t>(j)]; row < f.jointFirst[static_cast<size_t>(j) + 1];
             ++row) {
            const auto flags = f.rows[static_cast<size_t>(row)].flags;
            if (f.equality[static_cast<size_t>(row)] || (flags & kSolveInactive)) continue;
            if (!throughP(row) || !affordable) {
                f.plain.push_back(row);
                continue;
            }
            f.other.push_back(row);
            f.otherComp.push_back(c);
            f.otherMu.push_back(static_cast<int>(muSize));
            muSize += eqRows;
        }
    }
    f.otherK.assign(f.other.size(), 0.0);
    f.mu.assign(muSize, 0.0);
    freshFromRows(f);
    f.factoredTgs = false;
    if (!tgs) factorAndResponses(s, f);
}

Real passPgs(State& s, Forest& f, bool biased) {
    auto impulse = [&](size_t row, Real k) {
        const SolverRow& r = f.rows[row];
        return pgsImpulse(r, velocity(s, f.fresh[row], r), biased, k);
    };
    if (!f.factored) return visitOneByOne(s, f, impulse);
    const Real plain = visitPlain(s, f, impulse);
    std::vector<Real>& asked = f.asked;
    asked.resize(f.eq.size());
    for (size_t e = 0; e < f.eq.size(); ++e) {  // c = r·d: −(J·v + b − v_T) (F 63–65)
        const SolverRow& r = f.rows[static_cast<size_t>(f.eq[e])];
        const Real jv = velocity(s, f.fresh[static_cast<size_t>(f.eq[e])], r);
        asked[e] = r.response * ((biased ? r.constant : r.unbiasedConstant) + r.vMul * jv);
    }
    const Real sum = plain + solveEqualities(s, f, asked);
    return sum + visitOthers(s, f, impulse);
}

Real passTgs(State& s, Forest& f, const TgsPass& pass) {
    // The rows brought up to date (F 66). The bodies move only between a substep's sweep and the
    // next one (its relax sweep, the next substep, the velocity sweeps), so the factor is kept
    // while every row is the same to the bit: once per substep, as the block's K.
    bool same = f.fresh.size() == f.rows.size() && f.factoredTgs;
    f.fresh.resize(f.rows.size());
    for (size_t i = 0; i < f.rows.size(); ++i) {
        const Fresh fr = refresh(s, f.rows[i], f.extra[i]);
        same = same && std::memcmp(&fr, &f.fresh[i], sizeof(Fresh)) == 0;
        f.fresh[i] = fr;
    }
    if (!same) factorAndResponses(s, f);
    f.factoredTgs = true;
    auto impulse = [&](size_t row, Real k) {
        const SolverRow& r = f.rows[row];
        const Fresh& fr = f.fresh[row];
        if (pass.velocity && (r.flags & kSolveSpring)) return 0.0;  // springs frozen
        return tgsImpulse(r, f.extra[row], fr, pass, velocity(s, fr, r), k);
    };
    if (!f.factored) return visitOneByOne(s, f, impulse);
    const Real plain = visitPlain(s, f, impulse);
    std::vector<Real>& asked = f.asked;
    asked.resize(f.eq.size());
    for (size_t e = 0; e < f.eq.size(); ++e) {  // c = −(J⁽ᵐ⁾v⁽ᵐ⁾ + b − v_T) (F 65)
        const size_t row = static_cast<size_t>(f.eq[e]);
        const Fresh& fr = f.fresh[row];
        asked[e] = -(velocity(s, fr, f.rows[row]) + hardBias(f.rows[row], f.extra[row], fr.C, pass) -
                     f.extra[row].velTarget);
    }
    const Real sum = plain + solveEqualities(s, f, asked);
    return sum + visitOthers(s, f, impulse);
}

void saveImpulses(Forest& f) {
    f.saved.resize(f.rows.size());
    for (size_t i = 0; i < f.rows.size(); ++i) f.saved[i] = f.rows[i].accum;
}

void restoreImpulses(Forest& f) {
    for (size_t i = 0; i < f.rows.size() && i < f.saved.size(); ++i) f.rows[i].accum = f.saved[i];
}

}  // namespace jl::solver::tree
