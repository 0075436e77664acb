// `loopwright eval --baseline`: the whole run's and each step's precision and
// recall against an earlier report (eval/report.h).
#include <cstdio>

#include <boost/json.hpp>

#include "eval/report.h"

namespace lw::eval {
namespace json = boost::json;
namespace {

// The mean of `metric` in a scope object of a report; nullopt when the
// metric was never defined there (null).
Result<std::optional<double>> meanIn(const json::object& scope, const char* metric) {
  const json::value* m = scope.if_contains(metric);
  if (m == nullptr) return makeError(ErrorCode::OutputInvalid, std::string("the baseline has no ") + metric);
  if (m->is_null()) return std::optional<double>{};
  const json::value* mean = m->is_object() ? m->as_object().if_contains("mean") : nullptr;
  if (mean == nullptr || !mean->is_number())
    return makeError(ErrorCode::OutputInvalid, std::string("the baseline's ") + metric + " has no mean");
  return std::optional<double>{mean->to_number<double>()};
}

std::string percent(double v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", v * 100);
  return buf;
}

// One line per metric of `now` that fell below the baseline's by more than
// the threshold.
Status compareScope(const ScopeSummary& now, const json::object& before, double threshold,
                    std::vector<std::string>& out) {
  const std::pair<const char*, const Stat*> metrics[] = {{"precision", &now.precision}, {"recall", &now.recall}};
  for (const auto& [metric, stat] : metrics) {
    auto was = meanIn(before, metric);
    if (!was) return was.error();
    if (!*was) continue;
    double current = stat->samples == 0 ? 0.0 : stat->mean;
    if (**was - current > threshold)
      out.push_back(now.label() + ": " + metric + " " + percent(**was) + " -> " + percent(current) +
                    " (fell by more than " + percent(threshold) + ")");
  }
  return Ok{};
}

const json::object* stepIn(const json::object& report, const std::string& name) {
  const json::value* steps = report.if_contains("steps");
  if (steps == nullptr || !steps->is_array()) return nullptr;
  for (const json::value& s : steps->as_array())
    if (s.is_object() && s.as_object().if_contains("name") && s.as_object().at("name") == name.c_str())
      return &s.as_object();
  return nullptr;
}

}  // namespace

Result<std::vector<std::string>> compareWithBaseline(const EvalReport& now, const json::value& baseline,
                                                     double threshold) {
  const json::value* all = baseline.is_object() ? baseline.as_object().if_contains("all") : nullptr;
  if (all == nullptr || !all->is_object())
    return makeError(ErrorCode::OutputInvalid, "the baseline is not a `loopwright eval --json` report",
                     "give the file an earlier `loopwright eval --json` wrote");
  std::vector<std::string> out;
  if (auto s = compareScope(now.all, all->as_object(), threshold, out); !s) return s.error();
  for (const ScopeSummary& step : now.steps)
    if (const json::object* before = stepIn(baseline.as_object(), step.name))
      if (auto s = compareScope(step, *before, threshold, out); !s) return s.error();
  return out;
}

}  // namespace lw::eval
