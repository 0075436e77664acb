// `loopwright eval --lane A --lane B`: the lanes' reports side by side, as
// JSON, and against a baseline (eval/report.h).
#include <algorithm>

#include <boost/json.hpp>

#include "eval/report.h"
#include "eval/report_cells.h"

namespace lw::eval {
namespace json = boost::json;
namespace {

// The columns a lane shows side by side: precision, recall, F1, tokens
// and cost (indexes into tableRows' cells).
constexpr std::size_t kSideBySide[] = {4, 5, 6, 8, 10};

std::string label(const ScopeSummary& s) { return s.label(); }

// Each scope's label, in the order the lanes' reports first show it.
std::vector<std::string> scopeLabels(const std::vector<std::vector<std::vector<std::string>>>& perLane) {
  std::vector<std::string> out;
  for (const auto& rows : perLane)
    for (const auto& row : rows)
      if (std::find(out.begin(), out.end(), row[0]) == out.end()) out.push_back(row[0]);
  return out;
}

// The report of `lane` in a --lane report's boundLanes; nullptr when absent.
const json::value* reportOf(const json::array& bound, const std::string& lane) {
  for (const json::value& b : bound) {
    const json::object* o = b.if_object();
    if (o != nullptr && o->if_contains("lane") && o->at("lane") == lane.c_str() && o->if_contains("report"))
      return &o->at("report");
  }
  return nullptr;
}

}  // namespace

json::value toJson(const std::vector<LaneReport>& reports) {
  json::array out;
  for (const LaneReport& r : reports) out.push_back(json::object{{"lane", r.lane}, {"report", toJson(r.report)}});
  return json::object{{"boundLanes", std::move(out)}};
}

std::string renderSideBySide(const std::vector<LaneReport>& reports) {
  std::vector<std::vector<std::vector<std::string>>> perLane;
  for (const LaneReport& r : reports) perLane.push_back(tableRows(r.report, label));
  std::vector<std::vector<std::string>> rows{{"scope"}};
  for (const LaneReport& r : reports)
    for (std::size_t column : kSideBySide) rows[0].push_back(r.lane + ": " + tableHeader()[column]);
  for (const std::string& scope : scopeLabels(perLane)) {
    std::vector<std::string> row{scope};
    for (const auto& laneRows : perLane) {
      auto it = std::find_if(laneRows.begin(), laneRows.end(), [&](const auto& r) { return r[0] == scope; });
      for (std::size_t column : kSideBySide) row.push_back(it == laneRows.end() ? "-" : (*it)[column]);
    }
    rows.push_back(std::move(row));
  }
  std::string out = aligned(rows);
  for (const LaneReport& r : reports) out += "lane " + r.lane + ": " + footer(r.report);
  return out;
}

Result<std::vector<std::string>> compareWithBaseline(const std::vector<LaneReport>& now, const json::value& baseline,
                                                     double threshold) {
  const json::value* bound = baseline.is_object() ? baseline.as_object().if_contains("boundLanes") : nullptr;
  std::vector<std::string> out;
  for (const LaneReport& r : now) {
    const json::value* before = &baseline;
    if (bound != nullptr) {
      before = bound->is_array() ? reportOf(bound->as_array(), r.lane) : nullptr;
      if (before == nullptr) continue;
    }
    auto lines = compareWithBaseline(r.report, *before, threshold);
    if (!lines) return lines.error();
    for (const std::string& line : *lines) out.push_back("lane " + r.lane + ": " + line);
  }
  return out;
}

}  // namespace lw::eval
