#include "github/neutralise.h"

#include <algorithm>
#include <cctype>

#include "github/neutralise_markdown.h"

namespace lw::github {

namespace {

// Input past this many times the bound cannot survive the bound anyway;
// cutting it first keeps the Markdown pass linear in what is kept.
std::string_view precut(std::string_view text, std::size_t maxBytes) {
  return text.substr(0, std::min(text.size(), maxBytes * 2 + 64));
}

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "<!--" then "loopwright", with any blanks between: the shape of every
// hidden marker the publisher searches its own comments for.
bool formsMarker(std::string_view text) {
  const std::string t = lowered(text);
  for (std::size_t p = t.find("<!--"); p != std::string::npos; p = t.find("<!--", p + 1)) {
    const std::size_t word = t.find_first_not_of(" \t\n", p + 4);
    if (word != std::string::npos && t.compare(word, 10, "loopwright") == 0) return true;
  }
  return false;
}

std::string replaceChars(std::string text, std::string_view chars, char with) {
  for (char& c : text)
    if (chars.find(c) != std::string_view::npos) c = with;
  return text;
}

std::string trimmed(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

}  // namespace

std::string webHostOfApiUrl(std::string_view apiUrl) {
  std::size_t start = apiUrl.find("://");
  start = start == std::string_view::npos ? 0 : start + 3;
  std::string_view rest = apiUrl.substr(start);
  std::string host = lowered(rest.substr(0, std::min(rest.find('/'), rest.size())));
  // github.com's API lives on its own host; GHES serves it under /api/v3.
  if (host.rfind("api.", 0) == 0) host.erase(0, 4);
  return host;
}

std::string neutraliseMarkdown(std::string_view text, const LinkScope& scope, std::size_t maxBytes) {
  const std::string clean = neutral::removeUnsafeCharacters(precut(text, maxBytes), true);
  return neutral::boundedMarkup(clean, scope, true, maxBytes, "\n(truncated)");
}

std::string neutraliseLine(std::string_view text, const LinkScope& scope, std::size_t maxBytes) {
  const std::string clean = neutral::removeUnsafeCharacters(precut(text, maxBytes), false);
  return neutral::boundedMarkup(clean, scope, false, maxBytes, " (truncated)");
}

std::optional<std::string> neutraliseSuggestion(std::string_view text, std::string* why) {
  auto refuse = [&](std::string reason) -> std::optional<std::string> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (text.size() > kMaxSuggestionBytes)
    return refuse("the suggestion was longer than " + std::to_string(kMaxSuggestionBytes) + " bytes");
  std::string clean = neutral::removeUnsafeCharacters(text, true);
  if (formsMarker(clean)) return refuse("the suggestion contained loopwright's hidden-marker syntax");
  return clean;
}

std::string neutraliseIdentifier(std::string_view text, std::size_t maxBytes) {
  std::string out = replaceChars(neutral::removeUnsafeCharacters(text, false), "`<\n", '_');
  std::size_t cut = std::min(out.size(), maxBytes);
  while (cut > 0 && cut < out.size() && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
  return out.substr(0, cut);
}

std::optional<std::string> neutraliseLabel(std::string_view text) {
  std::string name = trimmed(neutral::removeUnsafeCharacters(text, false));
  if (name.empty() || name.size() > kMaxLabelBytes || name.find_first_of("`<") != std::string::npos)
    return std::nullopt;
  return name;
}

Finding neutralised(Finding f, const LinkScope& scope) {
  f.ruleId = neutraliseIdentifier(f.ruleId, kMaxRuleIdBytes);
  f.path = neutraliseIdentifier(f.path, 4096);
  std::string note;
  if (f.suggestion) {
    std::string why;
    f.suggestion = neutraliseSuggestion(*f.suggestion, &why);
    if (!f.suggestion) note = "\n\n(" + why + ", so it is not offered.)";
  }
  // The note goes in after the bound so that it is never the part cut off.
  f.message = neutraliseMarkdown(f.message, scope, kMaxMessageBytes - note.size()) + note;
  return f;
}

TriageResult neutralised(TriageResult t, const LinkScope& scope) {
  std::vector<std::string> labels;
  for (const std::string& l : t.labels)
    if (auto safe = neutraliseLabel(l); safe && std::find(labels.begin(), labels.end(), *safe) == labels.end())
      labels.push_back(*safe);
  t.labels = std::move(labels);
  for (TriageResult::Duplicate& d : t.duplicates) d.reason = neutraliseLine(d.reason, scope, kMaxReasonBytes);
  t.comment = neutraliseMarkdown(t.comment, scope, kMaxCommentBytes);
  return t;
}

void neutraliseRequest(PublicationRequest& request, const LinkScope& scope) {
  for (StageResult& stage : request.stages)
    for (Finding& f : stage.findings) f = neutralised(std::move(f), scope);
  for (TriageResult& t : request.triage) t = neutralised(std::move(t), scope);
  for (StepRow& s : request.steps) {
    s.blocker = neutraliseMarkdown(s.blocker, scope, kMaxMessageBytes);
    for (std::string& e : s.guardrailEvents) e = neutraliseLine(e, scope, kMaxReasonBytes);
  }
}

}  // namespace lw::github
