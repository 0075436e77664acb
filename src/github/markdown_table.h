// Markdown tables in what loopwright posts (step summary, coverage list).
#pragma once

#include <string>

namespace lw::github {

// A table cell: one line, pipes escaped, so step-written text or a path
// cannot break the table.
std::string tableCell(const std::string& s);

}  // namespace lw::github
