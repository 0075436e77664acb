// Which GitHub Actions expressions can carry text an outsider chose: pull
// request and issue titles and bodies, branch names, comments, commit
// messages, author names and e-mails, label names, page names (the same set
// GitHub's security guide and zizmor's template-injection audit use).
// Numbers, SHAs and repository ids are not among them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lw::agents::security {

// Every `${{ … }}` in text, with its delimiters.
std::vector<std::string_view> expressionsIn(std::string_view text);

// The expression between `${{` and `}}`, trimmed; the text itself, trimmed,
// when it is not fenced so (an `if:` may leave the fence out).
std::string_view expressionBody(std::string_view expression);

// The context references inside one expression that are untrusted, written
// as the expression wrote them ("github.event.issue.title"). A reference to
// an object that holds untrusted fields (`toJSON(github.event)`,
// `github.event.pull_request`) counts.
std::vector<std::string> untrustedRefsIn(std::string_view expression);

// The same for a path already normalised: lower case, `.*` for an index.
bool isUntrustedContext(std::string_view normalizedPath);

// A reference to a context inside an expression: its text as written, and
// the path of the value it yields, normalised (lower case; `github['X']`
// is `github.x`; `.*` for a computed index). A reference inside a grouping
// `( … )` that is followed by a property yields that property:
// `(github.event.pull_request || github.event.issue).number` refers to
// `github.event.pull_request.number` and `github.event.issue.number`.
struct ContextRef {
  std::string_view text;
  std::string path;
};

// Every reference to the context `name` ("github", lower case) in one
// expression, in the expression's order. Context names are
// case-insensitive in expressions (`GitHub.Event` works).
std::vector<ContextRef> contextRefsIn(std::string_view expression, std::string_view name);

// A character of a name in an expression (letters, digits, '_', '-').
bool isNameChar(char c);

// Reads the accessors `.name`, `['name']`, `[index]` and `.*` of a
// reference from `at`, appends them to `path` normalised (as ContextRef's
// path) and returns the offset after them.
std::size_t readContextPath(std::string_view expression, std::size_t at, std::string& path);

// A normalised path's segments: "github.event.issue" -> github, event, issue.
std::vector<std::string_view> pathSegments(std::string_view path);

}  // namespace lw::agents::security
