#include "verify/secrets/secret_scanner.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <unordered_set>

#include "verify/secrets/secret_encodings.h"

namespace lw::verify {
namespace {

struct Range {
  std::size_t start, end;
  std::string kind;
};

bool isAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool isWordChar(char c) { return isAlnum(c) || c == '_'; }
bool isB64Url(char c) { return isAlnum(c) || c == '-' || c == '_'; }

std::size_t spanWhile(std::string_view t, std::size_t i, bool (*pred)(char)) {
  while (i < t.size() && pred(t[i])) ++i;
  return i;
}

bool boundaryBefore(std::string_view t, std::size_t i) { return i == 0 || !isWordChar(t[i - 1]); }

using ByteCounts = std::array<std::size_t, 256>;

double entropyPerChar(const ByteCounts& counts, std::size_t total) {
  double h = 0;
  for (std::size_t n : counts) {
    if (n == 0) continue;
    double p = static_cast<double>(n) / static_cast<double>(total);
    h -= p * std::log2(p);
  }
  return h;
}

// Every detector below reads each byte of the text a bounded number of times:
// the text is a step's output, and a step that repeats a prefix ("sk-sk-sk-…")
// must not make the scan quadratic and stall the run after the step ended.

// prefix + at least `minBody` characters of `body`.
void prefixed(std::string_view t, std::string_view prefix, std::size_t minBody, bool (*body)(char), const char* kind,
              std::vector<Range>& out) {
  std::size_t at = t.find(prefix);
  while (at != std::string_view::npos) {
    if (!boundaryBefore(t, at)) {
      at = t.find(prefix, at + 1);
      continue;
    }
    std::size_t end = spanWhile(t, at + prefix.size(), body);
    if (end - at - prefix.size() >= minBody) out.push_back({at, end, kind});
    // A later occurrence that lies wholly inside this body ends at the same
    // `end`: covered by this range when it matched, shorter when it did not.
    at = t.find(prefix, std::max(at + 1, end > prefix.size() ? end - prefix.size() + 1 : 0));
  }
}

// The next occurrence of `needle` at or after `from`, remembered in `cached`
// so that a run of BEGIN lines does not search the rest of the text each time.
std::size_t nextAtOrAfter(std::string_view t, std::string_view needle, std::size_t from,
                          std::optional<std::size_t>& cached) {
  if (!cached || (*cached != std::string_view::npos && *cached < from)) cached = t.find(needle, from);
  return *cached;
}

void privateKeys(std::string_view t, std::vector<Range>& out) {
  constexpr std::string_view kLabelEnd = "PRIVATE KEY-----";
  std::optional<std::size_t> eolCache, labelCache, endCache;
  std::size_t at = t.find("-----BEGIN ");
  while (at != std::string_view::npos) {
    // The BEGIN line must hold "PRIVATE KEY-----".
    std::size_t eol = nextAtOrAfter(t, "\n", at, eolCache);
    std::size_t label = nextAtOrAfter(t, kLabelEnd, at, labelCache);
    if (label == std::string_view::npos || (eol != std::string_view::npos && label + kLabelEnd.size() > eol)) {
      at = t.find("-----BEGIN ", at + 1);
      continue;
    }
    std::size_t end = nextAtOrAfter(t, "-----END ", at, endCache);
    if (end == std::string_view::npos) {
      end = t.size();  // a truncated key is still a key
    } else {
      std::size_t close = t.find("-----", end + 9);
      end = close == std::string_view::npos ? t.size() : close + 5;
    }
    out.push_back({at, end, "private-key"});
    // A BEGIN wholly inside this range finds the same END: covered. One that
    // straddles its end (the closing dashes were its own) is looked at.
    at = t.find("-----BEGIN ", std::max(at + 1, end >= 10 ? end - 10 : 0));
  }
}

void awsKeys(std::string_view t, std::vector<Range>& out) {
  for (std::string_view p : {"AKIA", "ASIA"}) {
    for (std::size_t at = t.find(p); at != std::string_view::npos; at = t.find(p, at + 1)) {
      if (!boundaryBefore(t, at) || at + 20 > t.size()) continue;
      bool ok = std::all_of(t.begin() + static_cast<long>(at) + 4, t.begin() + static_cast<long>(at) + 20, [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c));
      });
      if (ok && (at + 20 == t.size() || !isAlnum(t[at + 20]))) out.push_back({at, at + 20, "aws-access-key"});
    }
  }
}

// header.payload.signature, the header starting with "eyJ" ('{"').
void jwts(std::string_view t, std::vector<Range>& out) {
  std::size_t at = t.find("eyJ");
  while (at != std::string_view::npos) {
    if (!boundaryBefore(t, at)) {
      at = t.find("eyJ", at + 1);
      continue;
    }
    std::size_t h = spanWhile(t, at, isB64Url);
    if (h - at >= 10 && h < t.size() && t[h] == '.') {
      std::size_t p = spanWhile(t, h + 1, isB64Url);
      if (p - h - 1 >= 10 && p < t.size() && t[p] == '.') out.push_back({at, spanWhile(t, p + 1, isB64Url), "jwt"});
    }
    // A later "eyJ" in the same run has a shorter header and the same rest:
    // covered by this one or failing as it did. The next run is looked at on
    // its own (it may start a token that reaches further than this one).
    at = t.find("eyJ", h);
  }
}

// NAME_KEY=value, token: value, "api_secret": "value" … with a value that
// looks random enough to be a credential rather than a word.
void assignments(std::string_view t, std::vector<Range>& out) {
  static constexpr std::array kSuffixes = {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PWD"};
  // Where each value ends, found once from the right: a value may hold more
  // NAME_KEY= assignments, each of which would otherwise scan it again.
  auto endsValue = [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == ',' || c == ';';
  };
  std::vector<std::size_t> valueEnd;
  // Byte counts of [countedFrom, countedTo): assignments nested in one value
  // share its end, so each later one only takes its head off the counts.
  ByteCounts counts{};
  std::size_t countedFrom = 0, countedTo = std::string_view::npos;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!isWordChar(t[i]) || (i > 0 && isWordChar(t[i - 1]))) continue;
    std::size_t nameEnd = spanWhile(t, i, isWordChar);
    std::string upper(t.substr(i, nameEnd - i));
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    bool named = std::any_of(kSuffixes.begin(), kSuffixes.end(), [&](const char* s) { return upper.ends_with(s); });
    std::size_t j = nameEnd;
    if (j < t.size() && (t[j] == '"' || t[j] == '\'')) ++j;
    while (j < t.size() && t[j] == ' ') ++j;
    if (!named || j >= t.size() || (t[j] != '=' && t[j] != ':')) {
      i = nameEnd;
      continue;
    }
    ++j;
    while (j < t.size() && (t[j] == ' ' || t[j] == '"' || t[j] == '\'')) ++j;
    if (valueEnd.empty()) {
      valueEnd.resize(t.size() + 1);
      valueEnd[t.size()] = t.size();
      for (std::size_t k = t.size(); k-- > 0;) valueEnd[k] = endsValue(t[k]) ? k : valueEnd[k + 1];
    }
    std::size_t v = valueEnd[j];
    std::string_view value = t.substr(j, v - j);
    bool reference = value.starts_with("$") || value.starts_with("${{") || value.starts_with("<");
    if (value.size() >= 12 && !reference) {
      if (countedTo != v || countedFrom > j) {
        counts.fill(0);
        for (unsigned char c : value) ++counts[c];
      } else {
        for (std::size_t k = countedFrom; k < j; ++k) --counts[static_cast<unsigned char>(t[k])];
      }
      countedFrom = j;
      countedTo = v;
      if (entropyPerChar(counts, value.size()) >= 3.0) out.push_back({j, v, "generic-secret-assignment"});
    }
    i = nameEnd;
  }
}

void knownShapes(std::string_view t, std::vector<Range>& out) {
  auto alnum = +[](char c) { return isAlnum(c); };
  auto patChar = +[](char c) { return isWordChar(c); };
  auto slackChar = +[](char c) { return isAlnum(c) || c == '-'; };
  auto keyChar = +[](char c) { return isB64Url(c); };
  auto urlChar = +[](char c) { return isAlnum(c) || c == '/' || c == '_' || c == '-'; };
  for (std::string_view p : {"ghp_", "gho_", "ghs_", "ghu_", "ghr_"}) prefixed(t, p, 36, alnum, "github-token", out);
  prefixed(t, "github_pat_", 22, patChar, "github-token", out);
  for (std::string_view p : {"xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xapp-"})
    prefixed(t, p, 10, slackChar, "slack-token", out);
  prefixed(t, "https://hooks.slack.com/services/", 20, urlChar, "slack-webhook", out);
  prefixed(t, "sk-ant-", 20, keyChar, "anthropic-key", out);
  std::vector<Range> openai;
  prefixed(t, "sk-", 20, keyChar, "openai-key", openai);
  for (Range& r : openai)
    if (t.substr(r.start, 7) != "sk-ant-") out.push_back(std::move(r));
  awsKeys(t, out);
  privateKeys(t, out);
  jwts(t, out);
  assignments(t, out);
}

}  // namespace

SecretScanner::SecretScanner(std::vector<std::string> exactSecrets) {
  for (std::string& s : exactSecrets) {
    if (s.size() < kMinExactSecret) continue;
    for (auto& [bytes, kind] : encodedForms(s)) needles_.push_back({std::move(bytes), std::move(kind)});
    needles_.push_back({std::move(s), "run-secret"});
  }
  // Longest first, so that an encoding containing another wins the merge.
  std::sort(needles_.begin(), needles_.end(),
            [](const Needle& a, const Needle& b) { return a.bytes.size() > b.bytes.size(); });
}

ScanResult SecretScanner::scanAndMask(std::string_view t) const {
  std::vector<Range> ranges;
  for (const Needle& n : needles_) {
    // Overlapping occurrences ("aaaa" in "aaaaaaa") extend one range.
    std::size_t first = ranges.size();
    for (std::size_t at = t.find(n.bytes); at != std::string_view::npos; at = t.find(n.bytes, at + 1)) {
      if (ranges.size() > first && at < ranges.back().end) {
        ranges.back().end = at + n.bytes.size();
      } else {
        ranges.push_back({at, at + n.bytes.size(), n.kind});
      }
    }
  }
  knownShapes(t, ranges);
  std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.start < b.start; });
  std::vector<Range> merged;
  for (Range& r : ranges) {
    if (!merged.empty() && r.start < merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(std::move(r));
    }
  }
  ScanResult out;
  std::unordered_set<std::string_view> unsafeSeen;  // views into t
  std::size_t pos = 0;
  int line = 1;
  std::size_t lineStart = 0;
  for (const Range& r : merged) {
    for (; pos < r.start; ++pos) {
      out.masked.push_back(t[pos]);
      if (t[pos] == '\n') {
        ++line;
        lineStart = pos + 1;
      }
    }
    out.hits.push_back({r.kind, r.start, r.end - r.start, line, static_cast<int>(r.start - lineStart) + 1});
    std::string_view value = t.substr(r.start, r.end - r.start);
    out.masked += "***";
    for (std::size_t a = 0; a < value.size();) {
      std::size_t nl = value.find('\n', a);
      std::string_view piece = value.substr(a, nl == std::string_view::npos ? value.npos : nl - a);
      if (!piece.empty() && piece.back() == '\r') piece.remove_suffix(1);
      if (!piece.empty() && unsafeSeen.insert(piece).second) out.valuesToMaskUnsafe.emplace_back(piece);
      if (nl == std::string_view::npos) break;
      a = nl + 1;
    }
    for (; pos < r.end; ++pos)
      if (t[pos] == '\n') {
        ++line;
        lineStart = pos + 1;
      }
  }
  out.masked.append(t.substr(pos));
  return out;
}

std::string addMaskCommand(std::string_view value) {
  std::string out = "::add-mask::";
  for (char c : value) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out.push_back(c);
  }
  return out;
}

Finding secretLeakFinding(const SecretHit& hit, const std::string& step, const std::string& path) {
  Finding f;
  f.step = step;
  f.ruleId = "SECRET_LEAK";
  f.severity = Severity::Error;
  f.message = "A secret (" + hit.kind + ") appeared in `" + path + "` at line " + std::to_string(hit.line) +
              ", column " + std::to_string(hit.column) + "; it was masked before publication. Rotate it.";
  return f;
}

std::vector<SecretHit> maskFindings(const SecretScanner& scanner, std::vector<Finding>& findings) {
  std::vector<SecretHit> all;
  auto apply = [&](std::string& s) {
    ScanResult r = scanner.scanAndMask(s);
    if (r.clean()) return;
    s = std::move(r.masked);
    all.insert(all.end(), r.hits.begin(), r.hits.end());
  };
  for (Finding& f : findings) {
    apply(f.ruleId);
    apply(f.message);
    apply(f.path);
    if (f.suggestion) apply(*f.suggestion);
  }
  return all;
}

}  // namespace lw::verify
