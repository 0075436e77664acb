// Text a step wrote, or a fork's artifact carried, is untrusted: a model, a
// repository's script or a fork wrote it. Before anything is published,
// every string of the request passes one boundary (makeInert,
// github/publish/inert_request.h): characters a
// reader cannot see are removed, the run's secrets are masked, and the text
// is rebuilt from GitHub's own parse of it (github/markdown/inert_markdown.h) or
// shown as plain text, as its field requires; lengths are bounded. The
// channels take only an InertRequest, which nothing else can make. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/finding.h"
#include "core/result.h"
#include "github/markdown/repo_links.h"
#include "verify/secrets/secret_scanner.h"

namespace lw::github {

inline constexpr std::size_t kMaxMessageBytes = 4000;
inline constexpr std::size_t kMaxSuggestionBytes = 20000;
inline constexpr std::size_t kMaxCommentBytes = 60000;
inline constexpr std::size_t kMaxReasonBytes = 1000;
inline constexpr std::size_t kMaxLabelBytes = 50;
inline constexpr std::size_t kMaxRuleIdBytes = 128;
inline constexpr std::size_t kMaxNameBytes = 100;

// What a text that still showed a secret once made safe is replaced with.
inline constexpr std::string_view kWithheld = "(withheld: the text showed a secret)";

// Untrusted Markdown made safe to publish (github/markdown/inert_markdown.h), the
// run's secrets masked before it is rebuilt and looked for again in what a
// reader would see of the result; at most `maxBytes` (a prefix of the text,
// cut on a character boundary, with a "(truncated)" note).
std::string neutraliseMarkdown(std::string_view text, const LinkScope& scope, std::size_t maxBytes,
                               const verify::SecretScanner& secrets);

// Text shown as it is, on one line, never read as Markdown: duplicate
// reasons, guardrail events, coverage reasons.
std::string neutraliseLine(std::string_view text, std::size_t maxBytes, const verify::SecretScanner& secrets);

// A suggestion is code inside a fence the review builds longer than any
// backtick run in it, so it is not Markdown: only unsafe characters are
// removed. nullopt when it must not be posted: it is longer than
// kMaxSuggestionBytes (a cut suggestion is wrong code), holds loopwright's
// marker syntax or shows a secret; `why` then says which.
std::optional<std::string> neutraliseSuggestion(std::string_view text, const verify::SecretScanner& secrets,
                                                std::string* why = nullptr);

// An identifier shown inside a code span (rule id, path): unsafe characters
// removed, backticks, '<' and line breaks replaced by '_', bounded. Table
// cells escape '|' themselves (github/markdown/markdown_table.h).
std::string neutraliseIdentifier(std::string_view text, std::size_t maxBytes);

// A name of the taskpack's grammar shown anywhere (stage, step, backend,
// capability, publication id): characters other than A-Z, a-z, 0-9, '.',
// '_' and '-' become '_', and so does the '.' of "www.", at most
// kMaxNameBytes. Inert anywhere, markers and URLs included.
std::string neutraliseName(std::string_view text);

// A label name, or nullopt when it cannot be one safely (empty after
// cleaning, a backtick or '<', longer than kMaxLabelBytes).
std::optional<std::string> neutraliseLabel(std::string_view text);

// 40 (SHA-1) or 64 (SHA-256) lowercase hex digits.
bool isCommitId(std::string_view text);

}  // namespace lw::github
