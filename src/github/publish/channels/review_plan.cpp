#include "github/publish/channels/review_plan.h"

#include <algorithm>

#include <boost/json.hpp>

#include "github/markdown/code_fence.h"
#include "github/publish/channels/resolve_plan.h"
#include "github/publish/channels/suggestion_plan.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"
#include "github/publish/publication.h"

namespace lw::github {

namespace json = boost::json;

namespace {

int rank(Severity s) { return s == Severity::Error ? 0 : s == Severity::Warning ? 1 : 2; }

std::string where(const Finding& f) {
  if (f.path.empty()) return "(whole change)";
  std::string w = f.path;
  if (f.line > 0) {
    w += ":" + std::to_string(f.line);
    if (f.endLine > f.line) w += "-" + std::to_string(f.endLine);
  }
  return w;
}

std::string heading(const Finding& f) {
  std::string h = "**" + std::string(toString(f.severity)) + "**";
  if (!f.ruleId.empty()) h += " `" + f.ruleId + "`";
  if (!f.step.empty()) h += " (" + f.step + ")";
  return h;
}

// Every non-blank line two spaces in: the content of a "- " list item.
std::string indentedInItem(const std::string& text) {
  std::string out;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    if (end > start) out += "  " + text.substr(start, end - start);
    out += '\n';
    start = end + 1;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// The parts of an author's proposed change (github/publish/channels/suggestion_plan.h) ride
// in the plan as findings; the body's count names them apart.
bool isChangePart(const Finding& f) { return f.ruleId == kSuggestionRule || f.ruleId == kPatchRule; }

// "3 new findings: 2 inline, 1 below" and/or "a proposed change in 2 parts:
// 1 suggestion inline, 1 below", over the plan's new items.
std::string countLine(const ReviewPlan& plan) {
  std::size_t inl[2] = {0, 0}, below[2] = {0, 0};  // [0] findings, [1] change parts
  for (const InlineComment& c : plan.inlineComments) ++inl[isChangePart(c.finding)];
  for (const auto* list : {&plan.outsideDiff, &plan.overflow})
    for (const BodyFinding& b : *list) ++below[isChangePart(b.finding)];
  std::string line;
  const std::size_t findings = inl[0] + below[0], parts = inl[1] + below[1];
  if (findings || !parts)
    line = std::to_string(findings) + " new finding" + (findings == 1 ? "" : "s") + ": " + std::to_string(inl[0]) +
           " inline, " + std::to_string(below[0]) + " below";
  if (parts)
    line += std::string(line.empty() ? "A" : "; a") + " proposed change in " + std::to_string(parts) + " part" +
            (parts == 1 ? "" : "s") + ": " + std::to_string(inl[1]) + " suggestion" + (inl[1] == 1 ? "" : "s") +
            " inline, " + std::to_string(below[1]) + " below";
  return line;
}

// The message is a block of its own in the item: inert Markdown is inert
// where a block may start, and text in front of it on its line could make
// its first block part of a paragraph and its next line something else.
std::string listItem(const BodyFinding& b, Origin origin) {
  return "- " + heading(b.finding) + " `" + where(b.finding) + "` " +
         findingMarker(b.fingerprint, origin, b.finding.severity, b.finding.step) + "\n\n" +
         indentedInItem(b.finding.message) + "\n\n";
}

}  // namespace

std::vector<Finding> rankFindings(std::vector<Finding> findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (rank(a.severity) != rank(b.severity)) return rank(a.severity) < rank(b.severity);
    if (a.path != b.path) return a.path < b.path;
    return a.line < b.line;
  });
  return findings;
}

ReviewPlan planReview(const std::vector<Finding>& findings, const diff::DiffIndex* diff,
                      const std::set<std::string>& posted, const std::vector<OwnComment>& own, int maxInline,
                      const ResolveRule& resolve) {
  ReviewPlan plan;
  plan.origin = resolve.origin;
  std::set<std::string> current;
  for (const Finding& f : rankFindings(findings)) {
    std::string fp = fingerprint(f);
    if (!current.insert(fp).second) continue;  // the same finding twice in one run
    if (posted.count(fp)) {
      ++plan.alreadyPosted;
      continue;
    }
    std::optional<diff::CommentPlacement> place;
    if (diff && !f.path.empty() && f.line > 0) place = diff->place(f.path, f.line, f.endLine);
    if (!place) {
      plan.outsideDiff.push_back({f, fp});
    } else if (static_cast<int>(plan.inlineComments.size()) < std::max(0, maxInline)) {
      plan.inlineComments.push_back({f, fp, *place, f.path, plan.origin});
    } else {
      plan.overflow.push_back({f, fp});
    }
  }
  plan.resolve = planResolve(own, current, resolve);
  return plan;
}

std::string inlineCommentBody(const InlineComment& c) {
  const Finding& f = c.finding;
  std::string body = heading(f) + "\n\n" + f.message + "\n";
  if (c.placement.clipped) {
    body += "\n_Reported for lines " + std::to_string(f.line) + "-" + std::to_string(f.endLine) + "; only line " +
            std::to_string(c.placement.line) + " is in this hunk of the diff._\n";
  }
  if (f.suggestion && !c.placement.clipped) {
    std::string fence = codeFenceFor(*f.suggestion);  // a suggestion containing ``` cannot close it early
    std::string s = *f.suggestion;
    if (!s.empty() && s.back() != '\n') s += '\n';
    body += "\n" + fence + "suggestion\n" + s + fence + "\n";
  }
  body += findingMarker(c.fingerprint, c.origin, f.severity, f.step);
  return body;
}

std::string reviewBody(const ReviewPlan& plan, const std::string& headSha, const std::string& publicationId,
                       int maxInline) {
  std::string head = reviewMarker(headSha, publicationId, plan.origin) + "\n### loopwright review\n\n";
  head += countLine(plan);
  if (plan.alreadyPosted) head += "; " + std::to_string(plan.alreadyPosted) + " already posted earlier";
  head += ".\n";

  std::string sections;
  std::size_t omitted = 0;
  const std::size_t reserve = 400;  // room for the truncation note
  auto section = [&](const std::string& title, const std::vector<BodyFinding>& items) {
    if (items.empty()) return;
    std::string t = "\n#### " + title + "\n\n";
    if (head.size() + sections.size() + t.size() + reserve > kMaxBodyChars) {
      omitted += items.size();
      return;
    }
    sections += t;
    for (const BodyFinding& b : items) {
      std::string item = listItem(b, plan.origin);
      if (head.size() + sections.size() + item.size() + reserve > kMaxBodyChars) {
        ++omitted;
        continue;
      }
      sections += item;
    }
  };
  section("Not on a line of this diff", plan.outsideDiff);
  section("Over the limit of " + std::to_string(maxInline) + " inline comments", plan.overflow);
  std::string body = head + sections;
  if (omitted) {
    body += "\n_" + std::to_string(omitted) +
            " more finding(s) did not fit in a review body (65,536 characters); they are listed "
            "in the check runs and the workflow step summary._\n";
  }
  return body;
}

std::string reviewEvent(const ReviewPlan& plan, ReviewMode mode, FailOn failOn) {
  if (mode != ReviewMode::RequestChanges) return "COMMENT";
  auto fails = [&](const Finding& f) { return failsAt(f.severity, failOn); };
  for (const auto& c : plan.inlineComments)
    if (fails(c.finding)) return "REQUEST_CHANGES";
  for (const auto& b : plan.outsideDiff)
    if (fails(b.finding)) return "REQUEST_CHANGES";
  for (const auto& b : plan.overflow)
    if (fails(b.finding)) return "REQUEST_CHANGES";
  return "COMMENT";
}

json::value reviewPayload(const std::vector<InlineComment>& comments, const std::string& headSha,
                          const std::string& body, const std::string& event) {
  json::array cs;
  for (const InlineComment& c : comments) {
    json::object o{{"path", c.path}, {"body", inlineCommentBody(c)}, {"line", c.placement.line}, {"side", "RIGHT"}};
    if (c.placement.startLine > 0) {
      o["start_line"] = c.placement.startLine;
      o["start_side"] = "RIGHT";
    }
    cs.push_back(std::move(o));
  }
  json::object payload{{"commit_id", headSha}, {"body", body}, {"comments", std::move(cs)}};
  if (!event.empty()) payload["event"] = event;
  return payload;
}

std::string resolvedCommentBody(const std::string& oldBody, const std::string& headSha) {
  // The old finding marker is dropped, so the finding counts as posted no
  // more: if it comes back, it is posted again.
  std::string old = oldBody;
  const std::vector<FindingMark> marks = markersIn(oldBody).findings;
  for (const FindingMark& m : marks)
    for (auto pos = old.find(m.literal); pos != std::string::npos; pos = old.find(m.literal))
      old.erase(pos, m.literal.size());
  std::string body = "**Resolved**: loopwright no longer reports this at " + headSha.substr(0, 12) + ".\n\n";
  body += "<details><summary>Earlier comment</summary>\n\n" + old + "\n\n</details>\n";
  for (const FindingMark& m : marks) body += resolvedMarker(m.fingerprint, m.origin) + "\n";
  return body;
}

}  // namespace lw::github
