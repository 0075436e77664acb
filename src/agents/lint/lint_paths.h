// Paths as linters print them (relative to where they ran, absolute, or
// file:// URIs with %-escapes) made repository-relative, the only form a
// finding carries. Pure: the workspace roots are passed in.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lw::agents::lint {

// A URI reference's path: "file:///w/a%20b.c" -> "/w/a b.c", "src/x.c" ->
// "src/x.c". nullopt for another scheme or a file URI naming a host other
// than localhost, or a %-escape that is not two hex digits.
std::optional<std::string> uriToPath(std::string_view uri);

// The path relative to the workspace, normalised ("./a/../b.c" -> "b.c").
// `roots` are the workspace as given and as resolved (a linter may print
// either). A relative path is taken relative to the workspace. nullopt when
// the path leaves every root; "" stays "" (a finding on the change).
std::optional<std::string> repositoryPath(std::string_view path, const std::vector<std::filesystem::path>& roots);

}  // namespace lw::agents::lint
