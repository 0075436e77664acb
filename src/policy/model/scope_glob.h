// An author step's path globs as the taskpack writes them (`writable:`,
// `expects:`): relative to the workspace, '*' and '?' within one component,
// '**' across any number of them (docs/taskpack.md). Pure text decisions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lw {

// A relative glob that stays inside the workspace: not empty, not absolute,
// no "~" and no ".." component.
bool isScopeGlob(std::string_view glob);

// True when every path `inner` can match is matched by some glob of `scope`
// (an empty scope is the whole workspace). Sound, not complete: it answers
// true only when it can prove it component by component ("src/**" holds
// "src/**/*.c" and "src/a.c"; "src/*.c" holds "src/main.c", not "src/**").
bool globWithinScope(std::string_view inner, const std::vector<std::string>& scope);

// A path whose last component is `.gitattributes` or `.gitignore`: a file
// that changes how git reads the others (docs/taskpack.md, `gitRuleFiles`).
bool isGitRuleFile(std::string_view path);

}  // namespace lw
