// The cells of the report's table, shared by the terminal table and the
// Markdown summary (eval/report.h): numbers formatted once, so the two
// show the same text. Internal to src/eval.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "eval/report.h"

namespace lw::eval {

// `v` with `digits` decimals.
std::string fixed(double v, int digits);

// The column names, scope first.
const std::vector<std::string>& tableHeader();

// One row per step, per lane, then the whole run; the scope's label passes
// through `label` (the Markdown neutralises it, the terminal shows it).
std::vector<std::vector<std::string>> tableRows(const EvalReport& report,
                                                const std::function<std::string(const ScopeSummary&)>& label);

// The rows (the header first) as a terminal table: columns padded to the
// widest cell, two spaces apart, the last one not padded.
std::string aligned(const std::vector<std::vector<std::string>>& rows);

// "22 case(s) x 1 repeat(s); 0 could not run; …", one line.
std::string footer(const EvalReport& report);

}  // namespace lw::eval
