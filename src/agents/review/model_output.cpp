#include "agents/review/model_output.h"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <set>

namespace lw::agents::review {

namespace json = boost::json;

namespace {

const std::set<std::string, std::less<>> kFindingKeys = {"path", "startLine", "endLine",    "severity",
                                                         "rule", "message",   "suggestion", "confidence"};

// Collects every problem of one answer, each at its JSON path.
class Checker {
 public:
  Checker() = default;

  void problem(std::string at, std::string message) {
    diagnostics_.push_back(
        {Location{.file = {}, .line = 0, .column = 0, .path = std::move(at)}, std::move(message), {}});
  }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

  std::optional<ModelFinding> finding(const json::value& v, const std::string& at);

 private:
  const json::value* required(const json::object& o, const char* key, const std::string& at);
  std::optional<std::string> text(const json::object& o, const char* key, const std::string& at, std::size_t maxBytes);
  std::optional<int> line(const json::object& o, const char* key, const std::string& at);
  void unknownKeys(const json::object& o, const std::string& at);

  std::vector<Diagnostic> diagnostics_;
};

const json::value* Checker::required(const json::object& o, const char* key, const std::string& at) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) problem(at + "." + key, "is missing");
  return v == nullptr || v->is_null() ? nullptr : v;
}

std::optional<std::string> Checker::text(const json::object& o, const char* key, const std::string& at,
                                         std::size_t maxBytes) {
  const json::value* v = required(o, key, at);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string() || v->get_string().empty() || v->get_string().size() > maxBytes) {
    problem(at + "." + key, "must be a non-empty string of at most " + std::to_string(maxBytes) + " bytes");
    return std::nullopt;
  }
  return std::string(v->get_string());
}

std::optional<int> Checker::line(const json::object& o, const char* key, const std::string& at) {
  const json::value* v = required(o, key, at);
  if (v == nullptr) return std::nullopt;
  const bool integer = v->is_int64() || v->is_uint64();
  const double n = integer ? v->to_number<double>() : 0;
  if (!integer || n < 1 || n > kMaxLine) {
    problem(at + "." + key, "must be an integer line number from 1 to " + std::to_string(kMaxLine));
    return std::nullopt;
  }
  return static_cast<int>(n);
}

void Checker::unknownKeys(const json::object& o, const std::string& at) {
  for (const auto& kv : o)
    if (!kFindingKeys.contains(std::string_view(kv.key())))
      problem(at + "." + std::string(kv.key()).substr(0, 40), "is not a field of a finding");
}

bool isRuleId(std::string_view s) {
  return !s.empty() && s.size() <= kMaxRuleBytes && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::optional<ModelFinding> Checker::finding(const json::value& v, const std::string& at) {
  if (!v.is_object()) {
    problem(at, "must be an object");
    return std::nullopt;
  }
  const json::object& o = v.get_object();
  const std::size_t before = diagnostics_.size();
  unknownKeys(o, at);
  ModelFinding f;
  if (auto p = text(o, "path", at, 1024)) f.path = *p;
  f.startLine = line(o, "startLine", at).value_or(0);
  f.endLine = line(o, "endLine", at).value_or(0);
  if (f.startLine > 0 && f.endLine > 0 && (f.endLine < f.startLine || f.endLine - f.startLine > kMaxSpan))
    problem(at + ".endLine", "must be from startLine to startLine + " + std::to_string(kMaxSpan));
  if (auto s = text(o, "severity", at, 16)) {
    if (auto sev = parseSeverity(*s))
      f.severity = *sev;
    else
      problem(at + ".severity", "must be one of error, warning, notice");
  }
  if (auto r = text(o, "rule", at, kMaxRuleBytes)) {
    if (!isRuleId(*r)) problem(at + ".rule", "must be kebab-case: a-z, 0-9 and '-'");
    f.rule = *r;
  }
  f.message = text(o, "message", at, kMaxMessageBytes).value_or("");
  if (const json::value* s = o.if_contains("suggestion"); s != nullptr && !s->is_null())
    f.suggestion = text(o, "suggestion", at, kMaxSuggestionBytes);
  if (const json::value* c = required(o, "confidence", at)) {
    if (!c->is_number() || c->to_number<double>() < 0 || c->to_number<double>() > 1)
      problem(at + ".confidence", "must be a number from 0 to 1");
    else
      f.confidence = c->to_number<double>();
  }
  if (diagnostics_.size() != before) return std::nullopt;
  return f;
}

Error invalid(std::vector<Diagnostic> diagnostics) {
  const Diagnostic& first = diagnostics.front();
  std::string where = first.location.path.empty() ? "" : first.location.path + " ";
  Error e =
      makeError(ErrorCode::OutputInvalid, "the model's answer is not the findings contract: " + where + first.message,
                "the answer must be one JSON object {\"findings\": [...]} as the prompt describes");
  e.diagnostics = std::move(diagnostics);
  return e;
}

Error invalid(std::string message) { return invalid(std::vector<Diagnostic>{{Location{}, std::move(message), {}}}); }

}  // namespace

std::string_view stripJsonFence(std::string_view text) {
  auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (!text.starts_with("```") || text.size() < 6 || !text.ends_with("```")) return text;
  std::size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return text;
  std::string_view tag = text.substr(3, nl - 3);
  if (!tag.empty() && tag != "json" && tag != "json\r") return text;
  std::string_view inner = text.substr(nl + 1, text.size() - 3 - (nl + 1));
  return inner.find("```") == std::string_view::npos ? inner : text;
}

Result<ModelAnswer> parseModelOutput(std::string_view text, const std::vector<std::string>& chunkPaths,
                                     bool truncated) {
  if (truncated) return invalid("the answer was cut off at the token limit (partial)");
  boost::system::error_code ec;
  json::value v = json::parse(stripJsonFence(text), ec);
  if (ec) return invalid("is not one JSON object (" + ec.message() + ")");
  if (!v.is_object()) return invalid("is not a JSON object");
  Checker check;
  for (const auto& kv : v.get_object())
    if (kv.key() != "findings") check.problem(std::string(kv.key()).substr(0, 40), "is not a field of the answer");
  const json::value* list = v.get_object().if_contains("findings");
  if (list == nullptr || !list->is_array()) return invalid("findings must be an array");
  if (list->get_array().size() > kMaxFindingsPerAnswer)
    return invalid("findings has more than " + std::to_string(kMaxFindingsPerAnswer) + " entries");
  ModelAnswer out;
  for (std::size_t i = 0; i < list->get_array().size(); ++i)
    if (auto f = check.finding(list->get_array()[i], "findings[" + std::to_string(i) + "]")) {
      const bool onChunk = std::find(chunkPaths.begin(), chunkPaths.end(), f->path) != chunkPaths.end();
      (onChunk ? out.findings : out.offChange).push_back(std::move(*f));
    }
  if (!check.diagnostics().empty()) return invalid(check.diagnostics());
  return out;
}

}  // namespace lw::agents::review
