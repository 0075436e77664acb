#include "github/publish/channels/suggestion_plan.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/fnv1a.h"
#include "core/hex.h"
#include "core/step_label.h"
#include "github/markdown/code_fence.h"
#include "github/markdown/inert_markdown.h"
#include "github/markdown/neutralise.h"
#include "github/markdown/text_clean.h"
#include "github/publish/channels/patch_sections.h"
#include "github/publish/fingerprint.h"

namespace lw::github {

namespace {

// Why part of a change is not a suggestion, shown in the body.
struct Leftover {
  std::string patch;
  std::vector<std::string> reasons;
};

std::string shortHash(std::string_view text) { return hexNumber(fnv1a32(text), 8); }

std::string stepName(const ProposedChange& c) { return neutraliseIdentifier(stepLabel(c.stage, c.step), 200); }

// The replaced head lines [first, last] and their replacement, of the span
// from the hunk's first to its last changed line; a pure insertion is
// anchored on the line before it (or after it, at the top of a file), which
// the replacement repeats.
struct Replacement {
  int first = 0;
  int last = 0;
  std::string text;
};

std::optional<Replacement> replacementOf(const diff::DiffHunk& h) {
  const auto& ls = h.lines;
  auto changed = [](const diff::DiffLine& l) { return l.kind != ' '; };
  auto b = std::find_if(ls.begin(), ls.end(), changed);
  if (b == ls.end()) return std::nullopt;
  auto e = std::find_if(ls.rbegin(), ls.rend(), changed).base();
  Replacement r;
  for (auto it = b; it != e; ++it) {
    if (it->kind != '+') {
      if (!r.first) r.first = it->oldLine;
      r.last = it->oldLine;
    }
    if (it->kind != '-') r.text += it->text + "\n";
  }
  if (r.first) return r;
  if (b != ls.begin()) {
    const diff::DiffLine& anchor = *(b - 1);
    return Replacement{anchor.oldLine, anchor.oldLine, anchor.text + "\n" + r.text};
  }
  if (e != ls.end()) return Replacement{e->oldLine, e->oldLine, r.text + e->text + "\n"};
  return std::nullopt;
}

// The reason a file can carry no suggestion at all, or "".
std::string fileRefusal(const PatchFile& f) {
  const std::string path = neutraliseIdentifier(f.newPath.empty() ? f.oldPath : f.newPath, 300);
  if (f.binary) return "`" + path + "` is a binary file";
  if (f.added || f.oldPath.empty()) return "`" + path + "` is a new file";
  if (f.deleted || f.newPath.empty()) return "`" + path + "` is deleted";
  if (f.renamedOrCopied || f.oldPath != f.newPath) return "`" + path + "` is renamed or copied";
  if (f.modeChanged) return "`" + path + "` changes its file mode";
  if (f.hunks.empty()) return "`" + path + "` has no text hunks";
  return "";
}

// The suggestion for one hunk, or why there is none.
std::optional<Finding> suggestionFor(const PatchHunk& h, const std::string& path, const diff::DiffIndex& prDiff,
                                     std::string& why) {
  auto refuse = [&](const char* reason) -> std::optional<Finding> {
    why = "`" + neutraliseIdentifier(path, 300) + "` at line " + std::to_string(h.parsed.oldStart) + " " + reason;
    return std::nullopt;
  };
  if (h.changesFinalNewline) return refuse("changes the newline at the end of the file");
  if (h.hasCarriageReturn) return refuse("has CRLF line endings");
  auto r = replacementOf(h.parsed);
  if (!r) return refuse("has no line to anchor on");
  auto placed = prDiff.place(path, r->first, r->last);
  if (!placed || placed->clipped) return refuse("replaces lines outside one hunk of the pull request's diff");
  // A suggestion is applied verbatim: text the neutraliser would have to
  // change (hidden characters, marker syntax, over its size bound) is not one.
  auto safe = neutraliseSuggestion(r->text, verify::SecretScanner{});
  if (!safe || *safe != r->text) return refuse("has text a suggestion cannot carry verbatim");
  Finding f;
  f.path = path;
  f.line = r->first;
  f.endLine = r->last > r->first ? r->last : 0;
  f.suggestion = r->text;
  return f;
}

void planFile(const ProposedChange& c, const PatchFile& f, const diff::DiffIndex& prDiff, SuggestionPlan& plan,
              Leftover& rest) {
  if (std::string refused = fileRefusal(f); !refused.empty()) {
    rest.patch += f.text();
    rest.reasons.push_back(refused);
    return;
  }
  std::string restOfFile;
  for (const PatchHunk& h : f.hunks) {
    std::string why;
    if (auto s = suggestionFor(h, f.newPath, prDiff, why)) {
      s->step = c.step;
      s->ruleId = kSuggestionRule;
      s->severity = Severity::Notice;
      s->message =
          "Suggested change from author step `" + stepName(c) + "` (patch `" + shortHash(*s->suggestion) + "`).";
      plan.pieces.push_back({std::move(*s), f.header + h.text, c.fullPatchAt});
    } else {
      restOfFile += h.text;
      rest.reasons.push_back(why);
    }
  }
  if (!restOfFile.empty()) rest.patch += f.header + restOfFile;
}

PatchPiece restPiece(const ProposedChange& c, const Leftover& rest) {
  Finding f;
  f.step = c.step;
  f.ruleId = kPatchRule;
  f.severity = Severity::Notice;
  f.message = "Part of the change from author step `" + stepName(c) + "` (patch `" + shortHash(rest.patch) +
              "`) cannot be a suggestion, so it is in the patch below:";
  constexpr std::size_t kShownReasons = 10;
  for (std::size_t i = 0; i < rest.reasons.size() && i < kShownReasons; ++i) f.message += "\n- " + rest.reasons[i];
  if (rest.reasons.size() > kShownReasons)
    f.message += "\n- and " + std::to_string(rest.reasons.size() - kShownReasons) + " more";
  return {std::move(f), rest.patch, c.fullPatchAt};
}

void planChange(const ProposedChange& c, const diff::DiffIndex* prDiff, const std::string& headSha,
                SuggestionPlan& plan) {
  Leftover rest;
  auto files = splitPatch(c.patch);
  if (!prDiff) {
    rest = {c.patch, {"the pull request's diff is not available"}};
  } else if (c.baseCommit != headSha) {
    rest = {c.patch,
            {"it was made on commit " + c.baseCommit.substr(0, 12) + ", and the pull request's head is " +
             headSha.substr(0, 12)}};
  } else if (!files) {
    rest = {c.patch, {files.error().message}};
  } else {
    for (const PatchFile& f : *files) planFile(c, f, *prDiff, plan, rest);
  }
  if (!rest.patch.empty()) plan.pieces.push_back(restPiece(c, rest));
}

// Patch text as the body shows it: inside a fence nothing is Markdown, but
// hidden characters would still hide code and "<!--" could forge a marker.
std::string shownPatch(std::string_view patch) {
  std::string clean = removeUnsafeCharacters(patch, true);
  const std::string breakMarker = "<!-" + std::string(kWordJoiner) + "-";
  for (auto at = clean.find("<!--"); at != std::string::npos; at = clean.find("<!--", at + breakMarker.size()))
    clean.replace(at, 4, breakMarker);
  return clean;
}

// The longest prefix of whole lines of `text` of at most `max` bytes.
std::size_t lineCut(std::string_view text, std::size_t max) {
  if (text.size() <= max) return text.size();
  auto nl = text.rfind('\n', max == 0 ? 0 : max - 1);
  return nl == std::string_view::npos ? 0 : nl + 1;
}

std::string diffBlock(const std::string& patch, const std::string& fullPatchAt, std::size_t maxChars) {
  const std::string fence = codeFenceFor(patch);
  std::string note;
  std::size_t frame = fence.size() * 2 + 16;
  std::size_t noteRoom = 200 + fullPatchAt.size();
  if (maxChars < frame + noteRoom) return "";
  std::size_t keep = lineCut(patch, maxChars - frame - noteRoom);
  std::string block = "\n" + fence + "diff\n" + patch.substr(0, keep) + fence + "\n";
  if (keep < patch.size())
    note = "_" + std::to_string(patch.size() - keep) + " bytes of this patch are left out here; the whole patch is " +
           fullPatchAt + "._\n";
  else
    note = "_The whole patch is " + fullPatchAt + "._\n";
  return block + note;
}

}  // namespace

SuggestionPlan planSuggestions(const std::vector<ProposedChange>& changes, const diff::DiffIndex* prDiff,
                               const std::string& headSha) {
  SuggestionPlan plan;
  for (const ProposedChange& c : changes) planChange(c, prDiff, headSha, plan);
  return plan;
}

std::vector<Finding> findingsOf(const SuggestionPlan& plan) {
  std::vector<Finding> out;
  for (const PatchPiece& p : plan.pieces) out.push_back(p.finding);
  return out;
}

std::string patchAppendix(const SuggestionPlan& plan, const std::set<std::string>& inBody, std::size_t maxChars) {
  // One block per change (named by where its whole patch is), in plan order.
  std::vector<std::pair<std::string, std::string>> blocks;
  for (const PatchPiece& p : plan.pieces) {
    if (!inBody.count(fingerprint(p.finding))) continue;
    if (blocks.empty() || blocks.back().first != p.fullPatchAt) blocks.emplace_back(p.fullPatchAt, "");
    blocks.back().second += shownPatch(p.patch);
  }
  if (blocks.empty()) return "";
  std::string out = "\n#### Proposed change, as a patch\n";
  for (const auto& [at, patch] : blocks) {
    std::string where = at.empty()
                            ? std::string("change.patch in the run's out dir")
                            : "`" + neutraliseIdentifier(at, 500) + "` (in the run's out dir, kept as its artifact)";
    std::string block = diffBlock(patch, where, maxChars > out.size() ? maxChars - out.size() : 0);
    if (block.empty()) break;
    out += block;
  }
  return out;
}

}  // namespace lw::github
