// Text a step wrote (finding messages and suggestions, triage comments and
// reasons, labels, rule ids) is untrusted: a model or a repository's script
// wrote it. Before anything is published it is neutralised so that it cannot
// notify people, inject HTML, hide content, forge loopwright's hidden
// markers, show images, link off-site, break out of a suggestion block or
// hide characters; lengths are bounded. Pure. Applying it twice changes
// nothing (the publisher applies it to resumed outbox entries too).
// Why each rule is as it is: the comments in github/neutralise_markdown.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/finding.h"
#include "github/publication.h"

namespace lw::github {

inline constexpr std::size_t kMaxMessageBytes = 4000;
inline constexpr std::size_t kMaxSuggestionBytes = 20000;
inline constexpr std::size_t kMaxCommentBytes = 60000;
inline constexpr std::size_t kMaxReasonBytes = 1000;
inline constexpr std::size_t kMaxLabelBytes = 50;
inline constexpr std::size_t kMaxRuleIdBytes = 128;

// Where links may point: https://<webHost>/<owner>/<repo>… and links
// relative to the page (which stay in the repository).
struct LinkScope {
  std::string webHost = "github.com";
  RepoRef repo;
};

// The web host of an API base URL: https://api.github.com -> github.com,
// https://ghe.example/api/v3 -> ghe.example.
std::string webHostOfApiUrl(std::string_view apiUrl);

// Untrusted Markdown, made safe to publish: control and bidi characters
// removed (invalid UTF-8 dropped), mentions and other repositories' issue
// references defused, HTML and character references escaped, images
// removed, links and bare URLs off the repository turned into plain text,
// link reference definitions disabled, an
// unterminated code fence closed, at most `maxBytes` (cut on a character
// boundary with a "(truncated)" note).
std::string neutraliseMarkdown(std::string_view text, const LinkScope& scope, std::size_t maxBytes);

// The same on one line (newlines become spaces): duplicate reasons, blocker
// lines, guardrail events.
std::string neutraliseLine(std::string_view text, const LinkScope& scope, std::size_t maxBytes);

// A suggestion is code inside a fence the review builds longer than any
// backtick run in it, so it is not Markdown: only unsafe characters are
// removed. nullopt when it must not be posted: it would forge a hidden
// marker, or it is longer than kMaxSuggestionBytes (a cut suggestion is
// wrong code); `why` then says which.
std::optional<std::string> neutraliseSuggestion(std::string_view text, std::string* why = nullptr);

// An identifier shown inside a code span (rule id, path): unsafe characters
// removed, backticks, '<' and line breaks replaced by '_', bounded.
std::string neutraliseIdentifier(std::string_view text, std::size_t maxBytes);

// A label name, or nullopt when it cannot be one safely (empty after
// cleaning, a backtick or '<', longer than kMaxLabelBytes).
std::optional<std::string> neutraliseLabel(std::string_view text);

Finding neutralised(Finding f, const LinkScope& scope);
TriageResult neutralised(TriageResult t, const LinkScope& scope);

// Every untrusted text of the request, in place: findings of every stage,
// triage results, blocker texts and guardrail events of the step table.
void neutraliseRequest(PublicationRequest& request, const LinkScope& scope);

}  // namespace lw::github
