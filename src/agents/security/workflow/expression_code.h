// An expression's code as the rules that read its shape want it: the
// audits of how an expression is built (whole secrets objects, contains()
// on a literal, constant expressions) rather than of which contexts it names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agents/security/text.h"

namespace lw::agents::security {

// The code of `expression` (with or without its `${{ }}`): ASCII lower case
// (function and context names are case-insensitive), without whitespace,
// each string literal reduced to `''` so that no text inside one matches a
// pattern. `toJSON( secrets )` is "tojson(secrets)". With `keepLiterals`,
// literals keep their (lower-cased) text: for the rules that tell `''` from
// `'x'`.
std::string expressionCode(std::string_view expression, bool keepLiterals = false);

// Whether `code[at]` starts a name of its own: not preceded by a name's
// character (so that "secrets" is not found in "notsecrets").
bool startsName(std::string_view code, std::size_t at);

// The names of the secrets an expression reads (`secrets.NAME`,
// `secrets['NAME']`; "…" for a computed index), lower case, outside string
// literals; GITHUB_TOKEN left out: every job has it.
std::vector<std::string> secretsRead(std::string_view expression);

// Each `${{ … }}` of a file, with the line it starts on, outside lines that
// are YAML comments. `lines` are views into one text, in order, as
// ChangedFile::lines() gives them.
struct FileExpression {
  std::string_view text;
  int line = 0;
};
std::vector<FileExpression> fileExpressions(const FileLines& lines);

}  // namespace lw::agents::security
