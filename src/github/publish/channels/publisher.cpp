#include "github/publish/channels/publisher.h"

#include <filesystem>
#include <ostream>

#include <boost/json.hpp>

#include "core/http.h"
#include "core/json_fields.h"
#include "github/actions/actions_files.h"
#include "github/actions/workflow_commands.h"
#include "github/markdown/neutralise.h"
#include "github/publish/channels/channels.h"
#include "github/publish/channels/patch_branch_channel.h"
#include "github/publish/fallback.h"
#include "github/publish/fingerprint.h"
#include "github/publish/inert_request.h"

namespace lw::github {

namespace json = boost::json;

std::string_view toString(ChannelState s) {
  switch (s) {
    case ChannelState::Posted: return "posted";
    case ChannelState::AlreadyPosted: return "already posted";
    case ChannelState::Skipped: return "skipped";
    case ChannelState::PermissionDenied: return "permission denied";
    case ChannelState::Failed: return "failed";
  }
  return "failed";
}

ChannelOutcome outcomeOf(const std::string& channel, const Result<HttpResponse>& r, const std::string& what) {
  if (!r) return {channel, ChannelState::Failed, what + ": " + r.error().message};
  if (r->status / 100 == 2) return {channel, ChannelState::Posted, ""};
  Failure f = classify(&r.value());
  ChannelState s = f == Failure::Permission ? ChannelState::PermissionDenied : ChannelState::Failed;
  return {channel, s, what + ": " + describe(*r)};
}

Publisher::Publisher(RestClient& api, Outbox& outbox, PublisherConfig config, std::ostream& log, DiffSource* diffSource)
    : api_(api),
      outbox_(outbox),
      config_(std::move(config)),
      secrets_(config_.secrets),
      log_(log),
      diffSource_(diffSource) {}

Result<PublicationOutcome> Publisher::publish(const PublicationRequest& request) {
  // Recorded before anything is sent: from here on nothing can be lost.
  auto entry = outbox_.enqueue(request);
  if (!entry) return std::move(entry).error();
  auto claimed = outbox_.claim(request.id);
  if (!claimed) return std::move(claimed).error();
  if (!*claimed)
    return makeError(ErrorCode::PublicationFailed,
                     "publication " + request.id + " is being published by another process",
                     "run ids are unique per job; look for another loopwright run with this id", entry->file);
  if (!(*claimed)->entry)
    return makeError(ErrorCode::PublicationFailed, "publication " + request.id + " was finished meanwhile", "",
                     entry->file);
  return run(*(*claimed)->entry);
}

namespace {

// "review: …; check: …" of the channels that failed.
std::string failedChannels(const PublicationOutcome& outcome) {
  std::string what;
  for (const ChannelOutcome& c : outcome.channels)
    if (c.state == ChannelState::Failed) what += (what.empty() ? "" : "; ") + c.channel + ": " + c.detail;
  return what;
}

// Whether the publication is complete, and when a channel failed, what and
// whether the entry stays pending or is parked. True when a channel failed.
bool judgeChannels(PublicationOutcome& outcome, int attempts) {
  bool failed = false;
  for (const ChannelOutcome& c : outcome.channels) {
    outcome.permissionDenied = outcome.permissionDenied || c.state == ChannelState::PermissionDenied;
    failed = failed || c.state == ChannelState::Failed;
  }
  outcome.complete = !failed && !outcome.permissionDenied;
  outcome.attempts = attempts;
  if (failed) {
    outcome.lastError = failedChannels(outcome);
    outcome.kept =
        attempts >= kMaxPublishAttempts ? PublicationOutcome::Kept::Parked : PublicationOutcome::Kept::Pending;
  }
  return failed;
}

// Whatever no channel carried is printed as annotations, the best first.
void printUncarried(const PublishContext& ctx, PublicationOutcome& outcome) {
  std::vector<FallbackItem> items;
  for (const Finding& f : allFindings(ctx.request())) {
    if (ctx.carried.count(fingerprint(f))) continue;
    bool inDiff = ctx.diff && !f.path.empty() && ctx.diff->commentable(f.path, f.line);
    items.push_back({f, inDiff});
  }
  if (items.empty()) return;
  FallbackPlan plan = planFallback(items);
  printFallback(ctx.log, plan);
  outcome.annotations = plan.annotations;
  outcome.summaryOnly = plan.rest;
}

void reportUnpublished(std::ostream& log, const PublicationOutcome& outcome, const PublicationRequest& req) {
  for (const ChannelOutcome& c : outcome.channels) {
    if (c.state == ChannelState::PermissionDenied || c.state == ChannelState::Failed) {
      // A plain line, not a ::warning: the runner shows 10 warnings a step and
      // those slots belong to findings.
      log << "loopwright: " << c.channel << ": " << toString(c.state) << ": " << c.detail
          << " (results are in the annotations and the step summary)\n";
    }
  }
  for (const StepRow& s : req.steps) {
    if (!s.blocked) continue;
    // The BLOCKER text comes from a step: it must not run workflow commands.
    log << "loopwright: step " << s.stage << "/" << s.step << " was blocked:\n";
    echoUntrusted(log, s.blocker);
  }
}

std::string keptPath(const Outbox& outbox, const OutboxEntry& entry, PublicationOutcome::Kept kept) {
  if (kept == PublicationOutcome::Kept::Parked) return outbox.parkedPath(entry);
  if (kept == PublicationOutcome::Kept::Pending) return entry.file;
  return outbox.donePath(entry);
}

void writeStepSummary(const std::string& path, const PublicationRequest& req, const PublicationOutcome& outcome,
                      const std::string& keptAt, std::ostream& log) {
  std::error_code ec;
  std::size_t used = 0;
  if (auto size = std::filesystem::file_size(path, ec); !ec) used = size;
  Status s = appendStepSummary(path, renderStepSummary(req, outcome, keptAt, used));
  if (!s) log << "loopwright: " << s.error().message << "\n";
}

void writeOutputs(const std::string& path, const PublicationRequest& req, const PublicationOutcome& outcome,
                  const std::string& keptAt, std::ostream& log) {
  std::size_t errors = 0, total = 0;
  for (const Finding& f : allFindings(req)) {
    ++total;
    if (f.severity == Severity::Error) ++errors;
  }
  Status s = appendOutputs(path, {{"conclusion", req.conclusion ? std::string(toString(*req.conclusion)) : ""},
                                  {"findings", std::to_string(total)},
                                  {"errors", std::to_string(errors)},
                                  {"published", outcome.complete ? "true" : "false"},
                                  {"outbox", keptAt}});
  if (!s) log << "loopwright: " << s.error().message << "\n";
}

}  // namespace

Result<std::vector<PublicationOutcome>> Publisher::resumeAll(const std::optional<RepoRef>& only) {
  auto entries = outbox_.pending();
  if (!entries) return std::move(entries).error();
  std::vector<PublicationOutcome> out;
  std::optional<Error> firstError;
  for (OutboxEntry& listed : *entries) {
    if (only && (listed.request.repo.owner != only->owner || listed.request.repo.name != only->name)) continue;
    auto claimed = outbox_.claim(listed.request.id);
    if (!claimed) {
      if (!firstError) firstError = std::move(claimed).error();
      continue;
    }
    if (!*claimed) {
      log_ << "loopwright: publication " << listed.request.id << " is being published by another process\n";
      continue;
    }
    if (!(*claimed)->entry) continue;  // finished by the process that held it
    OutboxEntry& e = *(*claimed)->entry;
    log_ << "loopwright: resuming publication " << e.request.id << " (attempt " << e.attempts + 1 << ")\n";
    auto r = run(e);
    if (!r) {
      if (!firstError) firstError = std::move(r).error();
    } else {
      out.push_back(std::move(r).value());
    }
  }
  if (firstError) return *firstError;
  return out;
}

Error Publisher::keepFailed(OutboxEntry& entry, const PublicationOutcome& outcome) {
  const std::string& id = entry.request.id;
  entry.lastError = outcome.lastError;
  Status saved = outbox_.save(entry);
  if (!saved) log_ << "loopwright: " << saved.error().message << "\n";
  if (outcome.kept != PublicationOutcome::Kept::Parked)
    return makeError(
        ErrorCode::PublicationFailed, "publication " + id + " did not finish: " + outcome.lastError,
        "the results are kept in " + entry.file + "; the next run or `loopwright publish --resume` finishes it",
        entry.file);
  Status parked = outbox_.park(entry);
  if (!parked) log_ << "loopwright: " << parked.error().message << "\n";
  return makeError(
      ErrorCode::PublicationFailed,
      "publication " + id + " failed " + std::to_string(entry.attempts) + " times and was parked: " + outcome.lastError,
      "it is no longer retried; its results are in " + outbox_.parkedPath(entry) + " and in the step summary",
      outbox_.parkedPath(entry));
}

Result<PublicationOutcome> Publisher::run(OutboxEntry& entry) {
  // Every channel (review, check runs, triage, summary, annotations) renders
  // from the inert request; the outbox keeps what the steps wrote, so a
  // resumed entry passes the boundary again.
  auto inert =
      makeInert(entry.request, linkScopeOf(webHostOfApiUrl(api_.config().apiUrl), entry.request.repo), secrets_);
  if (!inert) return std::move(inert).error();
  const PublicationRequest& req = inert->get();
  ++entry.attempts;
  Status saved = outbox_.save(entry);
  if (!saved) return std::move(saved).error();

  PublishContext ctx{api_, outbox_, entry, *inert, ownLogin(api_, config_.fallbackLogin), diffSource_, log_, {}, {}};
  PublicationOutcome outcome;
  outcome.id = req.id;
  if (req.isPullRequest) outcome.channels.push_back(publishReview(ctx));
  for (auto& c : publishChecks(ctx)) outcome.channels.push_back(std::move(c));
  for (auto& c : publishTriage(ctx)) outcome.channels.push_back(std::move(c));
  for (auto& c : publishPatchBranches(ctx, config_.branchPusher)) outcome.channels.push_back(std::move(c));
  const bool failed = judgeChannels(outcome, entry.attempts);

  printUncarried(ctx, outcome);
  reportUnpublished(log_, outcome, req);
  const std::string keptAt = keptPath(outbox_, entry, outcome.kept);
  if (!config_.stepSummaryPath.empty() && req.options.summary)
    writeStepSummary(config_.stepSummaryPath, req, outcome, keptAt, log_);
  if (!config_.outputPath.empty()) writeOutputs(config_.outputPath, req, outcome, keptAt, log_);

  if (failed) return keepFailed(entry, outcome);
  // Refusals are final for this token: retrying cannot help, and the
  // findings are already in annotations and the summary.
  Status done = outbox_.complete(entry);
  if (!done) log_ << "loopwright: " << done.error().message << "\n";
  return outcome;
}

}  // namespace lw::github
