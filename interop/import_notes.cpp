// JointLab interop — the import's notes (what did not map, in one warning) and its frame and
// inertia arithmetic (interop/import_builder.h), apart from the mapping that uses them.
#include <algorithm>
#include <cmath>

#include "interop/import_builder.h"

namespace jl::interop {

// [SECTION] Notes

void ImportNotes::add(const std::string& what, const std::string& item) {
    auto [it, inserted] = items_.emplace(what, std::vector<std::string>{});
    if (inserted) order_.push_back(what);
    if (!item.empty()) it->second.push_back(item);
}

std::string ImportNotes::text() const {
    constexpr size_t kShown = 6;  // a 5000-body model must not make a 5000-name message
    std::string s;
    for (const std::string& what : order_) {
        const std::vector<std::string>& items = items_.at(what);
        if (!s.empty()) s += "; ";
        s += what;
        if (items.empty()) continue;
        s += " (";
        for (size_t i = 0; i < std::min(items.size(), kShown); ++i) s += (i ? ", " : "") + items[i];
        if (items.size() > kShown) s += " and " + std::to_string(items.size() - kShown) + " more";
        s += ")";
    }
    return s;
}

// [SECTION] Frames and inertia

Quat rotationFromX(const Vec3& axis) {
    const Vec3 x(1.0, 0.0, 0.0);
    const Vec3 a = glm::normalize(axis);
    const Real c = glm::dot(x, a);
    if (c < -1.0 + 1e-12) return Quat(0.0, 0.0, 0.0, 1.0);  // half a turn about Z
    const Vec3 v = glm::cross(x, a);
    return glm::normalize(Quat(1.0 + c, v.x, v.y, v.z));
}

void principalInertia(const Mat3& tensor, Vec3& moments, Quat& axes) {
    // Cyclic Jacobi: A = V·D·Vᵀ; each rotation zeroes one off-diagonal entry.
    Real a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) a[r][c] = 0.5 * (tensor[c][r] + tensor[r][c]);
    for (int sweep = 0; sweep < 50; ++sweep) {
        const Real off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if (off < 1e-30 * (a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]) || off == 0.0) break;
        for (int p = 0; p < 2; ++p)
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0.0) continue;
                const Real theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const Real t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const Real c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; ++k) {  // A = Jᵀ A J
                    const Real akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {
                    const Real apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    const Real vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    moments = Vec3(a[0][0], a[1][1], a[2][2]);
    // Columns of v are the principal axes; make them a right-handed rotation.
    Vec3 c0(v[0][0], v[1][0], v[2][0]), c1(v[0][1], v[1][1], v[2][1]);
    Vec3 c2 = glm::cross(c0, c1);
    Mat3 m(c0, c1, c2);  // glm: columns
    axes = glm::normalize(glm::quat_cast(m));
}

}  // namespace jl::interop
