#include "shell/table_fit.h"

#include <algorithm>

namespace jl::app {

float fittedTableWidth(const std::vector<std::vector<std::string>>& columns, const TextMeasure& measure,
                       float cellPaddingX) {
    float width = 1.0f;  // the left border
    for (const std::vector<std::string>& column : columns) {
        float widest = 0.0f;
        for (const std::string& text : column) widest = std::max(widest, measure(text));
        width += widest + 2.0f * cellPaddingX + 1.0f;  // the cell and the border right of it
    }
    return width;
}

}  // namespace jl::app
