#include "agents/security/workflow/shell_commands.h"

#include <algorithm>
#include <array>

namespace lw::agents::security {

namespace {

bool isSeparator(char c) { return c == ';' || c == '|' || c == '&' || c == '(' || c == ')'; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool isAssignment(std::string_view w) {
  std::size_t eq = w.find('=');
  return eq != std::string_view::npos && eq > 0 && !w.starts_with("-");
}

// The program and its arguments past the prefixes that run another command.
std::vector<std::string> withoutPrefixes(std::vector<std::string> words) {
  static constexpr std::array kRunners = {"sudo", "env", "time", "exec", "command", "nohup"};
  std::size_t i = 0;
  bool afterRunner = false;  // a runner's own flags (`sudo -E`) come next
  for (; i < words.size(); ++i) {
    std::string_view w = words[i];
    bool runner = std::find(kRunners.begin(), kRunners.end(), w) != kRunners.end();
    if (!runner && !isAssignment(w) && !(afterRunner && w.starts_with("-"))) break;
    afterRunner = afterRunner || runner;
  }
  words.erase(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i));
  if (!words.empty()) words[0] = words[0].substr(words[0].rfind('/') + 1);
  return words;
}

// Splits one logical line into commands of words.
class Splitter {
 public:
  Splitter(std::size_t line, std::vector<ShellCommand>& out) : line_(line), out_(out) {}

  void feed(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (quote_ != 0) {
        if (c == quote_)
          quote_ = 0;
        else
          word_.push_back(c);
      } else if (c == '\'' || c == '"') {
        quote_ = c;
        inWord_ = true;
      } else if (c == '#' && !inWord_) {
        return;  // a comment to the end of the line
      } else if (isBlank(c) || isSeparator(c)) {
        endWord();
        if (isSeparator(c)) endCommand();
      } else {
        word_.push_back(c);
        inWord_ = true;
      }
    }
  }

  void finish() {
    endWord();
    endCommand();
  }

 private:
  void endWord() {
    if (inWord_) words_.push_back(word_);
    word_.clear();
    inWord_ = false;
  }
  void endCommand() {
    std::vector<std::string> words = withoutPrefixes(std::move(words_));
    if (!words.empty()) out_.push_back({std::move(words), line_});
    words_.clear();
  }

  std::size_t line_;
  std::vector<ShellCommand>& out_;
  std::vector<std::string> words_;
  std::string word_;
  bool inWord_ = false;
  char quote_ = 0;
};

}  // namespace

std::vector<ShellCommand> shellCommands(const std::vector<std::string_view>& lines) {
  std::vector<ShellCommand> out;
  std::string logical;
  std::size_t start = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    while (!l.empty() && isBlank(l.back())) l.remove_suffix(1);
    if (logical.empty()) start = i;
    bool continues = !l.empty() && (l.back() == '\\' || l.back() == '`');
    logical.append(continues ? l.substr(0, l.size() - 1) : l).push_back(' ');
    if (continues && i + 1 < lines.size()) continue;
    Splitter split(start, out);
    split.feed(logical);
    split.finish();
    logical.clear();
  }
  return out;
}

}  // namespace lw::agents::security
