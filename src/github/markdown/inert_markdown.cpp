#include "github/markdown/inert_markdown.h"

#include <cmark-gfm.h>

#include <algorithm>
#include <cctype>

#include "core/ascii.h"
#include "github/markdown/inert_check.h"
#include "github/markdown/markdown_tree.h"

namespace lw::github {

namespace {

bool isAsciiAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
// Characters of "owner/repo" before a '#': GitHub links such a reference
// and records it in the other repository's issue timeline.
bool isReferenceChar(char c) { return isAsciiAlnum(c) || c == '_' || c == '.' || c == '-' || c == '/'; }

bool startsWww(std::string_view s, std::size_t i) {
  if (i > 0 && isAsciiAlnum(s[i - 1])) return false;
  if (s.size() < i + 4) return false;
  for (std::size_t k = 0; k < 3; ++k)
    if (std::tolower(static_cast<unsigned char>(s[i + k])) != 'w') return false;
  return s[i + 3] == '.';
}

bool joinerAt(std::string_view s, std::size_t i) { return s.substr(i, kWordJoiner.size()) == kWordJoiner; }

// A fence's info string keeps one word of [A-Za-z0-9_+.#-] (the language);
// `suggestion` would make a finding's message a one-click change on GitHub,
// outside the checks the real suggestion goes through.
std::string safeFenceInfo(std::string_view info) {
  std::string word;
  for (char c : info) {
    if (isBlank(c)) break;
    if (isAsciiAlnum(c) || std::string_view("_+.#-").find(c) != std::string_view::npos) word += c;
  }
  const std::string l = asciiLowered(word);
  // Without an info string cmark renders some blocks indented, which text
  // around them in a list could end; a fence cannot be ended that way.
  return l == "suggestion" || l.empty() ? "text" : word;
}

// HTML shown as code: a word joiner after each '<', invisible, so that the
// text is no tag or comment even where a reader's parser would not see the
// fence (pasted elsewhere, or an older loopwright searching bodies as text).
std::string defangedHtml(std::string html) {
  for (std::size_t p = html.find('<'); p != std::string::npos; p = html.find('<', p + 1))
    html.insert(p + 1, kWordJoiner);
  return html;
}

// An autolink shows its address as its text: nothing to add to it.
bool showsItsAddress(const std::string& text, const std::string& url) {
  return url == text || url == "mailto:" + text || url == "http://" + text || url == "https://" + text;
}

void replaceLink(cmark_node* link, const LinkScope& scope) {
  const std::string url = md::urlOf(link);
  if (resolvesInRepository(url, scope)) {
    cmark_node_set_title(link, "");  // a tooltip is text nobody reviews
    return;
  }
  if (!showsItsAddress(md::plainText(link), url)) cmark_node_insert_after(link, md::newText(" (" + url + ")"));
  md::unwrap(link);
}

cmark_node* codeBlockShowing(const std::string& html) {
  cmark_node* block = cmark_node_new(CMARK_NODE_CODE_BLOCK);
  cmark_node_set_literal(block, html.c_str());
  cmark_node_set_fence_info(block, "html");
  cmark_node_set_fenced(block, 1, 3, 0, '`');
  return block;
}

// One node of the tree made inert; its children were already.
void makeInert(cmark_node* node, const LinkScope& scope) {
  switch (cmark_node_get_type(node)) {
    case CMARK_NODE_IMAGE: {
      const std::string alt = md::plainText(node);
      md::replaceWith(node, md::newText(alt.empty() ? "(image)" : "(image: " + alt + ")"));
      break;
    }
    case CMARK_NODE_LINK: replaceLink(node, scope); break;
    case CMARK_NODE_HTML_BLOCK: md::replaceWith(node, codeBlockShowing(defangedHtml(md::literalOf(node)))); break;
    case CMARK_NODE_HTML_INLINE: md::replaceWith(node, md::newText(md::literalOf(node))); break;
    case CMARK_NODE_CODE_BLOCK: {
      const char* info = cmark_node_get_fence_info(node);
      cmark_node_set_fence_info(node, safeFenceInfo(info ? info : "").c_str());
      break;
    }
    default: break;
  }
}

// Text nodes are joined first: "@" and "octocat" may be two nodes of the
// parse and one word in what GitHub's mention filter reads.
void defuseText(cmark_node* root) {
  cmark_consolidate_text_nodes(root);
  for (cmark_node* n : md::nodesUnder(root))
    if (cmark_node_get_type(n) == CMARK_NODE_TEXT) cmark_node_set_literal(n, defused(md::literalOf(n)).c_str());
}

std::string withoutTrailingNewlines(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace

std::string defused(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '#' && i > 0 && isReferenceChar(s[i - 1]) && i + 1 < s.size() &&
        std::isdigit(static_cast<unsigned char>(s[i + 1])))
      out += kWordJoiner;
    if (startsWww(s, i)) {
      out.append(s.substr(i, 3));
      out += kWordJoiner;
      i += 2;
      continue;
    }
    out += c;
    const bool followed = i + 1 < s.size() && !isBlank(s[i + 1]) && !joinerAt(s, i + 1);
    if ((c == '@' && followed) || (c == ':' && s.substr(i + 1, 2) == "//")) out += kWordJoiner;
  }
  return out;
}

std::string inertPlain(std::string_view text) {
  std::string line(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  md::Tree tree = md::Tree::empty();
  cmark_node* paragraph = cmark_node_new(CMARK_NODE_PARAGRAPH);
  cmark_node_append_child(paragraph, md::newText(defused(line)));
  cmark_node_append_child(tree.root(), paragraph);
  return withoutTrailingNewlines(tree.render());
}

std::string inertOneLine(std::string_view markdown) {
  md::Tree tree = md::Tree::parse(markdown);
  std::string reading;
  for (cmark_node* n : md::nodesUnder(tree.root())) {
    const cmark_node_type t = cmark_node_get_type(n);
    if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING || t == CMARK_NODE_CODE_BLOCK) reading += ' ';
    if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
      reading += ' ';
    else
      reading += md::literalOf(n);
  }
  const std::size_t b = reading.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : inertPlain(reading.substr(b));
}

std::string inertMarkdown(std::string_view text, const LinkScope& scope, std::string* reading) {
  md::Tree tree = md::Tree::parse(text);
  std::vector<cmark_node*> nodes = md::nodesUnder(tree.root());
  // Children before parents: a parent may free its children (an image) or
  // move them (a link), and each is judged once.
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) makeInert(*it, scope);
  defuseText(tree.root());
  std::string out = withoutTrailingNewlines(tree.render());
  if (reading) reading->clear();
  if (inertViolations(out, scope, {}, reading).empty()) return out;
  std::string plain = inertPlain(md::plainText(tree.root()));
  if (reading) *reading = md::plainText(md::Tree::parse(plain).root());
  return plain;
}

}  // namespace lw::github
