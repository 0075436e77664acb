#include "support/demo_reviewer.h"

#include <regex>
#include <sstream>
#include <string_view>

#include <boost/json.hpp>

namespace lw::test {

namespace json = boost::json;

namespace {

struct Pattern {
  std::string_view needle;
  std::string_view severity;
  std::string_view rule;
  std::string_view message;
  double confidence;
};

// What the stand-in "sees": fixed patterns, one finding per matching line.
constexpr Pattern kPatterns[] = {
    {"eval(", "error", "eval-of-input",
     "`eval()` runs whatever the string holds. Parse the value instead (`int()`, `ast.literal_eval`).", 0.95},
    {"except:", "warning", "bare-except",
     "A bare `except:` also swallows `KeyboardInterrupt` and `SystemExit`; catch the exceptions you expect.", 0.8},
    {"== None", "notice", "none-comparison", "Compare with `is None`: `==` can be overridden.", 0.7},
};

std::string lastUserMessage(const json::value& request) {
  std::string text;
  const json::value* messages = request.is_object() ? request.as_object().if_contains("messages") : nullptr;
  if (messages == nullptr || !messages->is_array()) return text;
  for (const json::value& m : messages->as_array()) {
    if (!m.is_object()) continue;
    const json::value* role = m.as_object().if_contains("role");
    const json::value* content = m.as_object().if_contains("content");
    if (role && *role == "user" && content && content->is_string()) text = std::string(content->get_string());
  }
  return text;
}

// The lines of the fenced "diff" block: "file: <path>" headers, then
// numbered lines "    12 + text".
json::array findingsIn(const std::string& prompt) {
  json::array findings;
  static const std::regex added(R"(^\s*(\d+) \+ (.*)$)");
  std::istringstream in(prompt);
  std::string line, path;
  bool inDiff = false;
  while (std::getline(in, line)) {
    if (line.find(" BEGIN diff>>>") != std::string::npos) inDiff = true;
    if (line.find(" END diff>>>") != std::string::npos) inDiff = false;
    if (!inDiff) continue;
    if (line.starts_with("file: ")) path = line.substr(6);
    std::smatch m;
    if (path.empty() || !std::regex_match(line, m, added)) continue;
    for (const Pattern& p : kPatterns) {
      if (m[2].str().find(p.needle) == std::string::npos) continue;
      int n = std::stoi(m[1].str());
      findings.push_back(json::object{{"path", path},
                                      {"startLine", n},
                                      {"endLine", n},
                                      {"severity", p.severity},
                                      {"rule", p.rule},
                                      {"message", p.message},
                                      {"confidence", p.confidence}});
    }
  }
  return findings;
}

}  // namespace

std::string demoReviewerAnswer(const json::value& request) {
  return json::serialize(json::object{{"findings", findingsIn(lastUserMessage(request))}});
}

}  // namespace lw::test
