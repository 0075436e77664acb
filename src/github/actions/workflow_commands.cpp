#include "github/actions/workflow_commands.h"

#include <ostream>
#include <random>

#include "core/hex.h"

namespace lw::github {

namespace {

// The runner's escapes: '%', CR and LF always; in a property also ':' and
// ',', which end the property.
std::string escapeCommandText(std::string_view s, bool property) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string escapeData(std::string_view s) { return escapeCommandText(s, false); }

std::string escapeProperty(std::string_view s) { return escapeCommandText(s, true); }

std::string annotationCommand(const Finding& f) {
  std::string props;
  auto add = [&](std::string_view key, const std::string& value) {
    props += props.empty() ? " " : ",";
    props += key;
    props += '=';
    props += escapeProperty(value);
  };
  if (!f.path.empty()) {
    add("file", f.path);
    if (f.line > 0) {
      add("line", std::to_string(f.line));
      if (f.endLine > f.line) add("endLine", std::to_string(f.endLine));
    }
  }
  std::string title = f.step.empty() ? f.ruleId : (f.ruleId.empty() ? f.step : f.step + ": " + f.ruleId);
  if (!title.empty()) add("title", title);
  return "::" + std::string(toString(f.severity)) + props + "::" + escapeData(f.message);
}

std::string warningCommand(std::string_view title, std::string_view message) {
  return "::warning title=" + escapeProperty(title) + "::" + escapeData(message);
}

std::string errorCommand(std::string_view title, std::string_view message) {
  return "::error title=" + escapeProperty(title) + "::" + escapeData(message);
}

std::string warningSummaryLine(std::string_view message) {
  std::string line = "> **Warning:** ";
  for (char c : message) line += (c == '\n' || c == '\r') ? ' ' : c;
  return line + "\n\n";
}

std::string randomToken() {
  std::random_device rd;
  std::string out = "lw-";
  for (int i = 0; i < 4; ++i) out += hexNumber(rd(), 8);  // 128 random bits
  return out;
}

void echoUntrusted(std::ostream& log, std::string_view text, std::string token) {
  while (text.find(token) != std::string_view::npos) token = randomToken();
  log << "::stop-commands::" << token << "\n" << text;
  if (!text.empty() && text.back() != '\n') log << "\n";
  log << "::" << token << "::\n";
}

}  // namespace lw::github
