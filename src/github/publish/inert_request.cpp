// makeInert (github/publish/inert_request.h): every string field of a publication
// request through the boundary, as its field is shown. A field added to the
// request and left out here is found by the test that fills every string of
// the request's JSON with hostile text (tests/github/publish/inert_request_test.cpp).
#include <algorithm>

#include "github/publish/inert_request.h"

#include "core/hex.h"

namespace lw::github {

namespace {

class Boundary {
 public:
  Boundary(const LinkScope& scope, const verify::SecretScanner& secrets) : scope_(scope), secrets_(secrets) {}

  std::string markdown(const std::string& text, std::size_t maxBytes) const {
    return neutraliseMarkdown(text, scope_, maxBytes, secrets_);
  }
  std::string line(const std::string& text, std::size_t maxBytes = kMaxReasonBytes) const {
    return neutraliseLine(text, maxBytes, secrets_);
  }
  std::string identifier(const std::string& text, std::size_t maxBytes) const {
    return secrets_.scanAndMask(neutraliseIdentifier(text, maxBytes)).masked;
  }
  std::string name(const std::string& text) const { return neutraliseName(secrets_.scanAndMask(text).masked); }
  void names(std::vector<std::string>& list) const {
    for (std::string& s : list) s = name(s);
  }

  Finding finding(Finding f) const {
    f.step = name(f.step);
    f.ruleId = identifier(f.ruleId, kMaxRuleIdBytes);
    f.path = identifier(f.path, 4096);
    std::string note;
    if (f.suggestion) {
      std::string why;
      f.suggestion = neutraliseSuggestion(*f.suggestion, secrets_, &why);
      if (!f.suggestion) note = "\n\n(" + why + ", so it is not offered.)";
    }
    // The note goes in after the bound so that it is never the part cut off.
    f.message = markdown(f.message, kMaxMessageBytes - note.size()) + note;
    return f;
  }

  TriageResult triage(TriageResult t) const {
    t.step = name(t.step);
    std::vector<std::string> labels;
    for (const std::string& l : t.labels)
      if (auto safe = neutraliseLabel(secrets_.scanAndMask(l).masked);
          safe && std::find(labels.begin(), labels.end(), *safe) == labels.end())
        labels.push_back(*safe);
    t.labels = std::move(labels);
    for (TriageResult::Duplicate& d : t.duplicates) d.reason = line(d.reason);
    t.comment = markdown(t.comment, kMaxCommentBytes);
    return t;
  }

  StepRow step(StepRow s) const {
    s.stage = name(s.stage);
    s.step = name(s.step);
    s.backend = name(s.backend);
    names(s.capabilities);
    for (std::string& e : s.guardrailEvents) e = line(e);
    s.blocker = markdown(s.blocker, kMaxMessageBytes);
    if (s.coverage) {
      for (FileCoverage& f : s.coverage->files) {
        f.path = identifier(f.path, 4096);
        f.reason = line(f.reason);
      }
      s.coverage->reason = line(s.coverage->reason);
      for (DroppedFinding& d : s.coverage->dropped) {
        d.path = identifier(d.path, 4096);
        d.rule = identifier(d.rule, kMaxRuleIdBytes);
        d.reason = line(d.reason);
      }
    }
    return s;
  }

  CarriedFinding carried(CarriedFinding c) const {
    c.step = name(c.step);
    c.path = identifier(c.path, 4096);
    c.stoppedBecause = line(c.stoppedBecause);
    return c;
  }

  ProposedChange change(ProposedChange c) const {
    c.stage = name(c.stage);
    c.step = name(c.step);
    c.fullPatchAt = identifier(c.fullPatchAt, 500);
    return c;  // the patch is code: github/publish/channels/suggestion_plan.cpp cleans what it shows of it
  }

 private:
  const LinkScope& scope_;
  const verify::SecretScanner& secrets_;
};

Error notACommit(const std::string& field, const std::string& value) {
  return makeError(ErrorCode::PublicationFailed,
                   "the publication's " + field + " is malformed: '" + neutraliseIdentifier(value, 80) + "'",
                   "a commit id is 40 (or 64) lowercase hex digits, a fingerprint 16; the request was not written by "
                   "loopwright");
}

bool isFingerprint(std::string_view s) { return s.size() == 16 && isLowerHex(s); }

// The commit ids (and fingerprints) the channels put in URLs, request bodies
// and markers.
std::optional<Error> badCommitId(const PublicationRequest& r) {
  for (const StageResult& s : r.stages)
    for (const CarriedFinding& c : s.carried)
      if (!isFingerprint(c.fingerprint)) return notACommit("carried finding's fingerprint", c.fingerprint);
  if (!r.headSha.empty() && !isCommitId(r.headSha)) return notACommit("head commit", r.headSha);
  for (const ProposedChange& c : r.changes)
    if (!isCommitId(c.baseCommit)) return notACommit("change's base commit", c.baseCommit);
  for (const StepRow& s : r.steps)
    if (s.coverage) {
      if (!s.coverage->head.empty() && !isCommitId(s.coverage->head))
        return notACommit("coverage head", s.coverage->head);
      if (!s.coverage->incrementalFrom.empty() && !isCommitId(s.coverage->incrementalFrom))
        return notACommit("coverage's earlier head", s.coverage->incrementalFrom);
    }
  return std::nullopt;
}

}  // namespace

Result<InertRequest> makeInert(PublicationRequest request, const LinkScope& scope,
                               const verify::SecretScanner& secrets) {
  if (auto bad = badCommitId(request)) return *bad;
  const Boundary b(scope, secrets);
  request.id = b.name(request.id);
  request.repo = {b.name(request.repo.owner), b.name(request.repo.name)};
  for (StageResult& stage : request.stages) {
    stage.name = b.name(stage.name);
    for (Finding& f : stage.findings) f = b.finding(std::move(f));
    for (CarriedFinding& c : stage.carried) c = b.carried(std::move(c));
  }
  for (TriageResult& t : request.triage) t = b.triage(std::move(t));
  for (StepRow& s : request.steps) s = b.step(std::move(s));
  for (ProposedChange& c : request.changes) c = b.change(std::move(c));
  if (request.reviewedFiles)
    for (std::string& p : *request.reviewedFiles) p = b.identifier(p, 4096);
  return InertRequest(std::move(request));
}

}  // namespace lw::github
