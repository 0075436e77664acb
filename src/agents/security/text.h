// Small text helpers the security rules share: they read files line by
// line, as the files are written, so that every finding keeps its line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lw::agents::security {

// A file's lines, as views into its content.
using FileLines = std::vector<std::string_view>;

std::string_view trim(std::string_view s);
// ASCII lower case: GitHub's names (contexts, owners, actions) compare so.
std::string lowerCase(std::string_view s);
// The lower-case owner/repo a `uses:` names, without the action's or
// workflow's path inside the repository and without @ref
// (`Actions/Cache/restore@v4` -> "actions/cache"); empty for a local
// (`./…`, `$/…`) or docker:// reference.
std::string usesRepository(std::string_view uses);
// "a/b/c.yml" -> "c.yml"
std::string_view baseName(std::string_view path);
// 40 hexadecimal digits: a full git commit id (what a pin must be).
bool isFullCommitSha(std::string_view s);
// The lines of `text` without their '\n' (no empty last line for a final '\n').
std::vector<std::string_view> splitLines(std::string_view text);

}  // namespace lw::agents::security
