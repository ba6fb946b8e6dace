// PrepContext::make: the world joint frames and lever arms, by the lock parts' parts::frames (the
// AVX2 lock batches run the same template four joints at a time).
#include "jointlab/joints/prep_context.h"

#include "joints/parts/lock_parts.h"

namespace jl {

namespace {

parts::Pose<Real> pose(const Transform& t) {
    return {{t.p.x, t.p.y, t.p.z}, {t.q.x, t.q.y, t.q.z, t.q.w}};
}
Vec3 vec3(const parts::V3<Real>& v) {
    return Vec3(v.x, v.y, v.z);
}
Transform transform(const parts::Pose<Real>& p) {
    return {vec3(p.p), Quat(p.q.w, p.q.x, p.q.y, p.q.z)};
}

}  // namespace

PrepContext PrepContext::make(const Transform& body0, const Transform& frame0, const Transform& body1,
                              const Transform& frame1, Real dt) {
    const parts::Frames<Real> f = parts::frames(pose(body0), pose(frame0), pose(body1), pose(frame1));
    PrepContext c;
    c.body0 = body0;
    c.body1 = body1;
    c.cA2w = transform(f.cA2w);
    c.cB2w = transform(f.cB2w);
    c.r0 = vec3(f.r0);
    c.r1 = vec3(f.r1);
    c.dt = dt;
    return c;
}

}  // namespace jl
