#include "github/markdown/neutralise.h"

#include <algorithm>
#include <cctype>

#include "core/ascii.h"
#include "core/hex.h"
#include "github/markdown/inert_markdown.h"
#include "github/markdown/text_clean.h"

namespace lw::github {

namespace {

// Input past this many times the bound cannot survive the bound anyway;
// cutting it first keeps the Markdown pass linear in what is kept.
std::string_view precut(std::string_view text, std::size_t maxBytes) {
  return text.substr(0, std::min(text.size(), maxBytes * 2 + 64));
}

std::size_t characterBoundary(std::string_view text, std::size_t cut) {
  cut = std::min(cut, text.size());
  while (cut > 0 && cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

std::string withoutJoiners(std::string text) {
  for (std::size_t p = text.find(kWordJoiner); p != std::string::npos; p = text.find(kWordJoiner, p))
    text.erase(p, kWordJoiner.size());
  return text;
}

bool showsSecret(const std::string& reading, const verify::SecretScanner& secrets) {
  return !secrets.scanAndMask(reading).clean();
}

std::string masked(const std::string& text, const verify::SecretScanner& secrets) {
  return secrets.scanAndMask(text).masked;
}

// The longest prefix of `text` whose inert form fits in `maxBytes` with
// `note` after it (cutting the result instead could cut a construct in two).
std::string boundedInert(const std::string& text, const LinkScope& scope, std::size_t maxBytes, std::string_view note,
                         std::string& reading) {
  std::string whole = inertMarkdown(text, scope, &reading);
  if (whole.size() <= maxBytes) return whole;
  const std::size_t room = maxBytes > note.size() ? maxBytes - note.size() : 0;
  std::size_t length = characterBoundary(text, room);
  for (;;) {
    std::string cut = inertMarkdown(std::string_view(text).substr(0, length), scope, &reading);
    if (cut.size() <= room) return cut + std::string(note);
    if (length == 0) {
      reading.clear();
      return std::string(note.substr(0, maxBytes));
    }
    // The result grows with the text roughly in proportion: scale down.
    const auto scaled = static_cast<std::size_t>(static_cast<double>(length) * static_cast<double>(room) /
                                                 static_cast<double>(cut.size()));
    length = characterBoundary(text, std::min(length - 1, scaled));
  }
}

// "<!--" then "loopwright", with any blanks between: the shape of a marker.
bool formsMarker(std::string_view text) {
  const std::string t = asciiLowered(text);
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

std::string neutraliseMarkdown(std::string_view text, const LinkScope& scope, std::size_t maxBytes,
                               const verify::SecretScanner& secrets) {
  const std::string clean = masked(removeUnsafeCharacters(precut(text, maxBytes), true), secrets);
  std::string reading;
  std::string out = boundedInert(clean, scope, maxBytes, "\n\n(truncated)", reading);
  return showsSecret(withoutJoiners(reading), secrets) ? std::string(kWithheld) : out;
}

std::string neutraliseLine(std::string_view text, std::size_t maxBytes, const verify::SecretScanner& secrets) {
  // Plain text reads as it is written: once masked after the cleaning,
  // nothing later can join a secret, so one scan is enough.
  std::string clean = masked(removeUnsafeCharacters(precut(text, maxBytes), false), secrets);
  clean.resize(characterBoundary(clean, maxBytes));
  return inertPlain(clean);
}

std::optional<std::string> neutraliseSuggestion(std::string_view text, const verify::SecretScanner& secrets,
                                                std::string* why) {
  auto refuse = [&](std::string reason) -> std::optional<std::string> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  if (text.size() > kMaxSuggestionBytes)
    return refuse("the suggestion was longer than " + std::to_string(kMaxSuggestionBytes) + " bytes");
  std::string clean = removeUnsafeCharacters(text, true);
  // Markers are read only from HTML, never from a fence; but an older
  // loopwright on the same repository searched bodies for them as text.
  if (formsMarker(clean)) return refuse("the suggestion contained loopwright's hidden-marker syntax");
  // A masked suggestion would be wrong code: it is not offered at all.
  if (showsSecret(clean, secrets)) return refuse("the suggestion showed a secret");
  return clean;
}

std::string neutraliseIdentifier(std::string_view text, std::size_t maxBytes) {
  std::string out = replaceChars(removeUnsafeCharacters(text, false), "`<\n", '_');
  return out.substr(0, characterBoundary(out, maxBytes));
}

std::string neutraliseName(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, kMaxNameBytes)) {
    const bool kept = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    out += kept ? c : '_';
  }
  // "www." is the one autolink these characters can spell; a word joiner
  // would not do, as names also go into markers and URLs.
  const std::string low = asciiLowered(out);
  for (std::size_t p = low.find("www."); p != std::string::npos; p = low.find("www.", p + 1)) out[p + 3] = '_';
  return out;
}

std::optional<std::string> neutraliseLabel(std::string_view text) {
  std::string name = trimmed(removeUnsafeCharacters(text, false));
  if (name.empty() || name.size() > kMaxLabelBytes || name.find_first_of("`<") != std::string::npos)
    return std::nullopt;
  return name;
}

bool isCommitId(std::string_view text) { return (text.size() == 40 || text.size() == 64) && isLowerHex(text); }

}  // namespace lw::github
