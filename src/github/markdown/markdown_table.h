// Markdown tables in what loopwright posts (step summary, coverage list).
#pragma once

#include <string>

namespace lw::github {

// A table cell: one line, pipes escaped (also inside a code span, as GFM
// tables require), so step-written text or a path cannot break the table.
std::string tableCell(const std::string& s);

}  // namespace lw::github
