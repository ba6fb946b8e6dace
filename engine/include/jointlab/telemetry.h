// JointLab engine — telemetry: what the solver did, step by step, in bounded ring buffers.
//
// The app's plots, the row inspector, the CSV export and the headless runner's CSV all read the
// same records, formatted by the same function (appendCsvRows).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "jointlab/world.h"

namespace jl {

/// How far a row is from being satisfied: |C| for equality rows, the part beyond the bound for
/// inequality rows (max(0, −C)), 0 for springs and drives (they are not constraints to satisfy).
Real rowViolation(const Row& row, const RowResult& result);

/// One row in one step.
struct RowSample {
    int joint = 0;           ///< joint index in the scene
    int row = 0;             ///< index of the row within its joint for that step
    const char* label = "";  ///< static string from the joint's prep function
    RowResult result;
};

/// One joint in one step.
struct JointSample {
    Vec3 force{0.0}, torque{0.0};  ///< on body 1 at its joint frame [N], [N·m]
    Real forceFraction = 0.0;      ///< |force| / breakForce (0 when unbreakable; finite: breakFraction)
    Real torqueFraction = 0.0;     ///< |torque| / breakTorque
    bool broken = false;
    int projections = 0;  ///< times the joint was projected in the step (World::jointProjections)
};

/// A force the caller applied to a body during a step besides the joints' (the app's mouse
/// spring), recorded with the step so that it can be plotted like a joint's force.
struct PullSample {
    bool active = false;   ///< false: nothing pulled in this step
    int body = -1;         ///< the body pulled (index in the scene)
    Vec3 force{0.0};       ///< [N]
    Real maxForce = kInf;  ///< the limit on |force| [N]
};

/// One step.
struct StepSample {
    int64_t step = 0;
    Real time = 0.0;
    Real kineticEnergy = 0.0, potentialEnergy = 0.0;  ///< [J]
    Real maxError = 0.0,
         rmsError = 0.0;              ///< over joint rows, rowViolation [m and rad mixed, as the rows are]
    int activeRows = 0;               ///< joint and contact rows solved
    Real stepMs = 0.0;                ///< wall time of the step as measured by the caller [ms];
                                      ///< 0 when not measured (the headless runner: its CSV stays
                                      ///< byte-identical from run to run)
    std::vector<JointSample> joints;  ///< one per scene joint
    std::vector<RowSample> rows;      ///< every joint row of the step
    std::vector<Real> residuals;      ///< World::lastResiduals()
    PullSample pull;                  ///< what the caller pulled with (Telemetry::record)
    /// One per Scene::references entry: the simulated value and the closed form's.
    std::vector<ReferenceSample> references;
    /// Per scene body: the net force its contact rows (ground and bodies, normal and friction)
    /// pushed it with in the step [N]. Empty when the step had no contacts, or when the scene's
    /// bodies changed after it was recorded (Telemetry::forgetContactForces).
    std::vector<Vec3> contactForces;
};

/// The CSV header shared by the headless runner and the app's export. One line per joint row per
/// step, in three groups: the row's own values (impulse … active), its joint's (force … projections),
/// and the step's (kinetic_energy … residuals), the last repeated on every line of the step.
/// `residuals` holds the step's sweep residuals (World::lastResiduals) joined by ';' in sweep
/// order. Everything is the StepSample as recorded, so a CSV line says what the plots show.
inline constexpr const char* kTelemetryCsvHeader =
    "step,time,joint,joint_type,row,row_label,impulse,geometric_error,velocity_error,clamped,active,"
    "force,torque,force_fraction,torque_fraction,broken,projections,"
    "kinetic_energy,potential_energy,max_error,rms_error,active_rows,step_ms,residuals\n";

/// Appends one CSV line per row of every joint in `sample` (same columns as the header).
void appendCsvRows(const Scene& scene, const StepSample& sample, std::string& out);

/// The row trace's CSV (`jointlab run --trace`): one line per visit of a row by the reference
/// kernel (World::RowTrace), with the telemetry CSV's step numbering, joint names and row indices.
/// `phase` is `position` (PGS's position iterations, TGS's substeps) or `velocity`; `sweep` counts
/// from 0 within the phase; ground contact rows name the joint `ground contact`. `block` is the
/// number of rows the visit solved at once (a point constraint's block, solver/block.h: 2 or 3;
/// K is still this row's own entry, the block's diagonal) or 0 for a row solved on its own.
inline constexpr const char* kTraceCsvHeader =
    "step,phase,sweep,joint,row,C,jv,K,bias,lambda_before,lambda_after,clamped,block\n";

/// Appends the trace line of one row visit.
void appendTraceRow(const Scene& scene, const World::RowTrace& v, std::string& out);

/// Fills `out` from the world's last step (reusing out's storage: no allocation once warm).
void captureStep(const World& world, Real stepMs, StepSample& out);

/// |load| / threshold, 0 for an unbreakable (infinite) threshold; a quotient too large for a double
/// is the largest finite double, never inf (issue 24: no inf in any CSV column).
Real breakFraction(Real load, Real threshold);

/// A ring buffer of the last `capacity` steps.
class Telemetry {
public:
    /// capacity in steps; e.g. 10 s at 60 Hz = 600.
    explicit Telemetry(size_t capacity = 600);

    /// Records the world's last step, and `pull` as what the caller pulled with during it.
    void record(const World& world, Real stepMs = 0.0, const PullSample& pull = PullSample{});
    void clear();
    void setCapacity(size_t capacity);
    /// The scene's joints changed (some deleted, added or moved): keeps the record, with every
    /// recorded joint index i turned into newIndex[i], and the rows and samples of joints whose
    /// newIndex is −1 dropped. A joint that did not exist when a step was recorded reads as a
    /// NaN force and torque in that step. Serials are kept, so readers' caches stay valid.
    void remapJoints(std::span<const int> newIndex, size_t jointCount);
    /// The scene's bodies changed: the recorded contact forces (indexed by body) no longer say
    /// which body they were on, so they are dropped rather than shown on the wrong body.
    void forgetContactForces();

    size_t capacity() const { return frames_.size(); }
    size_t size() const { return count_; }
    /// i = 0 is the oldest recorded step, size() − 1 the newest.
    const StepSample& at(size_t i) const {
        return frames_[(head_ + frames_.size() - count_ + i) % frames_.size()];
    }
    const StepSample& latest() const { return at(count_ - 1); }
    /// Serial number of at(0); at(i) has serial firstSerial() + i. Every recorded step gets the
    /// next serial, and clear() skips one, so a reader that remembers the serials it has seen can
    /// tell new steps from old ones and notices when the record started over (the plots do).
    int64_t firstSerial() const { return nextSerial_ - static_cast<int64_t>(count_); }

    /// Bytes held by the buffers (grows only until every slot has been used once).
    size_t memoryBytes() const;

    /// The recorded window as CSV (header + rows), the same columns as `jointlab run --csv`.
    std::string csv(const Scene& scene) const;

private:
    std::vector<StepSample> frames_;
    size_t head_ = 0;         ///< next slot to write
    size_t count_ = 0;        ///< valid frames
    int64_t nextSerial_ = 0;  ///< serial of the next step recorded
};

}  // namespace jl
