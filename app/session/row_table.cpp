#include "session/row_table.h"

#include <algorithm>

namespace jl::app {

std::vector<RowTableEntry> rowTable(const World& world, int joint) {
    std::vector<RowTableEntry> entries;
    const auto rows = world.jointRows(joint);
    const auto results = world.jointRowResults(joint);
    const size_t n = std::min(rows.size(), results.size());
    entries.reserve(n);
    for (size_t k = 0; k < n; ++k) {
        RowTableEntry e;
        e.index = static_cast<int>(k);
        e.row = &rows[k];
        e.result = results[k];
        e.state = !results[k].active   ? RowState::Dropped
                  : results[k].clamped ? RowState::Clamped
                                       : RowState::Active;
        entries.push_back(e);
    }
    return entries;
}

std::vector<RowTableEntry> contactRowTable(const World& world, int body) {
    std::vector<RowTableEntry> entries;
    const auto rows = world.contactRows();
    const auto results = world.contactRowResults();
    const std::vector<ContactPoint> points = world.contactPoints();
    for (size_t c = 0; c < points.size(); ++c) {
        const ContactPoint& p = points[c];
        if (p.body0 != body && p.body1 != body) continue;
        for (int k = 0; k < 3; ++k) {
            const size_t r = static_cast<size_t>(p.firstRow + k);
            if (r >= rows.size() || r >= results.size()) break;
            RowTableEntry e;
            e.index = static_cast<int>(r);
            e.row = &rows[r];
            e.result = results[r];
            e.state = !results[r].active   ? RowState::Dropped
                      : results[r].clamped ? RowState::Clamped
                                           : RowState::Active;
            e.contact = static_cast<int>(c);
            e.otherBody = p.body0 == body ? p.body1 : p.body0;
            if (k > 0) e.frictionBound = p.friction * p.normalImpulse;
            entries.push_back(e);
        }
    }
    return entries;
}

const char* emptyRowTableReason(const World& world, int joint) {
    if (!world.jointRows(joint).empty()) return "";
    if (world.scene().joints[static_cast<size_t>(joint)].startBroken || world.jointState(joint).broken)
        return "the joint is broken, so it produces no rows";
    return "not stepped yet (step the simulation once)";
}

std::vector<RowBlock> rowBlocks(const std::vector<RowTableEntry>& table) {
    std::vector<RowBlock> blocks;
    for (size_t k = 0; k < table.size(); ++k) {
        const RowResult& r = table[k].result;
        if (r.blockSize < 2 || r.blockIndex != 0 || k + static_cast<size_t>(r.blockSize) > table.size())
            continue;
        RowBlock b;
        b.first = static_cast<int>(k);
        b.size = r.blockSize;
        for (int i = 0; i < b.size; ++i)
            for (int c = 0; c < b.size; ++c) b.K[i][c] = table[k + static_cast<size_t>(i)].result.blockK[c];
        blocks.push_back(b);
    }
    return blocks;
}

const char* blockBracket(const RowTableEntry& entry) {
    const RowResult& r = entry.result;
    if (r.blockSize < 2) return "";
    if (r.blockIndex == 0) return "\u250c";                        // ┌
    return r.blockIndex + 1 == r.blockSize ? "\u2514" : "\u2502";  // └ │
}

std::string rowFlagTags(uint16_t flags) {
    static constexpr struct {
        uint16_t flag;
        const char* tag;
    } kTags[] = {{kRowSpring, "spring"},      {kRowAccelerationSpring, "accel"},
                 {kRowRestitution, "bounce"}, {kRowKeepBias, "keep-bias"},
                 {kRowOutputForce, "force"},  {kRowHasDriveLimit, "drive-lim"},
                 {kRowAngular, "ang"},        {kRowVelocityOnly, "vel-only"}};
    std::string tags;
    for (const auto& t : kTags) {
        if (!(flags & t.flag)) continue;
        if (!tags.empty()) tags += ' ';
        tags += t.tag;
    }
    return tags;
}

}  // namespace jl::app
