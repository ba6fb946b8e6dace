// The joint type table (joint.h, joint_table.cpp): every type's facts are present, unique and
// agree with what its struct actually has (fields, sketch, fitLength, presets). The app switches
// on these facts instead of type names, so a wrong fact is a wrong picture or a wrong placement.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "../joint_type_configs.h"
#include "jointlab/joint.h"

namespace jl {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

bool anyFieldContains(int type, std::initializer_list<const char*> words) {
    for (const std::string& name : test::fieldNames(type))
        for (const char* w : words)
            if (lower(name).find(w) != std::string::npos) return true;
    return false;
}

/// What a type's sketches show over its switched-on configurations.
struct Shown {
    bool limit = false;     ///< any figure but a drive target or a coupling
    bool drive = false;     ///< a drive target
    bool coupling = false;  ///< what a coupling turns or slides (sketch::Coupling)
};

Shown shownBy(int type) {
    Shown s;
    for (const JointParams& p : test::switchedOnConfigs(type)) {
        JointSketch sketch;
        sketchJoint(p, sketch);
        for (const SketchFigure& f : sketch) {
            if (std::holds_alternative<sketch::Coupling>(f)) {
                s.coupling = true;  // what turns or slides against what: neither a limit nor a drive
                continue;
            }
            (std::holds_alternative<sketch::DriveTarget>(f) ? s.drive : s.limit) = true;
        }
    }
    return s;
}

TEST(JointTable, NamesTitlesAndDescriptionsArePresentAndUnique) {
    std::set<std::string> names, titles, descriptions;
    for (int t = 0; t < kJointTypeCount; ++t) {
        const JointTypeInfo& info = jointTypeInfo(t);
        SCOPED_TRACE(info.name);
        const std::string name = info.name;
        EXPECT_FALSE(name.empty());
        EXPECT_TRUE(std::all_of(name.begin(), name.end(), [](unsigned char c) {
            return std::islower(c) || std::isdigit(c) || c == '_';
        })) << "a type's name is an identifier in files and on the command line";
        EXPECT_GT(std::string(info.title).size(), 2u);
        EXPECT_GT(std::string(info.description).size(), 60u) << "one paragraph for the help panel";
        EXPECT_TRUE(names.insert(name).second) << "duplicate name";
        EXPECT_TRUE(titles.insert(info.title).second) << "duplicate title";
        EXPECT_TRUE(descriptions.insert(info.description).second) << "duplicate description";
    }
}

TEST(JointTable, NamesAndIndicesRoundTrip) {
    for (int t = 0; t < kJointTypeCount; ++t) {
        SCOPED_TRACE(jointTypeInfo(t).name);
        EXPECT_EQ(findJointType(jointTypeInfo(t).name), t);
        const JointParams p = makeJointParams(t);
        EXPECT_EQ(static_cast<int>(p.index()), t);
        EXPECT_EQ(validateJointParams(p), "") << "a type's defaults are valid";
        // The table's entry is the struct's own info.
        const char* own = std::visit([](const auto& params) { return params.info.name; }, p);
        EXPECT_EQ(own, jointTypeInfo(t).name);
    }
    EXPECT_EQ(findJointType("no such type"), -1);
    EXPECT_GE(kDefaultJointType, 0);
    EXPECT_LT(kDefaultJointType, kJointTypeCount);
    const auto indices = []<size_t... I>(std::index_sequence<I...>) {
        return std::array<int, sizeof...(I)>{
            jointTypeIndexOf<std::variant_alternative_t<I, JointParams>>()...};
    }
    (std::make_index_sequence<kJointTypeCount>{});
    for (int t = 0; t < kJointTypeCount; ++t) EXPECT_EQ(indices[static_cast<size_t>(t)], t);
}

TEST(JointTable, DrawStylesAreValidAndCouplingsDrawAsCouplings) {
    ASSERT_EQ(std::size(kJointDrawStyleNames), static_cast<size_t>(kJointDrawStyleCount));
    for (int t = 0; t < kJointTypeCount; ++t) {
        const JointTypeInfo& info = jointTypeInfo(t);
        SCOPED_TRACE(info.name);
        const int style = static_cast<int>(info.drawStyle);
        EXPECT_GE(style, 0);
        EXPECT_LT(style, kJointDrawStyleCount);
        // A coupling relates coordinates; its frames are not meant to meet, so it must not be
        // drawn as something that joins frames (and nothing but a coupling may be drawn as one).
        EXPECT_EQ(info.isCoupling, info.drawStyle == JointDrawStyle::Coupling);
    }
}

TEST(JointTable, LimitAndDriveFactsMatchTheFieldsAndTheSketch) {
    for (int t = 0; t < kJointTypeCount; ++t) {
        const JointTypeInfo& info = jointTypeInfo(t);
        SCOPED_TRACE(info.name);
        // Fields that bound a coordinate (limit pairs, cones, min/max distances) make a type limited.
        const bool limitFields = anyFieldContains(t, {"limit", "cone", "mindistance", "maxdistance"});
        if (limitFields) {
            EXPECT_TRUE(info.hasLimits) << "has limit fields but not hasLimits";
        }
        const bool driveFields = anyFieldContains(t, {"drive", "motor"});
        EXPECT_EQ(info.hasDrive, driveFields) << "hasDrive disagrees with its drive/motor fields";
        // ... and what the app draws for it: with everything switched on, a limited type shows
        // its limits and a driven one its target; others show neither.
        const Shown shown = shownBy(t);
        EXPECT_EQ(info.hasLimits, shown.limit) << "hasLimits disagrees with the type's sketch";
        EXPECT_EQ(info.hasDrive, shown.drive) << "hasDrive disagrees with the type's sketch";
        // Gears and racks say what they couple (the app draws their teeth from it); a pulley
        // draws its rope instead.
        if (shown.coupling) {
            EXPECT_TRUE(info.isCoupling);
        }
    }
}

TEST(JointTable, SketchFiguresAreWellFormed) {
    auto finite = [](const Vec3& v) {
        return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    };
    for (int t = 0; t < kJointTypeCount; ++t) {
        SCOPED_TRACE(jointTypeInfo(t).name);
        for (const JointParams& p : test::switchedOnConfigs(t)) {
            JointSketch sketch;
            sketchJoint(p, sketch);
            EXPECT_LT(sketch.size(), JointSketch::kCapacity) << "a full sketch may have dropped figures";
            for (const SketchFigure& f : sketch) {
                if (const auto* a = std::get_if<sketch::Arc>(&f)) {
                    EXPECT_NEAR(glm::length(a->u), 1.0, 1e-12);
                    EXPECT_NEAR(glm::length(a->w), 1.0, 1e-12);
                    EXPECT_NEAR(glm::dot(a->u, a->w), 0.0, 1e-12);
                    EXPECT_LE(a->from, a->to);
                    EXPECT_GT(a->radius, 0.0);
                } else if (const auto* c = std::get_if<sketch::Cone>(&f)) {
                    EXPECT_GE(c->yAngle, 0.0);
                    EXPECT_GE(c->zAngle, 0.0);
                    EXPECT_GT(c->length, 0.0);
                } else if (const auto* r = std::get_if<sketch::Range>(&f)) {
                    EXPECT_TRUE(r->axis == sketch::Range::kAToB || (r->axis >= 0 && r->axis < 3));
                    EXPECT_LE(r->lower, r->upper);
                } else if (const auto* k = std::get_if<sketch::Circle>(&f)) {
                    EXPECT_TRUE(k->normalAxis >= 0 && k->normalAxis < 3);
                    EXPECT_GE(k->radius, 0.0);
                } else if (const auto* rope = std::get_if<sketch::Rope>(&f)) {
                    EXPECT_TRUE(finite(rope->over0) && finite(rope->over1));
                } else if (const auto* d = std::get_if<sketch::DriveTarget>(&f)) {
                    EXPECT_TRUE(finite(d->pose.p));
                    EXPECT_NEAR(glm::length(d->pose.q), 1.0, 1e-9);
                } else if (const auto* g = std::get_if<sketch::Coupling>(&f)) {
                    EXPECT_TRUE(std::isfinite(g->ratio));
                    EXPECT_NE(g->ratio, 0.0);
                }
            }
        }
    }
}

TEST(JointTable, PlacementDefaultsMatchWhatTheTypeCanFit) {
    for (int t = 0; t < kJointTypeCount; ++t) {
        const JointTypeInfo& info = jointTypeInfo(t);
        SCOPED_TRACE(info.name);
        const int axis = static_cast<int>(info.placement.axis);
        EXPECT_TRUE(axis == static_cast<int>(JointAxisDefault::WorkPlaneNormal) ||
                    axis == static_cast<int>(JointAxisDefault::SurfaceNormal) ||
                    axis == static_cast<int>(JointAxisDefault::AlongAToB));
        // A type placed across a gap is told the gap's length, and must use it.
        JointParams p = makeJointParams(t);
        const std::string before = test::fieldValues(p);
        fitJointLength(p, 1.234);
        const bool fits = test::fieldValues(p) != before;
        EXPECT_EQ(info.placement.frame1AtPointOnBody1, fits);
        EXPECT_EQ(validateJointParams(p), "");
        // Spanning a gap only makes sense along the line between the points.
        if (info.placement.frame1AtPointOnBody1) {
            EXPECT_EQ(info.placement.axis, JointAxisDefault::AlongAToB);
        }
    }
}

TEST(JointTable, PresetsAreNamedAndOfTheirOwnType) {
    int total = 0;
    for (int t = 0; t < kJointTypeCount; ++t) {
        SCOPED_TRACE(jointTypeInfo(t).name);
        const int count = jointPresetCount(t);
        total += count;
        std::set<std::string> names;
        for (int k = 0; k < count; ++k) {
            EXPECT_TRUE(names.insert(jointPresetName(t, k)).second);
            EXPECT_GT(std::string(jointPresetName(t, k)).size(), 0u);
            const JointParams p = makeJointPreset(t, k);
            EXPECT_EQ(static_cast<int>(p.index()), t);
            EXPECT_EQ(validateJointParams(p), "");
            EXPECT_NE(test::fieldValues(p), test::fieldValues(makeJointParams(t)))
                << "a preset changes something";
        }
        EXPECT_STREQ(jointPresetName(t, count), "");
        EXPECT_EQ(makeJointPreset(t, count).index(), makeJointParams(t).index());
    }
    EXPECT_GT(total, 0) << "the D6's named configurations are offered as presets";
}

}  // namespace
}  // namespace jl
