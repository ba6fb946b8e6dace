#include "jointlab/telemetry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <glm/gtx/norm.hpp>
#include <limits>

namespace jl {

Real rowViolation(const Row& row, const RowResult& r) {
    if (row.isSpring() || (row.flags & kRowVelocityOnly)) return 0.0;
    const Real c = r.geometricError;
    if (row.minImpulse >= 0.0) return std::max(Real(0), -c);  // pushes only: satisfied when C >= 0
    if (row.maxImpulse <= 0.0) return std::max(Real(0), c);
    return std::abs(c);
}

// A threshold so small that the quotient overflows (1 N over a 1e-310 N threshold) gives the
// largest finite double.
Real breakFraction(Real load, Real threshold) {
    if (!std::isfinite(threshold)) return 0.0;
    const Real f = load / threshold;
    return std::isfinite(f) ? f : std::numeric_limits<Real>::max();
}

void captureStep(const World& world, Real stepMs, StepSample& out) {
    const Scene& scene = world.scene();
    out.step = world.stepCount();
    out.time = world.time();
    out.kineticEnergy = world.kineticEnergy();
    out.potentialEnergy = world.potentialEnergy();
    out.stepMs = stepMs;
    out.joints.resize(scene.joints.size());
    out.rows.clear();
    Real maxErr = 0.0, sum2 = 0.0;
    int active = world.contactRowCount();
    for (size_t j = 0; j < scene.joints.size(); ++j) {
        const JointState& js = world.jointState(static_cast<int>(j));
        const JointDesc& d = scene.joints[j];
        JointSample& s = out.joints[j];
        s.force = js.force;
        s.torque = js.torque;
        s.forceFraction = breakFraction(glm::length(js.force), d.breakForce);
        s.torqueFraction = breakFraction(glm::length(js.torque), d.breakTorque);
        s.broken = js.broken;
        s.projections = world.jointProjections(static_cast<int>(j));
        const auto rows = world.jointRows(static_cast<int>(j));
        const auto results = world.jointRowResults(static_cast<int>(j));
        for (size_t k = 0; k < rows.size() && k < results.size(); ++k) {
            out.rows.push_back({static_cast<int>(j), static_cast<int>(k), rows[k].label, results[k]});
            const Real v = rowViolation(rows[k], results[k]);
            maxErr = std::max(maxErr, v);
            sum2 += v * v;
            active += results[k].active ? 1 : 0;
        }
    }
    out.maxError = maxErr;
    out.rmsError = out.rows.empty() ? 0.0 : std::sqrt(sum2 / static_cast<Real>(out.rows.size()));
    out.activeRows = active;
    const auto res = world.lastResiduals();
    out.residuals.assign(res.begin(), res.end());
    sampleReferences(world, out.references);
    out.contactForces.clear();
    const std::vector<ContactPoint> contacts = world.contactPoints();
    if (!contacts.empty()) {
        // The rows push body 0 along +normal (and its friction axes), body 1 the other way.
        out.contactForces.assign(scene.bodies.size(), Vec3(0.0));
        const Real invDt = 1.0 / scene.settings.dt;
        for (const ContactPoint& c : contacts) {
            const Vec3 f = (c.normalImpulse * c.normal + c.frictionImpulse) * invDt;
            if (c.body0 >= 0 && static_cast<size_t>(c.body0) < out.contactForces.size())
                out.contactForces[static_cast<size_t>(c.body0)] += f;
            if (c.body1 >= 0 && static_cast<size_t>(c.body1) < out.contactForces.size())
                out.contactForces[static_cast<size_t>(c.body1)] -= f;
        }
    }
}

namespace {

/// Shortest form that reads back to the same double; "inf", "-inf", "nan" otherwise.
void appendNumber(std::string& out, Real x) {
    if (std::isnan(x)) {
        out += "nan";
        return;
    }
    if (std::isinf(x)) {
        out += x > 0 ? "inf" : "-inf";
        return;
    }
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, ec == std::errc() ? end : buf);
}

/// A CSV field: quoted when it holds a comma, quote or newline.
void appendField(std::string& out, const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) {
        out += s;
        return;
    }
    out += '"';
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

}  // namespace

void appendTraceRow(const Scene& scene, const World::RowTrace& v, std::string& out) {
    out += std::to_string(v.step);
    out += v.phase == 0 ? ",position," : v.phase == 1 ? ",velocity," : ",relax,";
    out += std::to_string(v.sweep);
    out += ',';
    appendField(
        out, v.joint >= 0 ? scene.joints[static_cast<size_t>(v.joint)].name : std::string("ground contact"));
    out += ',';
    out += std::to_string(v.row);
    for (Real x : {v.C, v.jv, v.K, v.bias, v.lambdaBefore, v.lambdaAfter}) {
        out += ',';
        appendNumber(out, x);
    }
    out += v.clamped ? ",1," : ",0,";
    out += std::to_string(v.block);
    out += '\n';
}

void appendCsvRows(const Scene& scene, const StepSample& sample, std::string& out) {
    // The step's columns are the same on each of its lines: formatted once.
    std::string stepColumns;
    for (Real e : {sample.kineticEnergy, sample.potentialEnergy, sample.maxError, sample.rmsError}) {
        stepColumns += ',';
        appendNumber(stepColumns, e);
    }
    stepColumns += ',';
    stepColumns += std::to_string(sample.activeRows);
    stepColumns += ',';
    appendNumber(stepColumns, sample.stepMs);
    stepColumns += ',';
    for (size_t i = 0; i < sample.residuals.size(); ++i) {
        if (i) stepColumns += ';';
        appendNumber(stepColumns, sample.residuals[i]);
    }
    stepColumns += '\n';

    for (const RowSample& r : sample.rows) {
        const JointDesc& d = scene.joints[static_cast<size_t>(r.joint)];
        const JointSample& js = sample.joints[static_cast<size_t>(r.joint)];
        out += std::to_string(sample.step);
        out += ',';
        appendNumber(out, sample.time);
        out += ',';
        appendField(out, d.name);
        out += ',';
        out += d.typeInfo().name;
        out += ',';
        out += std::to_string(r.row);
        out += ',';
        appendField(out, r.label ? r.label : "");
        out += ',';
        appendNumber(out, r.result.impulse);
        out += ',';
        appendNumber(out, r.result.geometricError);
        out += ',';
        appendNumber(out, r.result.velocityError);
        out += r.result.clamped ? ",1" : ",0";
        out += r.result.active ? ",1," : ",0,";
        appendNumber(out, glm::length(js.force));
        out += ',';
        appendNumber(out, glm::length(js.torque));
        out += ',';
        appendNumber(out, js.forceFraction);
        out += ',';
        appendNumber(out, js.torqueFraction);
        out += js.broken ? ",1," : ",0,";
        out += std::to_string(js.projections);
        out += stepColumns;
    }
}

Telemetry::Telemetry(size_t capacity) : frames_(capacity > 0 ? capacity : 1) {}

void Telemetry::record(const World& world, Real stepMs, const PullSample& pull) {
    captureStep(world, stepMs, frames_[head_]);
    frames_[head_].pull = pull;
    head_ = (head_ + 1) % frames_.size();
    if (count_ < frames_.size()) ++count_;
    ++nextSerial_;
}

void Telemetry::clear() {
    head_ = 0;
    count_ = 0;
    nextSerial_ += 1;  // a hole in the serials: readers see that the record started over
}

void Telemetry::remapJoints(std::span<const int> newIndex, size_t jointCount) {
    const Real nan = std::numeric_limits<Real>::quiet_NaN();
    JointSample absent;
    absent.force = absent.torque = Vec3(nan);
    std::vector<JointSample> joints;
    for (size_t i = 0; i < count_; ++i) {
        StepSample& s = frames_[(head_ + frames_.size() - count_ + i) % frames_.size()];
        joints.assign(jointCount, absent);
        for (size_t j = 0; j < s.joints.size() && j < newIndex.size(); ++j)
            if (newIndex[j] >= 0 && static_cast<size_t>(newIndex[j]) < jointCount)
                joints[static_cast<size_t>(newIndex[j])] = s.joints[j];
        s.joints.swap(joints);
        std::erase_if(s.rows, [&](RowSample& r) {
            const int to =
                static_cast<size_t>(r.joint) < newIndex.size() ? newIndex[static_cast<size_t>(r.joint)] : -1;
            if (to < 0 || static_cast<size_t>(to) >= jointCount) return true;
            r.joint = to;
            return false;
        });
        // Rows are kept in joint order (readers search them by joint).
        std::stable_sort(s.rows.begin(), s.rows.end(),
                         [](const RowSample& a, const RowSample& b) { return a.joint < b.joint; });
    }
}

void Telemetry::setCapacity(size_t capacity) {
    frames_.assign(capacity > 0 ? capacity : 1, StepSample{});
    clear();
}

void Telemetry::forgetContactForces() {
    for (StepSample& s : frames_) s.contactForces.clear();
}

size_t Telemetry::memoryBytes() const {
    size_t bytes = frames_.capacity() * sizeof(StepSample);
    for (const StepSample& f : frames_)
        bytes += f.joints.capacity() * sizeof(JointSample) + f.rows.capacity() * sizeof(RowSample) +
                 f.residuals.capacity() * sizeof(Real) + f.contactForces.capacity() * sizeof(Vec3);
    return bytes;
}

std::string Telemetry::csv(const Scene& scene) const {
    std::string out = kTelemetryCsvHeader;
    for (size_t i = 0; i < count_; ++i) appendCsvRows(scene, at(i), out);
    return out;
}

}  // namespace jl
