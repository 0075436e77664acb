#include "host/runner_dotenv.h"

#include <sstream>
#include <vector>

namespace lw::host {
namespace {

std::vector<std::string> linesOf(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool isKeyLine(const std::string& line, std::string_view key) {
  return line.size() > key.size() && line.compare(0, key.size(), key) == 0 && line[key.size()] == '=';
}

// Single quotes for the shell: nothing inside them is special but ' itself.
std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::optional<std::string> dotEnvValue(std::string_view dotEnv, std::string_view key) {
  std::optional<std::string> value;
  for (const std::string& line : linesOf(dotEnv))
    if (isKeyLine(line, key)) value = line.substr(key.size() + 1);
  return value;
}

Result<std::string> withHooks(std::string_view dotEnv, const std::string& startedScript,
                              const std::string& completedScript, bool replace) {
  const std::pair<std::string_view, const std::string*> wanted[] = {{kHookStartedKey, &startedScript},
                                                                    {kHookCompletedKey, &completedScript}};
  for (const auto& [key, script] : wanted) {
    auto current = dotEnvValue(dotEnv, key);
    if (current && *current != *script && !replace)
      return makeError(ErrorCode::UsageError,
                       std::string(key) + " is already set to " + *current + " in the runner's .env",
                       "call loopwright from that script, or pass --replace to point the hook "
                       "at loopwright's script instead",
                       std::string(key));
  }
  std::string out;
  bool set[2] = {false, false};
  for (const std::string& line : linesOf(dotEnv)) {
    bool replaced = false;
    for (int i = 0; i < 2; ++i) {
      if (!isKeyLine(line, wanted[i].first)) continue;
      replaced = true;
      if (!set[i]) out += std::string(wanted[i].first) + "=" + *wanted[i].second + "\n";
      set[i] = true;  // later duplicates are dropped: the runner would take the last
    }
    if (!replaced) out += line + "\n";
  }
  for (int i = 0; i < 2; ++i)
    if (!set[i]) out += std::string(wanted[i].first) + "=" + *wanted[i].second + "\n";
  return out;
}

std::string hookScript(const std::string& loopwrightBinary, const std::string& event) {
  return "#!/usr/bin/env bash\n"
         "# Written by `loopwright runner install-hooks`; the runner runs it as " +
         std::string(event == "job-started" ? kHookStartedKey : kHookCompletedKey) + ".\nexec " +
         shellQuote(loopwrightBinary) + " runner hook " + event + "\n";
}

}  // namespace lw::host
