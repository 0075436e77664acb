#include "agents/security/workflow/shell_flow.h"

#include <array>
#include <cctype>
#include <map>
#include <optional>

#include "agents/security/text.h"
#include "agents/security/workflow/action_catalogue.h"
#include "agents/security/workflow/untrusted_context.h"

namespace lw::agents::security {

namespace {

constexpr std::array kRunnerFiles = {"GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT"};

bool isShellNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool isShellNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool isRunnerFile(std::string_view name) {
  for (std::string_view f : kRunnerFiles)
    if (name == f) return true;
  return false;
}

bool hasCommandSubstitution(std::string_view line) {
  return line.find("$(") != std::string_view::npos || line.find('`') != std::string_view::npos;
}

// Whether `name` at `at` in `line` is read as a variable: $NAME, ${NAME},
// $env:NAME (PowerShell) or %NAME% (cmd), and not the start of a longer name.
bool isVariableAt(std::string_view line, std::size_t at, std::string_view name) {
  std::size_t end = at + name.size();
  if (end < line.size() && isShellNameChar(line[end])) return false;
  std::string before = lowerCase(line.substr(0, at));
  return before.ends_with("$") || before.ends_with("${") || before.ends_with("$env:") || before.ends_with("%");
}

// The runner file a line writes to, or "" (see the header for the forms).
std::string writtenFile(std::string_view line) {
  if (trim(line).starts_with("#")) return "";
  for (std::string_view f : kRunnerFiles)
    for (std::size_t at = line.find(f); at != std::string_view::npos; at = line.find(f, at + 1)) {
      if (!isVariableAt(line, at, f)) continue;
      std::string before = lowerCase(line.substr(0, at));
      bool redirected = before.find('>') != std::string::npos;
      bool piped = before.find("tee ") != std::string::npos || before.find("out-file") != std::string::npos ||
                   before.find("add-content") != std::string::npos || before.find("set-content") != std::string::npos;
      if (redirected || piped) return std::string(f);
    }
  return "";
}

// Whether what a write line writes is its own arguments (echo, printf, a
// string piped on, a here-document, a closed group) rather than what some
// command prints.
bool writesItsArguments(std::string_view line) {
  std::string_view t = trim(line);
  std::size_t pipe = t.find('|');
  std::string producer = lowerCase(trim(t.substr(0, pipe)));
  if (producer.starts_with("\"") || producer.starts_with("'") || producer.starts_with("}")) return true;
  for (std::string_view word : {"echo", "printf", "write-output", "write-host"})
    if (producer == word || producer.starts_with(std::string(word) + " ")) return true;
  return producer.starts_with("cat ") && producer.find("<<") != std::string::npos;
}

// The script's logical lines (a line ending in `\` goes on with the next),
// each with the index of its first physical line.
std::vector<std::pair<std::string, std::size_t>> logicalLines(std::string_view script) {
  std::vector<std::pair<std::string, std::size_t>> out;
  bool continued = false;
  std::vector<std::string_view> lines = splitLines(script);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    bool continues = l.ends_with("\\");
    if (continues) l.remove_suffix(1);
    if (continued)
      out.back().first.append(" ").append(trim(l));
    else
      out.emplace_back(std::string(l), i);
    continued = continues;
  }
  return out;
}

// `NAME=value`, `export NAME=value` (also local, readonly, declare): the
// name and where the value starts, or an empty name.
std::pair<std::string, std::size_t> assignment(std::string_view line) {
  std::string_view t = trim(line);
  std::size_t offset = line.find(t.empty() ? line : t);
  for (std::string_view word : {"export ", "local ", "readonly ", "declare "})
    if (t.starts_with(word)) {
      t.remove_prefix(word.size());
      offset += word.size();
      while (t.starts_with("-")) {  // declare -x NAME=…
        std::size_t space = t.find(' ');
        if (space == std::string_view::npos) return {};
        t.remove_prefix(space + 1);
        offset += space + 1;
      }
    }
  if (t.empty() || !isShellNameStart(t.front())) return {};
  std::size_t end = 0;
  while (end < t.size() && isShellNameChar(t[end])) ++end;
  if (end >= t.size() || t[end] != '=') return {};
  return {std::string(t.substr(0, end)), offset + end + 1};
}

class ScriptReader {
 public:
  explicit ScriptReader(const FlowScope& at) : at_(at) {}

  // What the text expands to: its expressions, its variables, and Unknown
  // for a command substitution none of whose variables is tainted.
  Taint taintOf(std::string_view text) const {
    Taint worst = textTaint(text, at_);
    for (const std::string& name : shellVariablesIn(text)) worst = worse(worst, variableTaint(name));
    if (worst.reach == Reach::None && hasCommandSubstitution(text)) worst = {Reach::Unknown, "a command's output"};
    return worst;
  }

  // The text's `${{ … }}` alone: what a quoted here-document keeps.
  Taint expressionTaintOf(std::string_view text) const { return textTaint(text, at_); }

  void read(std::string_view line) {
    auto [name, valueAt] = assignment(line);
    if (!name.empty()) assigned_[name] = taintOf(line.substr(valueAt));
  }

 private:
  Taint variableTaint(const std::string& name) const {
    auto it = assigned_.find(name);
    if (it == assigned_.end()) return environmentVariableTaint(name, at_);
    Taint t = it->second;
    if (t.reach != Reach::None) t.via = "`$" + name + "` ← " + t.via;
    return t;
  }

  const FlowScope& at_;
  std::map<std::string, Taint> assigned_;
};

// The lines a write on line `at` also writes: a here-document's body
// (`cat <<EOF >> "$GITHUB_ENV"`, expanded unless its delimiter is quoted)
// or the `{ …; }` group this line closes (`} >> "$GITHUB_ENV"`).
struct Body {
  std::size_t first = 0, last = 0;  // [first, last)
  bool expanded = true;
};

std::optional<Body> hereDocument(const std::vector<std::string_view>& lines, std::size_t at) {
  std::string_view line = lines[at];
  std::size_t op = line.find("<<");
  if (op == std::string_view::npos || line.substr(op, 3) == "<<<") return std::nullopt;
  std::string_view rest = trim(line.substr(op + 2));
  if (rest.starts_with("-")) rest = trim(rest.substr(1));
  bool quoted = !rest.empty() && (rest.front() == '\'' || rest.front() == '"');
  if (quoted) rest.remove_prefix(1);
  std::size_t end = 0;
  while (end < rest.size() && isShellNameChar(rest[end])) ++end;
  std::string_view delimiter = rest.substr(0, end);
  if (delimiter.empty()) return std::nullopt;
  std::size_t close = at + 1;
  while (close < lines.size() && trim(lines[close]) != delimiter) ++close;
  return Body{at + 1, close, !quoted};
}

std::optional<Body> closedGroup(const std::vector<std::string_view>& lines, std::size_t at) {
  if (!trim(lines[at]).starts_with("}")) return std::nullopt;
  for (std::size_t open = at; open-- > 0;) {
    std::string_view t = trim(lines[open]);
    if (t == "{" || (t.ends_with("{") && !t.ends_with("${"))) return Body{open + 1, at, true};
  }
  return std::nullopt;
}

ScriptWrite writeAt(const std::vector<std::string_view>& lines, std::size_t at, std::string file,
                    const ScriptReader& reader) {
  ScriptWrite w{at, std::move(file), std::string(trim(lines[at])), reader.taintOf(lines[at])};
  if (w.taint.reach == Reach::None && !writesItsArguments(lines[at])) w.taint = {Reach::Unknown, "a command's output"};
  std::optional<Body> body = hereDocument(lines, at);
  if (!body) body = closedGroup(lines, at);
  if (!body) return w;
  for (std::size_t i = body->first; i < body->last; ++i) {
    w.text.append("\n").append(trim(lines[i]));
    w.taint = worse(w.taint, body->expanded ? reader.taintOf(lines[i]) : reader.expressionTaintOf(lines[i]));
  }
  return w;
}

// The output a GITHUB_OUTPUT line sets: `name=value` or `name<<EOF`.
bool setsOutput(std::string_view text, std::string_view name) {
  for (std::string_view form : {"=", "<<"}) {
    std::string needle = std::string(name) + std::string(form);
    for (std::size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1))
      if (at == 0 || !isShellNameChar(text[at - 1])) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> shellVariablesIn(std::string_view line) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    std::size_t start = std::string_view::npos;
    if (line[i] == '$' && line.substr(i + 1, 4) == "env:")
      start = i + 5;
    else if (line[i] == '$' && i + 1 < line.size() && line[i + 1] == '{')
      start = i + 2;
    else if (line[i] == '$')
      start = i + 1;
    else if (line[i] == '%')
      start = i + 1;
    if (start >= line.size() || !isShellNameStart(line[start])) continue;
    std::size_t end = start;
    while (end < line.size() && isShellNameChar(line[end])) ++end;
    // %NAME% (cmd) with a name of two letters or more: `date +%Y%m` is no variable.
    if (line[i] == '%' && (end >= line.size() || line[end] != '%' || end - start < 2)) continue;
    std::string name(line.substr(start, end - start));
    if (!isRunnerFile(name)) out.push_back(std::move(name));
    i = end - 1;
  }
  return out;
}

std::vector<ScriptWrite> scriptWrites(const StepModel& step, const FlowScope& at) {
  std::vector<ScriptWrite> out;
  if (!step.run.present()) return out;
  ScriptReader reader(at);
  std::vector<std::pair<std::string, std::size_t>> logical = logicalLines(step.run.text);
  std::vector<std::string_view> lines;
  for (const auto& [text, first] : logical) lines.push_back(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string file = writtenFile(lines[i]);
    if (!file.empty()) {
      out.push_back(writeAt(lines, i, file, reader));
      out.back().line = logical[i].second;
    }
    reader.read(lines[i]);
  }
  return out;
}

Taint stepOutputTaint(const StepModel& step, std::string_view name, const FlowScope& at) {
  if (!step.run.present()) {
    if (outputCarriesEventText(step, name))
      return {Reach::Attacker, "an output of `" + step.uses.text + "` that carries event text"};
    return {Reach::Unknown, "an output of `" + step.uses.text + "`"};
  }
  Taint worst;
  bool found = false;
  for (const ScriptWrite& w : scriptWrites(step, at))
    if (w.file == "GITHUB_OUTPUT" && setsOutput(w.text, name)) {
      found = true;
      worst = worse(worst, w.taint);
    }
  if (!found) return {Reach::Unknown, "a value its script sets in a way not followed"};
  return worst;
}

std::optional<ScriptLine> firstOutsiderLine(const StepModel& step, const FlowScope& at) {
  if (!step.run.present()) return std::nullopt;
  ScriptReader reader(at);
  for (const auto& [text, first] : logicalLines(step.run.text)) {
    Taint t = reader.taintOf(text);
    if (t.reach == Reach::Attacker) return ScriptLine{first, std::move(t)};
    reader.read(text);
  }
  return std::nullopt;
}

}  // namespace lw::agents::security
