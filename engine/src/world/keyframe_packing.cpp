// JointLab engine — keyframe packing (jointlab/history.h: packSnapshot, unpackSnapshot): a
// WorldSnapshot as words, each body's words XORed with the body before's, leading zero nibbles
// left out, with a check word, so that a damaged keyframe is refused. Kept apart from the
// History's recording and seeking (world/history.cpp), which only call these two functions.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "jointlab/history.h"

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
//  1. Each word from the kStride-th on is XORed with the word kStride before it: the same field
//     of the body before (a BodyState is kStride words), which in a scene of similar bodies shares
//     its sign, exponent and leading digits, so the XOR starts with zero bits. Except a body's
//     quaternion w: it is XORed with √(1 − x² − y² − z²) of its own x, y, z (written just before
//     it), which for a unit quaternion matches it to the last bits or so, and the result rotated
//     left by one bit so that w's sign lands in the lowest bit (format 3; format 2 XORed w like the
//     rest). Any prediction is exact to undo, only its size depends on how good it is. Decoding
//     undoes step 1 front to back, so x, y, z are known when w is.
//  2. The XORed words as a bit stream (most significant bit first, in 64-bit words, the last one
//     padded with zero bits), after a first word that holds how many words there are:
//       4-bit tag n = 0…14: a nonzero word that starts with at least n zero nibbles, then its
//                           last 16 − n nibbles;
//       tag 15, then 4 bits m = 1…15: m zero words; m = 0: a 32-bit count of zero words follows.
//  3. A last word checks the words (wordsCheck): a keyframe damaged in a saved file is refused
//     rather than read as another state.
//
// On the 1000-body chain scene of the history benchmark a keyframe packs into 0.85 of the words
// of format 1 (zero-word runs only): the mantissas of moving bodies are as good as random, so no
// exact coding gets much more (docs/bench_history.md).
constexpr size_t kStride = 13;                        // words of a BodyState (p, q, v, ω)
constexpr uint64_t kMaxRawWords = uint64_t{1} << 25;  // 256 MiB (800 000 bodies): more is damage

constexpr size_t kHeaderWords = 7;  // packSnapshot's counts before the bodies
constexpr size_t kWOffset = 6;      // a BodyState's words: p (3), q x, y, z, w (4), v (3), ω (3)

/// True when raw word i is a body's quaternion w, in a snapshot of `bodies` bodies.
bool isQuatW(size_t i, uint64_t bodies) {
    return i >= kHeaderWords && (i - kHeaderWords) / kStride < bodies &&
           (i - kHeaderWords) % kStride == kWOffset;
}

/// The bits of √(1 − x² − y² − z²) (0 if that is negative or not a number) for the words x, y, z:
/// w's prediction, the same operations on the same bits when packing and unpacking.
uint64_t predictedW(uint64_t xw, uint64_t yw, uint64_t zw) {
    Real x, y, z;
    std::memcpy(&x, &xw, sizeof x);
    std::memcpy(&y, &yw, sizeof y);
    std::memcpy(&z, &zw, sizeof z);
    const Real rest = 1.0 - (x * x + y * y + z * z);
    const Real w = rest > 0.0 ? std::sqrt(rest) : 0.0;
    uint64_t ww;
    std::memcpy(&ww, &w, sizeof ww);
    return ww;
}

/// The body count a raw stream's header gives (no more than its words could hold).
uint64_t bodiesOf(const std::vector<uint64_t>& raw) {
    return raw.size() > kHeaderWords ? std::min<uint64_t>(raw[2], (raw.size() - kHeaderWords) / kStride) : 0;
}

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

std::vector<uint64_t> encodeWords(const std::vector<uint64_t>& raw) {
    // Step 1: the word XORed with the one kStride before (the same field of the body before), or a
    // quaternion's w with its prediction from x, y, z.
    const uint64_t bodies = bodiesOf(raw);
    auto residual = [&](size_t i) {
        if (isQuatW(i, bodies)) return std::rotl(raw[i] ^ predictedW(raw[i - 3], raw[i - 2], raw[i - 1]), 1);
        return i >= kStride ? raw[i] ^ raw[i - kStride] : raw[i];
    };
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
bool decodeWords(std::span<const uint64_t> words, std::vector<uint64_t>& raw) {
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
    const uint64_t bodies = bodiesOf(raw);  // the header is not XORed: it reads as written
    for (size_t i = kStride; i < raw.size(); ++i) {
        if (isQuatW(i, bodies))
            raw[i] = std::rotr(raw[i], 1) ^ predictedW(raw[i - 3], raw[i - 2], raw[i - 1]);
        else
            raw[i] ^= raw[i - kStride];
    }
    return wordsCheck(raw) == words.back();
}

}  // namespace

std::vector<uint64_t> packSnapshot(const WorldSnapshot& s) {
    Words w;
    w.put(static_cast<uint64_t>(s.stepCount));
    w.put(s.time);
    w.put(static_cast<uint64_t>(s.bodies.size()));
    w.put(static_cast<uint64_t>(s.broken.size()));
    w.put(static_cast<uint64_t>(s.jointAngles.size()));
    w.put(static_cast<uint64_t>(s.contactImpulses.size()));
    w.put(static_cast<uint64_t>(s.breakEventCount));
    for (const BodyState& b : s.bodies) {
        w.put(b.pose.p);
        w.put(b.pose.q.x), w.put(b.pose.q.y), w.put(b.pose.q.z), w.put(b.pose.q.w);
        w.put(b.linearVelocity);
        w.put(b.angularVelocity);
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
    return encodeWords(w.words());
}

bool unpackSnapshot(std::span<const uint64_t> words, WorldSnapshot& out) {
    std::vector<uint64_t> raw;
    if (!decodeWords(words, raw)) return false;
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
        if (!r.get(b.pose.p) || !r.get(b.pose.q.x) || !r.get(b.pose.q.y) || !r.get(b.pose.q.z) ||
            !r.get(b.pose.q.w) || !r.get(b.linearVelocity) || !r.get(b.angularVelocity))
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
