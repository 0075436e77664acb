// Where an issue's reproduction is: a fenced shell, Python or JavaScript
// block under the issue form's reproduction field (else the first such block
// of the body), a branch or commit it names, and the error it reports. The
// body is read with GitHub's own Markdown grammar (cmark-gfm), so what runs
// is exactly the block a maintainer sees rendered: an unclosed fence runs to
// the end of its container, as GitHub shows it. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lw::agents::reproduce {

enum class Language { Shell, Bash, Python, JavaScript };

// "sh", "shell" -> Shell; "bash" -> Bash; "python", "py", "python3" ->
// Python; "js", "javascript", "node" -> JavaScript (the first word of the
// fence's info string, any case); nullopt for anything else.
std::optional<Language> languageOfFence(const std::string& info);
// The interpreter that runs it: "sh", "bash", "python3", "node".
const char* interpreterOf(Language language);
const char* nameOf(Language language);  // "shell", "bash", "python", "javascript"

// The largest block run and the largest body read (GitHub caps an issue body
// at 65536 characters, at most 4 bytes each).
inline constexpr std::size_t kMaxScriptBytes = 65536;
inline constexpr std::size_t kMaxBodyBytes = 4 * 65536;

struct SourceRef {
  enum class Kind { Branch, Commit } kind = Kind::Commit;
  std::string name;  // validated: a safe branch name, or 7..40 hex digits
};

struct Reproduction {
  std::optional<Language> language;  // set: `script` is the block to run
  std::string script;
  std::optional<SourceRef> ref;  // set: run against this, not the default branch
  std::string field;             // the heading it was under; "": elsewhere in the body
  // Set when something was there that is not run, and why (a block too
  // large, a ref that is not a safe name); the reproduction is then empty.
  std::string refused;
};

struct ExtractOptions {
  std::vector<std::string> fields;       // reproduction headings, any case
  std::vector<std::string> errorFields;  // "Actual behaviour" headings, any case
};

// The reproduction of `body`: the first runnable fenced block under a
// `fields` heading, else the first in the body; the ref named under that
// heading (else in the body) as "branch `name`" or "commit `sha`". Empty
// (no language, no ref) when there is none.
Reproduction findReproduction(const std::string& body, const ExtractOptions& options);

// The error the reporter saw: the first non-blank line of the first code
// block under an `errorFields` heading, else of its first paragraph; at most
// 200 bytes; nullopt when there is none (or it is shorter than 3 characters,
// which would match anything).
std::optional<std::string> reportedError(const std::string& body, const ExtractOptions& options);

// A branch name safe to hand to git: [A-Za-z0-9._/-], 1..100 characters,
// not starting with '-' or '/', no "..", "//", "@{", not ending in '/',
// '.' or ".lock".
bool isSafeBranchName(const std::string& name);

}  // namespace lw::agents::reproduce
