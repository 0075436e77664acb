// The test of inertness, on GitHub's own parse of a body (cmark-gfm): what
// a reader's GitHub would render of it that loopwright must never post from
// untrusted text. The neutraliser checks its own output with it, and the
// tests check every request body with it. It shares no rule with the
// neutraliser (github/markdown/inert_markdown.h) on purpose: a mistake there must not
// hide here too. Pure.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "github/markdown/repo_links.h"

namespace lw::github {

// Whether a raw HTML literal is markup the publisher itself writes (its
// hidden markers, the <details> of a resolved comment).
using OwnMarkup = std::function<bool(std::string_view literal)>;

// What is forbidden in `body`, one line each ("image https://…", "link
// https://…", "raw HTML <img …>", "mention @octocat", "reference o/r#1");
// empty when it is inert. HTML is allowed only where `own` says it is the
// publisher's; without `own`, none is. `reading`, when given, receives what
// a reader sees of the body: its text, then the address of each link (the
// secret scan's second look, without a second parse).
std::vector<std::string> inertViolations(std::string_view body, const LinkScope& scope, const OwnMarkup& own = {},
                                         std::string* reading = nullptr);

}  // namespace lw::github
