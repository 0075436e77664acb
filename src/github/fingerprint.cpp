#include "github/fingerprint.h"

#include <cstdint>
#include <cstdio>

namespace lw::github {

namespace {

constexpr std::string_view kFindingPrefix = "<!-- loopwright:finding:";

void mix(std::uint64_t& h, std::string_view s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;  // FNV-1a 64-bit prime
  }
  // A separator that cannot occur inside the fields keeps ("ab","c") != ("a","bc").
  h ^= 0xff;
  h *= 1099511628211ULL;
}

}  // namespace

std::string fingerprint(const Finding& f) {
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a 64-bit offset basis
  mix(h, f.step);
  mix(h, f.ruleId);
  mix(h, f.path);
  mix(h, std::to_string(f.line));
  mix(h, std::to_string(f.endLine > f.line ? f.endLine : f.line));
  mix(h, f.message);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string findingMarker(const std::string& fp) { return std::string(kFindingPrefix) + fp + " -->"; }

std::string resolvedMarker(const std::string& fp) { return "<!-- loopwright:resolved:" + fp + " -->"; }

std::string reviewMarker(const std::string& headSha, const std::string& publicationId) {
  return "<!-- loopwright:review:" + headSha + ":" + publicationId + " -->";
}

std::optional<ReviewMarker> parseReviewMarker(std::string_view body) {
  constexpr std::string_view kPrefix = "<!-- loopwright:review:";
  auto start = body.find(kPrefix);
  if (start == std::string_view::npos) return std::nullopt;
  std::string_view rest = body.substr(start + kPrefix.size());
  auto end = rest.find(" -->");
  if (end == std::string_view::npos) return std::nullopt;
  rest = rest.substr(0, end);
  auto colon = rest.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view sha = rest.substr(0, colon);
  if ((sha.size() != 40 && sha.size() != 64) || sha.find_first_not_of("0123456789abcdef") != std::string_view::npos)
    return std::nullopt;
  return ReviewMarker{std::string(sha), std::string(rest.substr(colon + 1))};
}

std::string partialReviewMarker() { return "<!-- loopwright:partial -->"; }

bool hasPartialReviewMarker(std::string_view body) { return body.find(partialReviewMarker()) != std::string_view::npos; }

std::string triageMarker() { return "<!-- loopwright:triage -->"; }

std::vector<std::string> findingMarkersIn(std::string_view body) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while ((pos = body.find(kFindingPrefix, pos)) != std::string_view::npos) {
    pos += kFindingPrefix.size();
    std::string_view rest = body.substr(pos, 16);
    if (rest.size() == 16 && rest.find_first_not_of("0123456789abcdef") == std::string_view::npos &&
        body.substr(pos + 16, 4) == " -->")
      out.emplace_back(rest);
  }
  return out;
}

bool hasResolvedMarker(std::string_view body) {
  return body.find("<!-- loopwright:resolved:") != std::string_view::npos;
}

}  // namespace lw::github
