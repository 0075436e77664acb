#include "agents/reproduce/repro_extract.h"

#include <cmark-gfm.h>

#include <algorithm>
#include <sstream>

#include "core/ascii.h"
#include "core/github_reads.h"
#include "core/hex.h"
#include "github/markdown/markdown_tree.h"

namespace lw::agents::reproduce {

namespace md = github::md;

namespace {

constexpr std::size_t kMaxErrorBytes = 200;
constexpr std::size_t kMinErrorChars = 3;

std::string trimmed(const std::string& s) { return std::string(asciiTrimmed(s)); }

bool namedIn(const std::string& heading, const std::vector<std::string>& names) {
  const std::string h = asciiLowered(trimmed(heading));
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return asciiLowered(trimmed(n)) == h; });
}

bool isCommitId(const std::string& s) { return s.size() >= 7 && s.size() <= 40 && isLowerHex(s); }

// The last word of the text just before `node` in its paragraph, lowered.
std::string wordBefore(cmark_node* node) {
  cmark_node* prev = cmark_node_previous(node);
  if (prev == nullptr || cmark_node_get_type(prev) != CMARK_NODE_TEXT) return {};
  const std::string text = trimmed(md::literalOf(prev));
  const std::size_t space = text.find_last_of(" \t\n");
  return asciiLowered(space == std::string::npos ? text : text.substr(space + 1));
}

// "branch `name`" or "commit `sha`" (a code span after the word).
std::optional<SourceRef> refOfCodeSpan(cmark_node* code, std::string& refused) {
  const std::string word = wordBefore(code);
  const std::string name = trimmed(md::literalOf(code));
  if (word == "commit" && isCommitId(asciiLowered(name))) return SourceRef{SourceRef::Kind::Commit, asciiLowered(name)};
  if (word != "branch") return std::nullopt;
  if (isSafeBranchName(name)) return SourceRef{SourceRef::Kind::Branch, name};
  refused = "the branch it names is not a plain branch name";
  return std::nullopt;
}

// "commit 1a2b3c4" in running text.
std::optional<SourceRef> refOfText(cmark_node* text) {
  std::istringstream words(md::literalOf(text));
  std::string previous, word;
  while (words >> word) {
    while (!word.empty() && (word.back() == '.' || word.back() == ',' || word.back() == ')')) word.pop_back();
    if (asciiLowered(previous) == "commit" && isCommitId(asciiLowered(word)))
      return SourceRef{SourceRef::Kind::Commit, asciiLowered(word)};
    previous = word;
  }
  return std::nullopt;
}

std::optional<SourceRef> refOf(cmark_node* node, std::string& refused) {
  const cmark_node_type type = cmark_node_get_type(node);
  if (type == CMARK_NODE_CODE) return refOfCodeSpan(node, refused);
  if (type == CMARK_NODE_TEXT) return refOfText(node);
  return std::nullopt;
}

bool isFencedBlock(cmark_node* node) {
  int length = 0, offset = 0;
  char fence = 0;
  return cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK &&
         cmark_node_get_fenced(node, &length, &offset, &fence) != 0;
}

std::string fenceInfo(cmark_node* node) {
  const char* info = cmark_node_get_fence_info(node);
  return info ? info : "";
}

// What one pass over the document found, the field's findings apart from
// the rest of the body's.
struct Found {
  cmark_node* block = nullptr;
  std::optional<SourceRef> ref;
};

struct Scan {
  Found field, body;
  std::string fieldHeading;  // the heading `field` was found under
  std::string refused;
};

void consider(cmark_node* node, Found& found, std::string& refused) {
  if (found.block == nullptr && isFencedBlock(node) && languageOfFence(fenceInfo(node)) &&
      !trimmed(md::literalOf(node)).empty())
    found.block = node;
  if (!found.ref) found.ref = refOf(node, refused);
}

Scan scan(cmark_node* root, const ExtractOptions& options) {
  Scan s;
  std::string heading;
  bool inField = false;
  for (cmark_node* node : md::nodesUnder(root)) {
    if (cmark_node_get_type(node) == CMARK_NODE_HEADING) {
      heading = trimmed(md::plainText(node));
      inField = namedIn(heading, options.fields);
      continue;
    }
    if (inField && !s.field.block && !s.field.ref) s.fieldHeading = heading;
    if (inField) consider(node, s.field, s.refused);
    consider(node, s.body, s.refused);
  }
  return s;
}

// The first non-blank line of `text`, cut to kMaxErrorBytes on a character
// boundary.
std::string firstLine(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    line = trimmed(line);
    if (!line.empty()) return clipUtf8(line, kMaxErrorBytes);
  }
  return {};
}

// The text of a paragraph's first line: its inlines up to the first line
// break (plainText would join the lines).
std::string firstLineOfParagraph(cmark_node* paragraph) {
  std::string text;
  for (cmark_node* child = cmark_node_first_child(paragraph); child != nullptr; child = cmark_node_next(child)) {
    const cmark_node_type type = cmark_node_get_type(child);
    if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) break;
    text += md::plainText(child);
  }
  return firstLine(text);
}

}  // namespace

std::optional<Language> languageOfFence(const std::string& info) {
  const std::string t = trimmed(info);
  const std::string word = asciiLowered(t.substr(0, t.find_first_of(" \t{")));
  if (word == "sh" || word == "shell") return Language::Shell;
  if (word == "bash") return Language::Bash;
  if (word == "python" || word == "py" || word == "python3") return Language::Python;
  if (word == "js" || word == "javascript" || word == "node") return Language::JavaScript;
  return std::nullopt;
}

const char* interpreterOf(Language language) {
  switch (language) {
    case Language::Shell: return "sh";
    case Language::Bash: return "bash";
    case Language::Python: return "python3";
    case Language::JavaScript: return "node";
  }
  return "sh";
}

const char* nameOf(Language language) {
  switch (language) {
    case Language::Shell: return "shell";
    case Language::Bash: return "bash";
    case Language::Python: return "python";
    case Language::JavaScript: return "javascript";
  }
  return "shell";
}

bool isSafeBranchName(const std::string& name) {
  if (name.empty() || name.size() > 100 || name.front() == '-' || name.front() == '/' || name.back() == '/' ||
      name.back() == '.')
    return false;
  if (name.find("..") != std::string::npos || name.find("//") != std::string::npos ||
      name.find("@{") != std::string::npos || name.ends_with(".lock"))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '/' || c == '-';
  });
}

Reproduction findReproduction(const std::string& body, const ExtractOptions& options) {
  Reproduction r;
  if (body.size() > kMaxBodyBytes) {
    r.refused = "the issue body is larger than GitHub allows (" + std::to_string(body.size()) + " bytes)";
    return r;
  }
  md::Tree tree = md::Tree::parse(body);
  const Scan s = scan(tree.root(), options);
  const Found& chosen = s.field.block || s.field.ref ? s.field : s.body;
  if (&chosen == &s.field) r.field = s.fieldHeading;
  r.ref = chosen.ref;
  if (chosen.block != nullptr) {
    std::string code = md::literalOf(chosen.block);
    if (code.size() > kMaxScriptBytes) {
      r.refused = "its reproduction block is " + std::to_string(code.size()) + " bytes; at most " +
                  std::to_string(kMaxScriptBytes) + " are run";
      r.ref.reset();
      return r;
    }
    r.language = languageOfFence(fenceInfo(chosen.block));
    r.script = std::move(code);
  }
  if (!r.language && !r.ref) r.refused = s.refused;
  return r;
}

std::optional<std::string> reportedError(const std::string& body, const ExtractOptions& options) {
  if (body.size() > kMaxBodyBytes) return std::nullopt;
  md::Tree tree = md::Tree::parse(body);
  bool inField = false;
  std::string paragraph;
  for (cmark_node* node : md::nodesUnder(tree.root())) {
    const cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_HEADING) {
      if (inField && !paragraph.empty()) break;
      inField = namedIn(md::plainText(node), options.errorFields);
      continue;
    }
    if (!inField) continue;
    if (type == CMARK_NODE_CODE_BLOCK) {
      std::string line = firstLine(md::literalOf(node));
      if (line.size() >= kMinErrorChars) return line;
    }
    if (type == CMARK_NODE_PARAGRAPH && paragraph.empty()) {
      std::string line = firstLineOfParagraph(node);
      if (line != "_No response_" && line != "No response") paragraph = line;
    }
  }
  if (paragraph.size() >= kMinErrorChars) return paragraph;
  return std::nullopt;
}

}  // namespace lw::agents::reproduce
