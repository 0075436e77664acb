#include "github/neutralise_markdown.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace lw::github::neutral {

namespace {

// Brackets further apart than this are not taken as one link: the '[' is
// then escaped, which is safe whatever GitHub would have matched.
constexpr std::size_t kMaxLinkSpan = 1000;
// Link text inside link text inside…: past this depth every '[' is escaped.
constexpr int kMaxLinkDepth = 4;

bool unsafeCodePoint(char32_t cp) {
  if (cp == '\t' || cp == '\n') return false;
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return true;
  // Bidi controls (Trojan Source, CVE-2021-42574) and invisible separators.
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF;
}

// Length of the valid UTF-8 sequence at `i` and its code point; 0 if invalid.
std::size_t decodeAt(std::string_view t, std::size_t i, char32_t& cp) {
  const auto c = static_cast<unsigned char>(t[i]);
  std::size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (len == 0 || i + len > t.size()) return 0;
  cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < len; ++k) {
    const auto d = static_cast<unsigned char>(t[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

bool isAsciiAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool isAsciiAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isAsciiPunct(char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0; }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n'; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && lower(s.substr(0, prefix.size())) == prefix;
}

// A backtick run at `i` and the index just past its matching run, or npos
// (CommonMark code spans bind tighter than link brackets).
std::size_t codeSpanEnd(std::string_view t, std::size_t i) {
  std::size_t run = 0;
  while (i + run < t.size() && t[i + run] == '`') ++run;
  for (std::size_t j = i + run; j < t.size();) {
    if (t[j] != '`') {
      ++j;
      continue;
    }
    std::size_t r = 0;
    while (j + r < t.size() && t[j + r] == '`') ++r;
    if (r == run) return j + r;
    j += r;
  }
  return std::string_view::npos;
}

// Whether the line after the newline at `i` is blank (or the text ends).
bool blankLineAfter(std::string_view t, std::size_t i) {
  const std::size_t next = t.find_first_not_of(" \t", i + 1);
  return next == std::string_view::npos || t[next] == '\n';
}

// The index of the bracket closing the one at `open`, or npos: escapes and
// code spans skipped, no blank line crossed, at most kMaxLinkSpan away.
std::size_t matchingClose(std::string_view t, std::size_t open, char opener, char closer) {
  int depth = 0;
  const std::size_t end = std::min(t.size(), open + kMaxLinkSpan);
  for (std::size_t i = open; i < end; ++i) {
    const char c = t[i];
    if (c == '\\') {
      ++i;
    } else if (c == '`' && opener == '[') {
      const std::size_t past = codeSpanEnd(t, i);
      if (past == std::string_view::npos) {
        while (i + 1 < end && t[i + 1] == '`') ++i;
      } else {
        i = past - 1;
      }
    } else if (c == '\n' && blankLineAfter(t, i)) {
      return std::string_view::npos;  // a blank line ends any inline construct
    } else if (c == opener) {
      ++depth;
    } else if (c == closer && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

std::string_view firstToken(std::string_view inside) {
  const std::size_t b = inside.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return {};
  const std::size_t e = inside.find_first_of(" \t\n", b);
  return inside.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
}

// Character references GitHub would decode into text it then scans for
// mentions (&#64;user): only the four that cannot become markup are kept.
bool keptEntityAt(std::string_view t, std::size_t i) {
  for (std::string_view e : {"&lt;", "&gt;", "&amp;", "&quot;"})
    if (t.substr(i, e.size()) == e) return true;
  return false;
}

// "owner/repo#12" with the '#' at `i`: a reference GitHub links and records
// in the referenced issue's timeline, in whatever repository it names.
bool crossReference(std::string_view t, std::size_t i) {
  if (i == 0 || i + 1 >= t.size() || !std::isdigit(static_cast<unsigned char>(t[i + 1]))) return false;
  std::size_t b = i > 0 && t[i - 1] == '\\' ? i - 1 : i;  // "o/r\#1" renders as "o/r#1"
  const std::size_t end = b;
  bool slash = false;
  while (b > 0 && (isAsciiAlnum(t[b - 1]) || std::string_view("_.-/").find(t[b - 1]) != std::string_view::npos)) {
    slash = slash || t[b - 1] == '/';
    --b;
  }
  return slash && b < end && t[end - 1] != '/';
}

class MarkupWriter {
 public:
  MarkupWriter(const LinkScope& scope, int depth) : scope_(scope), depth_(depth) {}

  std::string run(std::string_view t) {
    for (std::size_t i = 0; i < t.size();) i = step(t, i);
    return std::move(out_);
  }

 private:
  std::string nested(std::string_view t) const { return MarkupWriter(scope_, depth_ + 1).run(t); }

  // Writes what starts at `i`; returns where to go on.
  std::size_t step(std::string_view t, std::size_t i) {
    const char c = t[i];
    if (c == '\\') return escapeSequence(t, i);
    if (c == '<') {
      // Only '<' that can open a tag, comment, declaration or autolink.
      const bool opens = i + 1 < t.size() && (isAsciiAlpha(t[i + 1]) || t[i + 1] == '/' || t[i + 1] == '!' || t[i + 1] == '?');
      out_ += opens ? "&lt;" : "<";
      return i + 1;
    }
    if (c == '&') {
      const bool reference = i + 1 < t.size() && (t[i + 1] == '#' || isAsciiAlpha(t[i + 1]));
      out_ += reference && !keptEntityAt(t, i) ? "&amp;" : "&";
      return i + 1;
    }
    if (c == '@') return mention(t, i);
    if (c == '#' && crossReference(t, i)) {
      out_ += kWordJoiner;  // "owner/repo#12" would put a backlink in that repository's issue
      out_ += '#';
      return i + 1;
    }
    if (c == '!' && i + 1 < t.size() && t[i + 1] == '[') return image(t, i);
    if (c == '[') return bracket(t, i);
    // "www." first: "www.http://x" would otherwise pass as one odd scheme
    // and GitHub would still autolink the www. part.
    if ((c == 'w' || c == 'W') && (i == 0 || !isAsciiAlnum(t[i - 1])) && startsWithNoCase(t.substr(i), "www.")) {
      out_ += t.substr(i, 3);
      out_ += kWordJoiner;
      return i + 3;
    }
    if (c == ':' && t.substr(i + 1, 2) == "//") return schemeSeparator(t, i);
    out_ += c;
    return i + 1;
  }

  std::size_t escapeSequence(std::string_view t, std::size_t i) {
    if (i + 1 >= t.size() || !isAsciiPunct(t[i + 1])) {
      out_ += '\\';
      return i + 1;
    }
    const char next = t[i + 1];
    if (next == '<') {
      out_ += "&lt;";
      return i + 2;
    }
    if (next == '@' || next == '&' || next == ':' || next == '#') {
      // GitHub's mention, reference and autolink filters run on the rendered
      // text, where "\@" is already "@": neutralised on its own.
      out_ += '\\';
      return i + 1;
    }
    out_ += t.substr(i, 2);
    return i + 2;
  }

  // "@name" (or "@org/team") notifies; a word joiner after '@' keeps the text
  // and the look. Inside a word ("a@b.org") it also keeps GitHub from
  // autolinking the address as a mailto: link, which leaves the repository.
  std::size_t mention(std::string_view t, std::size_t i) {
    out_ += '@';
    const bool followed = i + 1 < t.size() && !isSpace(t[i + 1]) && t.substr(i + 1, kWordJoiner.size()) != kWordJoiner;
    if (followed) out_ += kWordJoiner;
    return i + 1;
  }

  std::size_t image(std::string_view t, std::size_t i) {
    const std::size_t close = matchingClose(t, i + 1, '[', ']');
    if (close != std::string_view::npos && close + 1 < t.size() && t[close + 1] == '(') {
      const std::size_t paren = matchingClose(t, close + 1, '(', ')');
      if (paren != std::string_view::npos) {
        const std::string alt = nested(t.substr(i + 2, close - i - 2));
        out_ += alt.empty() ? "(image removed)" : "(image removed: " + alt + ")";
        return paren + 1;
      }
    }
    return i + 1;  // the '!' is dropped: what follows is at most a link
  }

  std::size_t bracket(std::string_view t, std::size_t i) {
    const std::size_t close = depth_ < kMaxLinkDepth ? matchingClose(t, i, '[', ']') : std::string_view::npos;
    const char after = close != std::string_view::npos && close + 1 < t.size() ? t[close + 1] : '\0';
    // '[label]:' could define a reference link to anywhere: no definition is
    // allowed, so no reference link resolves.
    if (close == std::string_view::npos || after == ':') return escapedBracket(i);
    if (after != '(') {
      out_ += '[';
      return i + 1;
    }
    const std::size_t paren = matchingClose(t, close + 1, '(', ')');
    if (paren == std::string_view::npos) return escapedBracket(i);
    const std::string_view text = t.substr(i + 1, close - i - 1);
    const std::string_view inside = t.substr(close + 2, paren - close - 2);
    const std::string_view dest = firstToken(inside);
    if (destinationInRepository(dest, scope_)) {
      // The destination has no '<' (or it would not be kept); a title might,
      // and is escaped so that the raw body never holds "<!--".
      // Appended piece by piece: GCC 12's -Wrestrict misfires on
      // "literal" + std::string at -O3.
      out_ += '[';
      out_ += nested(text);
      out_ += "](";
      for (char ch : inside) {
        if (ch == '<') out_ += "&lt;";
        else out_ += ch;
      }
      out_ += ')';
    } else {
      // Off the repository: the text and where it pointed, as plain text.
      out_ += nested(text);
      out_ += " (";
      out_ += nested(dest);
      out_ += ')';
    }
    return paren + 1;
  }

  std::size_t escapedBracket(std::size_t i) {
    out_ += "\\[";
    return i + 1;
  }

  // "scheme://" anywhere (GitHub autolinks http, https and ftp URLs): a word
  // joiner after the ':' unless the URL stays in the repository.
  std::size_t schemeSeparator(std::string_view t, std::size_t colon) {
    std::size_t start = colon;
    while (start > 0 && (isAsciiAlnum(t[start - 1]) || t[start - 1] == '+' || t[start - 1] == '.' || t[start - 1] == '-'))
      --start;
    std::size_t end = colon;
    while (end < t.size() && !isSpace(t[end]) && t[end] != '<') ++end;
    out_ += ':';
    if (!destinationInRepository(t.substr(start, end - start), scope_)) out_ += kWordJoiner;
    return colon + 1;
  }

  const LinkScope& scope_;
  int depth_;
  std::string out_;
};

bool encodesSeparator(std::string_view dest) {
  for (std::size_t p = dest.find('%'); p != std::string_view::npos; p = dest.find('%', p + 1)) {
    const std::string hex = lower(dest.substr(p + 1, 2));
    if (hex == "2e" || hex == "2f" || hex == "5c" || hex == "40") return true;
  }
  return false;
}

bool underRepository(std::string_view path, const LinkScope& scope) {
  const std::string prefix = lower("/" + scope.repo.owner + "/" + scope.repo.name);
  if (scope.repo.owner.empty() || !startsWithNoCase(path, prefix)) return false;
  return path.size() == prefix.size() || std::string_view("/?#").find(path[prefix.size()]) != std::string_view::npos;
}

// Passes of the Markdown pass before every '[' is escaped instead (each
// pass only removes links and images or adds escapes, so two or three do).
constexpr int kMaxPasses = 8;

std::string withFencesClosed(std::string text) {
  const std::string fence = closingFenceFor(text);
  if (fence.empty()) return text;
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text + fence + "\n";
}

// The last resort: no '[' opens anything (an even run of backslashes before
// it escapes only itself).
std::string escapeEveryBracket(const std::string& text) {
  std::string out;
  std::size_t backslashes = 0;
  for (char c : text) {
    if (c == '[' && backslashes % 2 == 0) out += '\\';
    backslashes = c == '\\' ? backslashes + 1 : 0;
    out += c;
  }
  return out;
}

}  // namespace

std::string removeUnsafeCharacters(std::string_view text, bool keepNewlines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t len = decodeAt(text, i, cp);
    if (len == 0) {
      ++i;  // not UTF-8: GitHub's JSON would refuse it
      continue;
    }
    if (cp == '\n' && !keepNewlines) out += ' ';
    else if (!unsafeCodePoint(cp)) out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

std::string neutraliseMarkup(std::string_view text, const LinkScope& scope, bool closeFences) {
  // GitHub parses what is posted, not what the step wrote, and a pass can
  // regroup code spans (an image's address may hold a backtick), so a '['
  // judged plain in the step's text might open a link in the result. The
  // pass is repeated until the result is its own neutral form.
  std::string current(text);
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    if (closeFences) current = withFencesClosed(std::move(current));
    std::string next = MarkupWriter(scope, 0).run(current);
    if (next == current) return next;
    current = std::move(next);
  }
  return escapeEveryBracket(current);
}

std::string boundedMarkup(std::string_view text, const LinkScope& scope, bool closeFences, std::size_t maxBytes,
                          std::string_view note) {
  std::string whole = neutraliseMarkup(text, scope, closeFences);
  if (whole.size() <= maxBytes) return whole;
  // The longest prefix of the step's text whose neutral form fits with the
  // note: cutting the result instead could leave a '[' whose ']' was cut.
  const std::size_t room = maxBytes > note.size() ? maxBytes - note.size() : 0;
  std::size_t length = std::min(text.size(), room);
  for (;;) {
    while (length > 0 && (static_cast<unsigned char>(text[length]) & 0xC0) == 0x80) --length;
    std::string cut = neutraliseMarkup(text.substr(0, length), scope, closeFences);
    if (cut.size() <= room || length == 0) return cut.size() <= room ? cut + std::string(note) : std::string(note.substr(0, maxBytes));
    // The result grows with the text roughly in proportion: scale down.
    length = std::min(length - 1, static_cast<std::size_t>(static_cast<double>(length) * static_cast<double>(room) /
                                                           static_cast<double>(cut.size())));
  }
}

bool destinationInRepository(std::string_view dest, const LinkScope& scope) {
  if (dest.empty() || dest.find_first_of("\\&@<> \t\n") != std::string_view::npos) return false;
  if (dest.find("..") != std::string_view::npos || encodesSeparator(dest)) return false;
  if (dest.substr(0, 2) == "//") return false;  // protocol-relative: another host
  const std::size_t colon = dest.find(':');
  const std::size_t separator = dest.find_first_of("/?#");
  if (colon != std::string_view::npos && (separator == std::string_view::npos || colon < separator)) {
    const std::string scheme = lower(dest.substr(0, colon));
    if ((scheme != "https" && scheme != "http") || dest.substr(colon + 1, 2) != "//") return false;
    const std::string_view rest = dest.substr(colon + 3);
    const std::size_t hostEnd = std::min(rest.find_first_of("/?#"), rest.size());
    if (lower(rest.substr(0, hostEnd)) != lower(scope.webHost)) return false;
    return underRepository(rest.substr(hostEnd), scope);
  }
  // Relative: resolved against the page, which is in the repository.
  return dest[0] != '/' || underRepository(dest, scope);
}

std::string closingFenceFor(std::string_view text) {
  std::string open;  // the opening run while a fence is open
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == std::string_view::npos || indent > 3) continue;
    const char c = line[indent];
    if (c != '`' && c != '~') continue;
    const std::size_t run = line.find_first_not_of(c, indent) == std::string_view::npos
                                ? line.size() - indent
                                : line.find_first_not_of(c, indent) - indent;
    if (run < 3) continue;
    const std::string_view rest = line.substr(indent + run);
    if (open.empty()) {
      if (c == '`' && rest.find('`') != std::string_view::npos) continue;  // inline code, not a fence
      open.assign(run, c);
    } else if (c == open[0] && run >= open.size() && rest.find_first_not_of(" \t") == std::string_view::npos) {
      open.clear();
    }
  }
  return open;
}

}  // namespace lw::github::neutral
