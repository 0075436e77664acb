// Untrusted Markdown rebuilt from GitHub's own parse of it (cmark-gfm, see
// github/markdown/markdown_tree.h), so that what GitHub renders of the result holds
// no image, no raw HTML, no link off the repository, no live mention or
// cross-repository reference and no autolink. The input is expected to be
// cleaned of unsafe characters already (github/markdown/text_clean.h); nothing is
// bounded here. Pure.
#pragma once

#include <string>
#include <string_view>

#include "github/markdown/repo_links.h"

namespace lw::github {

// U+2060 WORD JOINER: invisible, and no GitHub autolinker or mention
// matches across it.
inline constexpr std::string_view kWordJoiner = "\xE2\x81\xA0";

// Markdown kept as Markdown: emphasis, lists, code, tables and links into
// the repository stay; images become "(image: alt)", links elsewhere their
// text and address as plain text, HTML is shown as code, a `suggestion`
// fence becomes a plain one. The result is checked by parsing it again
// (github/markdown/inert_check.h); if that ever finds something, the text's plain
// reading is returned instead. `reading`, when given, receives what a
// reader sees of the result (github/markdown/inert_check.h).
std::string inertMarkdown(std::string_view text, const LinkScope& scope, std::string* reading = nullptr);

// `text` shown as it is, never read as Markdown: every character that could
// start markup escaped, newlines made spaces. One line.
std::string inertPlain(std::string_view text);

// The plain reading of inert Markdown on one line, itself inert as plain
// text: for a table cell or a line of reasons, where the text's own blocks
// (a code block, a list) would not survive being joined into one line.
std::string inertOneLine(std::string_view markdown);

// A text node's literal with mentions, "owner/repo#1" references, "www."
// and "scheme://" autolinks broken by a word joiner; the look is unchanged.
// Applying it twice changes nothing.
std::string defused(std::string_view literal);

}  // namespace lw::github
