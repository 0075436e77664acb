#include "github/markdown/inert_check.h"

#include <cmark-gfm.h>

#include <cctype>

#include "github/markdown/markdown_tree.h"

namespace lw::github {

namespace {

bool isAsciiAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// GitHub's mention filter: '@' then a login or org/team name.
std::string liveMention(const std::string& text) {
  for (std::size_t p = text.find('@'); p != std::string::npos; p = text.find('@', p + 1))
    if (p + 1 < text.size() && isAsciiAlnum(text[p + 1])) return text.substr(p, 40);
  return {};
}

// "owner/repo#12": a reference GitHub links and records in that
// repository's issue timeline.
std::string liveCrossReference(const std::string& text) {
  for (std::size_t p = text.find('#'); p != std::string::npos; p = text.find('#', p + 1)) {
    if (p == 0 || p + 1 >= text.size() || !std::isdigit(static_cast<unsigned char>(text[p + 1]))) continue;
    std::size_t b = p;
    bool slash = false;
    while (b > 0 &&
           (isAsciiAlnum(text[b - 1]) || std::string_view("_.-/").find(text[b - 1]) != std::string_view::npos)) {
      slash = slash || text[b - 1] == '/';
      --b;
    }
    if (slash) return text.substr(b, p - b + 2);
  }
  return {};
}

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  const std::size_t b = s.find_first_not_of(" \t\n");
  return b == std::string::npos ? std::string() : s.substr(b);
}

void judge(cmark_node* n, const LinkScope& scope, const OwnMarkup& own, std::vector<std::string>& out) {
  switch (cmark_node_get_type(n)) {
    case CMARK_NODE_IMAGE: out.push_back("image " + md::urlOf(n)); break;
    case CMARK_NODE_LINK:
      if (!resolvesInRepository(md::urlOf(n), scope)) out.push_back("link " + md::urlOf(n));
      break;
    case CMARK_NODE_HTML_BLOCK:
    case CMARK_NODE_HTML_INLINE: {
      const std::string html = trimmed(md::literalOf(n));
      if (!own || !own(html)) out.push_back("raw HTML " + html.substr(0, 80));
      break;
    }
    case CMARK_NODE_TEXT: {
      const std::string text = md::literalOf(n);
      if (std::string m = liveMention(text); !m.empty()) out.push_back("mention " + m);
      if (std::string r = liveCrossReference(text); !r.empty()) out.push_back("reference " + r);
      break;
    }
    default: break;
  }
}

}  // namespace

std::vector<std::string> inertViolations(std::string_view body, const LinkScope& scope, const OwnMarkup& own,
                                         std::string* reading) {
  md::Tree tree = md::Tree::parse(body);
  cmark_consolidate_text_nodes(tree.root());
  std::vector<std::string> out;
  std::string links;
  for (cmark_node* n : md::nodesUnder(tree.root())) {
    judge(n, scope, own, out);
    if (!reading) continue;
    const cmark_node_type t = cmark_node_get_type(n);
    if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
      *reading += ' ';
    else
      *reading += md::literalOf(n);
    if (t == CMARK_NODE_LINK) links += "\n" + md::urlOf(n);
  }
  if (reading) *reading += links;
  return out;
}

}  // namespace lw::github
