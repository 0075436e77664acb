#include "agents/security/file_rules/shell_rules.h"

#include "agents/security/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace lw::agents::security {

namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-'; }

// The offset of `word` standing alone (not part of a longer name), from `from`.
std::size_t findWord(std::string_view s, std::string_view word, std::size_t from = 0) {
  std::size_t at = s.find(word, from);
  while (at != std::string_view::npos) {
    bool before = at == 0 || !isWordChar(s[at - 1]);
    bool after = at + word.size() == s.size() || !isWordChar(s[at + word.size()]);
    if (before && after) return at;
    at = s.find(word, at + 1);
  }
  return std::string_view::npos;
}

bool isInterpreter(std::string_view token) {
  std::size_t slash = token.rfind('/');
  if (slash != std::string_view::npos) token.remove_prefix(slash + 1);
  static constexpr std::array kNames = {"sh",   "bash",   "zsh",     "ksh",  "dash", "ash",
                                        "fish", "python", "python3", "perl", "ruby", "node"};
  for (const char* n : kNames)
    if (token == n) return true;
  return false;
}

std::string_view nextToken(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  std::size_t start = i;
  while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != ';' && s[i] != '|' && s[i] != '&' && s[i] != ')') ++i;
  return s.substr(start, i - start);
}

// After a pipe: the command, past `sudo [-flags]`, `env`, and VAR=value.
bool pipeFeedsInterpreter(std::string_view s, std::size_t afterPipe) {
  std::size_t i = afterPipe;
  for (int guard = 0; guard < 8; ++guard) {
    std::string_view t = nextToken(s, i);
    if (t.empty()) return false;
    if (t == "sudo" || t == "env" || t.starts_with("-") || t.find('=') != std::string_view::npos) continue;
    return isInterpreter(t);
  }
  return false;
}

bool pipedToInterpreter(std::string_view s, std::size_t from) {
  for (std::size_t p = s.find('|', from); p != std::string_view::npos; p = s.find('|', p + 1)) {
    if (p + 1 < s.size() && s[p + 1] == '|') {  // `||` is not a pipe
      ++p;
      continue;
    }
    if (pipeFeedsInterpreter(s, p + 1)) return true;
  }
  return false;
}

// `bash <(curl …)` and `sh -c "$(curl …)"`: the download as the script.
bool substitutedIntoInterpreter(std::string_view s, std::size_t download) {
  std::size_t open = s.rfind('(', download);
  if (open == std::string_view::npos || open == 0) return false;
  std::size_t i = 0;
  std::string_view first = nextToken(s.substr(0, open), i);
  if (first == "sudo") first = nextToken(s.substr(0, open), i);
  return isInterpreter(first);
}

// The URL the download at `from` fetches names a file at a commit of a
// GitHub repository (raw.githubusercontent.com/o/r/<sha>/…,
// github.com/o/r/raw/<sha>/…): that content cannot change, so running it is
// running pinned code (poutine's unverified_script_exec agrees).
bool downloadsPinnedCommit(std::string_view s, std::size_t from) {
  std::size_t at = s.find("https://", from);
  if (at == std::string_view::npos) return false;
  std::size_t end = s.find_first_of(" \t\"')|;", at);
  std::string_view url = s.substr(at + 8, end == std::string_view::npos ? end : end - at - 8);
  std::string_view host = url.substr(0, url.find('/'));
  if (host != "raw.githubusercontent.com" && host != "github.com" && host != "gist.githubusercontent.com") return false;
  for (std::size_t i = url.find('/'); i != std::string_view::npos; i = url.find('/', i + 1))
    if (isFullCommitSha(url.substr(i + 1, url.find('/', i + 1) - i - 1))) return true;
  return false;
}

}  // namespace

bool pipesDownloadToShell(std::string_view line) {
  std::string lower = lowerCase(line);
  for (std::string_view tool : {"curl", "wget"}) {
    std::size_t at = findWord(lower, tool);
    if (at == std::string_view::npos || downloadsPinnedCommit(lower, at)) continue;
    if (pipedToInterpreter(lower, at) || substitutedIntoInterpreter(lower, at)) return true;
  }
  return false;
}

std::vector<RuleHit> curlPipeShellHits(const std::vector<std::string_view>& lines, int firstLine) {
  std::vector<RuleHit> out;
  std::string logical;
  std::vector<int> physical;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    physical.push_back(firstLine + static_cast<int>(i));
    bool continues = !l.empty() && l.back() == '\\';
    logical.append(continues ? l.substr(0, l.size() - 1) : l).push_back(' ');
    if (continues && i + 1 < lines.size()) continue;
    if (pipesDownloadToShell(logical))
      out.push_back({"security/curl-pipe-shell", "A download is piped into an interpreter.", physical});
    logical.clear();
    physical.clear();
  }
  return out;
}

}  // namespace lw::agents::security
