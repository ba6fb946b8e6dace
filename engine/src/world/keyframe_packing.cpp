// JointLab engine — keyframe packing (jointlab/history.h: packSnapshot, unpackSnapshot): a
// WorldSnapshot as words, each XORed with a prediction from the words before it (the body before's,
// a quaternion's other components, a joint's other body), leading zero nibbles left out, with a
// check word, so that a damaged keyframe is refused. Kept apart from the
// History's recording and seeking (world/history.cpp), which only call these two functions.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <variant>

#include "jointlab/history.h"
#include "jointlab/name_index.h"

namespace jl {

// [SECTION] packing

namespace {

/// Words of a snapshot before they are coded (encodeWords): a header of counts, then the values.
class Words {
public:
    void put(uint64_t w) { out_.push_back(w); }
    void put(Real x) {
        uint64_t w;
        std::memcpy(&w, &x, sizeof w);
        out_.push_back(w);
    }
    void put(const Vec3& v) {
        for (int k = 0; k < 3; ++k) put(v[k]);
    }
    void putBits(const std::vector<bool>& bits) {
        for (size_t i = 0; i < bits.size(); i += 64) {
            uint64_t w = 0;
            for (size_t k = 0; k < 64 && i + k < bits.size(); ++k)
                if (bits[i + k]) w |= uint64_t{1} << k;
            out_.push_back(w);
        }
    }
    std::vector<uint64_t>& words() { return out_; }

private:
    std::vector<uint64_t> out_;
};

class Reader {
public:
    explicit Reader(const std::vector<uint64_t>& w) : w_(w) {}
    bool get(uint64_t& v) {
        if (at_ >= w_.size()) return false;
        v = w_[at_++];
        return true;
    }
    bool get(Real& x) {
        uint64_t v;
        if (!get(v)) return false;
        std::memcpy(&x, &v, sizeof x);
        return true;
    }
    bool get(Vec3& v) { return get(v.x) && get(v.y) && get(v.z); }
    bool getBits(std::vector<bool>& bits, size_t n) {
        bits.assign(n, false);
        for (size_t i = 0; i < n; i += 64) {
            uint64_t w;
            if (!get(w)) return false;
            for (size_t k = 0; k < 64 && i + k < n; ++k) bits[i + k] = (w >> k) & 1u;
        }
        return true;
    }
    bool done() const { return at_ == w_.size(); }

private:
    const std::vector<uint64_t>& w_;
    size_t at_ = 0;
};

/// A count read from a packed snapshot: no more than the words left could hold.
bool plausibleCount(uint64_t n, size_t wordsLeft, size_t perItem) {
    return n <= wordsLeft * 64 / std::max<size_t>(perItem, 1) + 64;
}

// The words of a snapshot are coded in three steps (history file format 3), exactly:
//
//  1. Each word is replaced by its XOR with a prediction made from the words before it, which
//     the decoder has already restored when it reaches it (it undoes this step front to back):
//       - a body's quaternion w: √(1 − x² − y² − z²) of its own x, y, z, written just before it
//         (a body's words are q x, y, z, w, then ω, p, v, so that these come first);
//       - a body's position and velocity, when the scene given to pack and unpack joins it to a
//         body before it (or to the world) with a joint whose anchors coincide (fixed, spherical,
//         revolute; the first such joint in scene order): the anchor on the other body, less the
//         body's own lever arm, p = a − q·r, and v = v' + ω' × r' − ω × r. A joint keeps its
//         anchors within its drift, so these share the sign, exponent and leading digits;
//       - those XORs rotated left by one bit, so that a difference of sign costs one low bit;
//       - every other word from the kStride-th on: the word kStride before it, the same field of
//         the body before (a BodyState is kStride words), which in a scene of similar bodies
//         shares its sign, exponent and leading digits.
//     Any prediction is exact to undo: only its size depends on how good it is. Format 2 XORed
//     every word with the body before's, in the order p, q, v, ω.
//  2. The XORed words as a bit stream (most significant bit first, in 64-bit words, the last one
//     padded with zero bits), after a first word that holds how many words there are:
//       4-bit tag n = 0…14: a nonzero word that starts with at least n zero nibbles, then its
//                           last 16 − n nibbles;
//       tag 15, then 4 bits m = 1…15: m zero words; m = 0: a 32-bit count of zero words follows.
//  3. A last word checks the words (wordsCheck): a keyframe damaged in a saved file, or unpacked
//     with another scene than it was packed with, is refused rather than read as another state.
//
// On the 1000-body chain scene of the history benchmark a keyframe packs into 0.73 of the words
// of format 1 (zero-word runs only): the low mantissa bits of moving bodies are as good as
// random, so the joints' drift bounds what an exact coding gets (docs/bench_history.md).
constexpr size_t kStride = 13;                        // words of a BodyState (q, ω, p, v)
constexpr uint64_t kMaxRawWords = uint64_t{1} << 25;  // 256 MiB (800 000 bodies): more is damage
constexpr size_t kHeaderWords = 7;                    // packSnapshot's counts before the bodies
// A body's words: q x, y, z, w (0–3), ω (4–6), p (7–9), v (10–12).
constexpr size_t kQw = 3, kOmega = 4, kPos = 7, kVel = 10;

Real realOf(uint64_t w) {
    Real x;
    std::memcpy(&x, &w, sizeof x);
    return x;
}
uint64_t wordOf(Real x) {
    uint64_t w;
    std::memcpy(&w, &x, sizeof w);
    return w;
}

/// The bits of √(1 − x² − y² − z²) (0 if that is not positive or not a number) for the words
/// x, y, z: w's prediction, the same operations on the same bits when packing and unpacking.
uint64_t predictedW(uint64_t xw, uint64_t yw, uint64_t zw) {
    const Real x = realOf(xw), y = realOf(yw), z = realOf(zw);
    const Real rest = 1.0 - (x * x + y * y + z * z);
    return wordOf(rest > 0.0 ? std::sqrt(rest) : 0.0);
}

/// A body's joint to a body before it (or the world), whose anchors coincide.
struct Link {
    int other = -2;  ///< the other body (scene index, lower), −1: the world, −2: no such joint
    Vec3 onOther{0.0}, onBody{0.0};  ///< the anchor in each one's frame (the world's: in world)
};

/// Each body's first joint in scene order (fixed, spherical or revolute) to a body of a lower
/// index or the world; none when there is no scene or it has another number of bodies.
std::vector<Link> linksOf(const Scene* scene, uint64_t bodies) {
    std::vector<Link> links;
    if (!scene || scene->bodies.size() != bodies) return links;
    links.resize(scene->bodies.size());
    const NameIndex index(scene->bodies);
    auto find = [&](const std::string& name) {
        if (name.empty()) return -1;
        const int i = index.find(name);
        return i < 0 ? -3 : i;
    };
    for (const JointDesc& j : scene->joints) {
        if (!std::holds_alternative<FixedJoint>(j.params) &&
            !std::holds_alternative<SphericalJoint>(j.params) &&
            !std::holds_alternative<RevoluteJoint>(j.params))
            continue;
        const int a = find(j.body0), b = find(j.body1);
        if (a == -3 || b == -3) continue;
        if (b >= 0 && a < b && links[static_cast<size_t>(b)].other == -2)
            links[static_cast<size_t>(b)] = {a, j.frame0.p, j.frame1.p};
        else if (a >= 0 && b < a && links[static_cast<size_t>(a)].other == -2)
            links[static_cast<size_t>(a)] = {b, j.frame1.p, j.frame0.p};
    }
    return links;
}

/// Step 1 (see above), in place: forward (packing) from the back, so that the words a prediction
/// reads are still the raw ones; inverse (unpacking) from the front, so that they are restored.
class Residuals {
public:
    Residuals(std::vector<uint64_t>& words, const Scene* scene) : w_(words) {
        // The header is never changed, so its body count reads the same both ways (no more than
        // the words could hold).
        bodies_ =
            w_.size() > kHeaderWords ? std::min<uint64_t>(w_[2], (w_.size() - kHeaderWords) / kStride) : 0;
        links_ = linksOf(scene, bodies_);
    }
    void forward() {
        for (size_t i = w_.size(); i-- > kStride;) w_[i] = encoded(i);
    }
    void inverse() {
        for (size_t i = kStride; i < w_.size(); ++i) w_[i] = decoded(i);
    }

private:
    /// The prediction of word i from the words before it, and whether it has one (else the word
    /// kStride before it is the reference).
    bool predicted(size_t i, uint64_t& pred) {
        if (i < kHeaderWords) return false;
        const size_t b = (i - kHeaderWords) / kStride, f = (i - kHeaderWords) % kStride;
        if (b >= bodies_) return false;
        if (f == kQw) {
            pred = predictedW(w_[i - 3], w_[i - 2], w_[i - 1]);
            return true;
        }
        if (f < kPos || links_.empty() || links_[b].other == -2) return false;
        if (cached_ != b) predictBody(b);
        pred = wordOf(body_[f - kPos]);
        return true;
    }
    /// p = a − q·r and v = v' + ω' × r' − ω × r (the other body's terms zero for the world).
    void predictBody(size_t b) {
        const Link& l = links_[b];
        const uint64_t* self = w_.data() + kHeaderWords + b * kStride;
        const Quat q = quatAt(self);
        const Vec3 r = q * l.onBody, omega = vecAt(self + kOmega);
        Vec3 anchor = l.onOther, vAnchor(0.0);
        if (l.other >= 0) {
            const uint64_t* o = w_.data() + kHeaderWords + static_cast<size_t>(l.other) * kStride;
            const Vec3 rOther = quatAt(o) * l.onOther;
            anchor = vecAt(o + kPos) + rOther;
            vAnchor = vecAt(o + kVel) + glm::cross(vecAt(o + kOmega), rOther);
        }
        const Vec3 p = anchor - r, v = vAnchor - glm::cross(omega, r);
        for (int k = 0; k < 3; ++k) body_[k] = p[k], body_[3 + k] = v[k];
        cached_ = b;
    }
    static Quat quatAt(const uint64_t* x) {
        Quat q;
        q.x = realOf(x[0]), q.y = realOf(x[1]), q.z = realOf(x[2]), q.w = realOf(x[3]);
        return q;
    }
    static Vec3 vecAt(const uint64_t* x) { return Vec3(realOf(x[0]), realOf(x[1]), realOf(x[2])); }
    uint64_t encoded(size_t i) {
        uint64_t pred;
        return predicted(i, pred) ? std::rotl(w_[i] ^ pred, 1) : w_[i] ^ w_[i - kStride];
    }
    uint64_t decoded(size_t i) {
        uint64_t pred;
        return predicted(i, pred) ? std::rotr(w_[i], 1) ^ pred : w_[i] ^ w_[i - kStride];
    }

    std::vector<uint64_t>& w_;
    uint64_t bodies_ = 0;
    std::vector<Link> links_;
    size_t cached_ = SIZE_MAX;  ///< the body whose predictions body_ holds
    Real body_[6] = {};         ///< its p, v predictions
};

/// Each word mixed into the running value with splitmix64's finaliser, a bijection with full
/// avalanche: a change to any one word always changes the result, and a damaged stream (which
/// changes a bit in every 13th word from where it went wrong) cannot cancel out as it can in FNV.
uint64_t wordsCheck(const std::vector<uint64_t>& raw) {
    uint64_t h = 0x6a09e667f3bcc908u;
    for (uint64_t w : raw) {
        h ^= w;
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9u;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebu;
        h ^= h >> 31;
    }
    return h;
}

class BitWriter {
public:
    void put(uint64_t v, int bits) {  // the low `bits` bits of v, 1 ≤ bits ≤ 64
        if (bits < 64) v &= (uint64_t{1} << bits) - 1;
        const int room = 64 - used_;
        if (bits <= room) {
            cur_ |= bits == 64 ? v : v << (room - bits);
            used_ += bits;
        } else {
            cur_ |= v >> (bits - room);
            out_.push_back(cur_);
            used_ = bits - room;
            cur_ = v << (64 - used_);
        }
        if (used_ == 64) {
            out_.push_back(cur_);
            cur_ = 0;
            used_ = 0;
        }
    }
    std::vector<uint64_t> finish() {
        if (used_ > 0) out_.push_back(cur_);
        return std::move(out_);
    }

private:
    std::vector<uint64_t> out_;
    uint64_t cur_ = 0;
    int used_ = 0;
};

class BitReader {
public:
    explicit BitReader(std::span<const uint64_t> w) : w_(w) {}
    bool get(int bits, uint64_t& v) {  // 1 ≤ bits ≤ 64
        if (static_cast<uint64_t>(bits) > bitsLeft()) return false;
        v = 0;
        while (bits > 0) {
            const int room = 64 - used_, take = std::min(bits, room);
            const uint64_t word = w_[at_] << used_;  // the unread bits, at the top
            v = take == 64 ? word : (v << take) | (word >> (64 - take));
            bits -= take;
            used_ += take;
            if (used_ == 64) ++at_, used_ = 0;
        }
        return true;
    }
    /// True when only the last word's zero padding is left (a whole word of it is never written).
    bool onlyPadding() const {
        return at_ == w_.size() || (at_ + 1 == w_.size() && used_ > 0 && (w_[at_] << used_) == 0);
    }

private:
    uint64_t bitsLeft() const { return (w_.size() - at_) * 64 - static_cast<uint64_t>(used_); }
    std::span<const uint64_t> w_;
    size_t at_ = 0;
    int used_ = 0;
};

std::vector<uint64_t> encodeWords(const std::vector<uint64_t>& raw, const Scene* scene) {
    std::vector<uint64_t> res = raw;  // step 1
    Residuals(res, scene).forward();
    auto residual = [&](size_t i) { return res[i]; };
    BitWriter out;
    out.put(static_cast<uint64_t>(raw.size()), 64);
    for (size_t i = 0; i < raw.size();) {
        const uint64_t x = residual(i);
        if (x != 0) {
            const int n = std::min(std::countl_zero(x) / 4, 14);
            out.put(static_cast<uint64_t>(n), 4);
            out.put(x, 4 * (16 - n));
            ++i;
            continue;
        }
        uint64_t run = 0;
        while (i < raw.size() && run < 0xffffffffu && residual(i) == 0) ++i, ++run;
        out.put(15, 4);
        if (run < 16) {
            out.put(run, 4);
        } else {
            out.put(0, 4);
            out.put(run, 32);
        }
    }
    std::vector<uint64_t> words = out.finish();
    words.push_back(wordsCheck(raw));
    return words;
}

/// False when the words are not a coded stream of words (truncated, extended, damaged).
bool decodeWords(std::span<const uint64_t> words, std::vector<uint64_t>& raw, const Scene* scene) {
    if (words.size() < 2 || words[0] > kMaxRawWords) return false;
    const size_t count = static_cast<size_t>(words[0]);
    raw.clear();
    raw.reserve(std::min<size_t>(count, words.size() * 16));
    BitReader in(words.subspan(1, words.size() - 2));
    while (raw.size() < count) {
        uint64_t tag, v;
        if (!in.get(4, tag)) return false;
        if (tag < 15) {
            if (!in.get(4 * (16 - static_cast<int>(tag)), v) || v == 0) return false;
            raw.push_back(v);
            continue;
        }
        uint64_t run;
        if (!in.get(4, run)) return false;
        if (run == 0 && (!in.get(32, run) || run < 16)) return false;
        if (run > count - raw.size()) return false;
        raw.insert(raw.end(), static_cast<size_t>(run), 0);
    }
    if (!in.onlyPadding()) return false;
    Residuals(raw, scene).inverse();
    return wordsCheck(raw) == words.back();
}

}  // namespace

std::vector<uint64_t> packSnapshot(const WorldSnapshot& s, const Scene* scene) {
    Words w;
    w.put(static_cast<uint64_t>(s.stepCount));
    w.put(s.time);
    w.put(static_cast<uint64_t>(s.bodies.size()));
    w.put(static_cast<uint64_t>(s.broken.size()));
    w.put(static_cast<uint64_t>(s.jointAngles.size()));
    w.put(static_cast<uint64_t>(s.contactImpulses.size()));
    w.put(static_cast<uint64_t>(s.breakEventCount));
    for (const BodyState& b : s.bodies) {
        w.put(b.pose.q.x), w.put(b.pose.q.y), w.put(b.pose.q.z), w.put(b.pose.q.w);
        w.put(b.angularVelocity);
        w.put(b.pose.p);
        w.put(b.linearVelocity);
    }
    w.putBits(s.broken);
    for (Real a : s.jointAngles) w.put(a);
    w.putBits(s.jointAngleValid);
    for (Real c : s.contactImpulses) w.put(c);
    // The body contacts last, and only when there are any: keyframes of scenes without them read
    // as before (and older recordings read with none).
    if (!s.bodyContacts.empty()) {
        w.put(static_cast<uint64_t>(s.bodyContacts.size()));
        for (const BodyContactState& c : s.bodyContacts) {
            w.put(static_cast<uint64_t>(static_cast<int64_t>(c.body0)));
            w.put(static_cast<uint64_t>(static_cast<int64_t>(c.body1)));
            w.put(static_cast<uint64_t>(c.feature));
            w.put(c.local0);
            w.put(c.normalImpulse);
            w.put(c.frictionImpulse);
        }
    }
    return encodeWords(w.words(), scene);
}

bool unpackSnapshot(std::span<const uint64_t> words, WorldSnapshot& out, const Scene* scene) {
    std::vector<uint64_t> raw;
    if (!decodeWords(words, raw, scene)) return false;
    Reader r(raw);
    uint64_t step, nb, nbroken, nang, ncontact, nevents;
    WorldSnapshot s;
    if (!r.get(step) || !r.get(s.time) || !r.get(nb) || !r.get(nbroken) || !r.get(nang) || !r.get(ncontact) ||
        !r.get(nevents))
        return false;
    const size_t left = raw.size();
    if (!plausibleCount(nb, left, 13 * 64) || !plausibleCount(nbroken, left, 1) ||
        !plausibleCount(nang, left, 64) || !plausibleCount(ncontact, left, 64))
        return false;
    s.stepCount = static_cast<int64_t>(step);
    s.breakEventCount = static_cast<size_t>(nevents);
    s.bodies.resize(static_cast<size_t>(nb));
    for (BodyState& b : s.bodies) {
        if (!r.get(b.pose.q.x) || !r.get(b.pose.q.y) || !r.get(b.pose.q.z) || !r.get(b.pose.q.w) ||
            !r.get(b.angularVelocity) || !r.get(b.pose.p) || !r.get(b.linearVelocity))
            return false;
    }
    if (!r.getBits(s.broken, static_cast<size_t>(nbroken))) return false;
    s.jointAngles.resize(static_cast<size_t>(nang));
    for (Real& a : s.jointAngles)
        if (!r.get(a)) return false;
    if (!r.getBits(s.jointAngleValid, static_cast<size_t>(nang))) return false;
    s.contactImpulses.resize(static_cast<size_t>(ncontact));
    for (Real& c : s.contactImpulses)
        if (!r.get(c)) return false;
    if (!r.done()) {
        uint64_t n;
        if (!r.get(n) || !plausibleCount(n, left, 10 * 64)) return false;
        s.bodyContacts.resize(static_cast<size_t>(n));
        for (BodyContactState& c : s.bodyContacts) {
            uint64_t b0, b1, f;
            if (!r.get(b0) || !r.get(b1) || !r.get(f) || !r.get(c.local0) || !r.get(c.normalImpulse) ||
                !r.get(c.frictionImpulse))
                return false;
            c.body0 = static_cast<int>(static_cast<int64_t>(b0));
            c.body1 = static_cast<int>(static_cast<int64_t>(b1));
            c.feature = static_cast<int>(f);
            if (c.body0 < 0 || static_cast<uint64_t>(c.body0) >= nb || c.body1 < -1 ||
                (c.body1 >= 0 && static_cast<uint64_t>(c.body1) >= nb))
                return false;
        }
    }
    if (!r.done()) return false;
    out = std::move(s);
    return true;
}

}  // namespace jl
