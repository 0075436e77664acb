#include "github/publish/markers.h"

#include <cmark-gfm.h>

#include <algorithm>
#include <cctype>

#include "core/hex.h"
#include "github/markdown/markdown_tree.h"

namespace lw::github {

namespace {

constexpr std::string_view kOpen = "<!-- loopwright:";
constexpr std::string_view kClose = " -->";

// What the review wraps a resolved comment's old text in.
constexpr std::string_view kDetailsOpen = "<details><summary>Earlier comment</summary>";
constexpr std::string_view kDetailsClose = "</details>";

std::vector<std::string_view> fieldsOf(std::string_view inner) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t colon = inner.find(':', start);
    out.push_back(inner.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (colon == std::string_view::npos) return out;
    start = colon + 1;
  }
}

bool isHex(std::string_view s, std::initializer_list<std::size_t> sizes) {
  return std::find(sizes.begin(), sizes.end(), s.size()) != sizes.end() && isLowerHex(s);
}

bool isIdChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }

// "finding:<fp>[:<origin>:<severity>:<step>]" and "resolved:<fp>[:<origin>]".
std::optional<FindingMark> findingFrom(const std::vector<std::string_view>& f, std::string_view literal) {
  if (f.size() < 2 || !isHex(f[1], {16})) return std::nullopt;
  FindingMark m{std::string(f[1]), Origin::Artifact, std::nullopt, "", std::string(literal)};
  if (f.size() == 2) return m;  // 1.0
  auto origin = originNamed(f[2]);
  if (!origin) return std::nullopt;
  m.origin = *origin;
  if (f[0] == "resolved") return f.size() == 3 ? std::optional(m) : std::nullopt;
  if (f.size() != 5 || !(m.severity = parseSeverity(f[3])) || !std::all_of(f[4].begin(), f[4].end(), isIdChar))
    return std::nullopt;
  m.step = std::string(f[4]);
  return m;
}

// "review:<sha>:<id>[:<origin>]".
std::optional<ReviewMark> reviewFrom(const std::vector<std::string_view>& f) {
  if (f.size() < 3 || f.size() > 4 || !isHex(f[1], {40, 64}) || f[2].empty() ||
      !std::all_of(f[2].begin(), f[2].end(), isIdChar))
    return std::nullopt;
  ReviewMark m{std::string(f[1]), std::string(f[2]), Origin::Artifact};
  if (f.size() == 4) {
    auto origin = originNamed(f[3]);
    if (!origin) return std::nullopt;
    m.origin = *origin;
  }
  return m;
}

// The marker's fields when `literal` is exactly one marker.
std::optional<std::vector<std::string_view>> markerFields(std::string_view literal) {
  if (literal.substr(0, kOpen.size()) != kOpen || literal.size() < kOpen.size() + kClose.size() ||
      literal.substr(literal.size() - kClose.size()) != kClose)
    return std::nullopt;
  const std::string_view inner = literal.substr(kOpen.size(), literal.size() - kOpen.size() - kClose.size());
  if (inner.find_first_of(" \n<>") != std::string_view::npos) return std::nullopt;
  return fieldsOf(inner);
}

void addMarker(std::string_view literal, BodyMarkers& out) {
  auto f = markerFields(literal);
  if (!f) return;
  const std::string_view kind = (*f)[0];
  if (kind == "finding") {
    if (auto m = findingFrom(*f, literal)) out.findings.push_back(std::move(*m));
  } else if (kind == "resolved") {
    if (auto m = findingFrom(*f, literal)) out.resolved.push_back(std::move(*m));
  } else if (kind == "review") {
    if (!out.review) out.review = reviewFrom(*f);
  } else if (kind == "partial" && f->size() == 1) {
    out.partial = true;
  } else if (kind == "triage" && f->size() == 1) {
    out.triage = true;
  }
}

std::string_view trimmed(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

// The non-blank lines of `text`, trimmed.
std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (std::string_view line = trimmed(text.substr(start, end - start)); !line.empty()) out.push_back(line);
    start = end + 1;
  }
  return out;
}

}  // namespace

std::string_view toString(Origin o) { return o == Origin::Trusted ? "trusted" : "artifact"; }

std::optional<Origin> originNamed(std::string_view name) {
  if (name == "trusted") return Origin::Trusted;
  if (name == "artifact") return Origin::Artifact;
  return std::nullopt;
}

std::string findingMarker(const std::string& fp, Origin origin, Severity severity, const std::string& step) {
  std::string name;
  for (char c : step) name += isIdChar(c) ? c : '_';
  return std::string(kOpen) + "finding:" + fp + ":" + std::string(toString(origin)) + ":" +
         std::string(lw::toString(severity)) + ":" + name + std::string(kClose);
}

std::string resolvedMarker(const std::string& fp, Origin origin) {
  return std::string(kOpen) + "resolved:" + fp + ":" + std::string(toString(origin)) + std::string(kClose);
}

std::string reviewMarker(const std::string& headSha, const std::string& publicationId, Origin origin) {
  return std::string(kOpen) + "review:" + headSha + ":" + publicationId + ":" + std::string(toString(origin)) +
         std::string(kClose);
}

std::string partialReviewMarker() { return std::string(kOpen) + "partial" + std::string(kClose); }

std::string triageMarker() { return std::string(kOpen) + "triage" + std::string(kClose); }

BodyMarkers markersIn(std::string_view body) {
  BodyMarkers out;
  md::Tree tree = md::Tree::parse(body);
  for (cmark_node* n : md::nodesUnder(tree.root())) {
    const cmark_node_type t = cmark_node_get_type(n);
    if (t != CMARK_NODE_HTML_BLOCK && t != CMARK_NODE_HTML_INLINE) continue;
    // An HTML block runs to the line that ends its comment: one marker a line.
    const std::string literal = md::literalOf(n);
    for (std::string_view line : linesOf(literal)) addMarker(line, out);
  }
  return out;
}

std::vector<std::string> openFindingsIn(std::string_view body, Origin atLeast) {
  const BodyMarkers m = markersIn(body);
  std::vector<std::string> out;
  if (!m.resolved.empty()) return out;
  for (const FindingMark& f : m.findings)
    if (f.origin >= atLeast) out.push_back(f.fingerprint);
  return out;
}

bool isPublisherMarkup(std::string_view literal) {
  bool any = false;
  for (std::string_view line : linesOf(literal)) {
    BodyMarkers m;
    addMarker(line, m);
    const bool marker = !m.findings.empty() || !m.resolved.empty() || m.review || m.partial || m.triage;
    if (!marker && line != kDetailsOpen && line != kDetailsClose) return false;
    any = true;
  }
  return any;
}

}  // namespace lw::github
