// GitHub's own Markdown grammar: cmark-gfm (the parser github.com renders
// comments, reviews and check runs with) with the extensions GitHub enables.
// What loopwright publishes is judged on this tree, never with patterns.
// The adapter owns the C library's memory; nothing here throws.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct cmark_node;

namespace lw::github::md {

// A parsed document. Move-only; frees the tree.
class Tree {
 public:
  // Parses `text` as GitHub does: CommonMark with footnotes and the GFM
  // extensions table, strikethrough, autolink, tagfilter and tasklist.
  static Tree parse(std::string_view text);
  // An empty document, for building a tree node by node.
  static Tree empty();

  Tree(Tree&&) noexcept;
  Tree& operator=(Tree&&) noexcept;
  ~Tree();

  cmark_node* root() const { return root_; }
  // CommonMark text that parses back to this tree (no line wrapping).
  std::string render() const;

 private:
  explicit Tree(cmark_node* root);
  cmark_node* root_ = nullptr;
};

// Every node under `root`, parents before children.
std::vector<cmark_node*> nodesUnder(cmark_node* root);
// The text a reader sees of a node: its literals and its children's,
// concatenated (a link's text, an image's alt text).
std::string plainText(cmark_node* node);
// The node's literal (text, code, HTML) or "".
std::string literalOf(cmark_node* node);
// The node's URL (link, image) or "".
std::string urlOf(cmark_node* node);
// A new TEXT node holding `text` as it is (the renderer escapes it).
cmark_node* newText(std::string_view text);
// Replaces `node` with `replacement` and frees it and its children.
void replaceWith(cmark_node* node, cmark_node* replacement);
// Moves the children of `node` in front of it, then frees it.
void unwrap(cmark_node* node);
// Whether the node is a table cell or inside one.
bool insideTableCell(cmark_node* node);

}  // namespace lw::github::md
