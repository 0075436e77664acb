#include "github/markdown/markdown_tree.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <mutex>

namespace lw::github::md {

namespace {

// The extensions github.com enables for comments (GitHub Flavored Markdown
// spec, "GFM enables the tagfilter extension" and the others by name).
constexpr const char* kGitHubExtensions[] = {"table", "strikethrough", "autolink", "tagfilter", "tasklist"};

void registerExtensionsOnce() {
  static std::once_flag once;
  std::call_once(once, [] { cmark_gfm_core_extensions_ensure_registered(); });
}

std::string taken(char* text) {
  std::string out = text ? text : "";
  std::free(text);  // cmark's default allocator is malloc
  return out;
}

}  // namespace

Tree::Tree(cmark_node* root) : root_(root) {}
Tree::Tree(Tree&& other) noexcept : root_(other.root_) { other.root_ = nullptr; }
Tree& Tree::operator=(Tree&& other) noexcept {
  if (this != &other) {
    if (root_) cmark_node_free(root_);
    root_ = other.root_;
    other.root_ = nullptr;
  }
  return *this;
}
Tree::~Tree() {
  if (root_) cmark_node_free(root_);
}

Tree Tree::parse(std::string_view text) {
  registerExtensionsOnce();
  cmark_parser* parser = cmark_parser_new(CMARK_OPT_FOOTNOTES);
  for (const char* name : kGitHubExtensions)
    if (cmark_syntax_extension* ext = cmark_find_syntax_extension(name))
      cmark_parser_attach_syntax_extension(parser, ext);
  cmark_parser_feed(parser, text.data(), text.size());
  cmark_node* root = cmark_parser_finish(parser);
  cmark_parser_free(parser);
  return Tree(root);
}

Tree Tree::empty() { return Tree(cmark_node_new(CMARK_NODE_DOCUMENT)); }

std::string Tree::render() const { return taken(cmark_render_commonmark(root_, CMARK_OPT_DEFAULT, 0)); }

std::vector<cmark_node*> nodesUnder(cmark_node* root) {
  std::vector<cmark_node*> out;
  cmark_iter* it = cmark_iter_new(root);
  for (cmark_event_type ev = cmark_iter_next(it); ev != CMARK_EVENT_DONE; ev = cmark_iter_next(it))
    if (ev == CMARK_EVENT_ENTER) out.push_back(cmark_iter_get_node(it));
  cmark_iter_free(it);
  return out;
}

std::string literalOf(cmark_node* node) {
  const char* l = cmark_node_get_literal(node);
  return l ? l : "";
}

std::string urlOf(cmark_node* node) {
  const char* u = cmark_node_get_url(node);
  return u ? u : "";
}

std::string plainText(cmark_node* node) {
  std::string out;
  for (cmark_node* n : nodesUnder(node)) {
    const cmark_node_type t = cmark_node_get_type(n);
    if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
      out += ' ';
    else
      out += literalOf(n);
  }
  return out;
}

cmark_node* newText(std::string_view text) {
  cmark_node* n = cmark_node_new(CMARK_NODE_TEXT);
  cmark_node_set_literal(n, std::string(text).c_str());
  return n;
}

void replaceWith(cmark_node* node, cmark_node* replacement) {
  cmark_node_replace(node, replacement);
  cmark_node_free(node);
}

void unwrap(cmark_node* node) {
  while (cmark_node* child = cmark_node_first_child(node)) cmark_node_insert_before(node, child);
  cmark_node_free(node);
}

bool insideTableCell(cmark_node* node) {
  for (cmark_node* n = node; n; n = cmark_node_parent(n))
    if (const char* t = cmark_node_get_type_string(n); t && std::string_view(t) == "table_cell") return true;
  return false;
}

}  // namespace lw::github::md
