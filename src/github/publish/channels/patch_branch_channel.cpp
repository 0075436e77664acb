// The patch-branch channel. Endpoints:
//   GET   /repos/{o}/{r}/issues/{n}/comments  our earlier linking comment
//   POST  /repos/{o}/{r}/issues/{n}/comments  the linking comment
//   PATCH /repos/{o}/{r}/issues/comments/{id} the same comment, edited
#include "github/publish/channels/patch_branch_channel.h"

#include <boost/json.hpp>

#include "core/json_fields.h"
#include "core/step_label.h"
#include "github/markdown/neutralise.h"
#include "github/publish/channels/channels.h"

namespace lw::github {

namespace json = boost::json;

namespace {

// Characters a ref name component may hold (git-check-ref-format(1)) without
// any of its special cases: no "..", no leading '.', no ".lock" ending.
std::string refComponent(const std::string& s) {
  std::string out;
  for (char c : s) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    out += plain ? c : '-';
  }
  return out.empty() ? "-" : out;
}

bool stepNameShared(const PublicationRequest& request, const ProposedChange& change) {
  for (const ProposedChange& c : request.changes)
    if (c.step == change.step && c.stage != change.stage) return true;
  return false;
}

// Our earlier linking comment for this change: its id, or 0.
Result<std::int64_t> earlierComment(PublishContext& ctx, const std::string& issue, const std::string& marker) {
  auto comments = ctx.api.getAll(issue + "/comments");
  if (!comments) return std::move(comments).error();
  for (const auto& c : *comments) {
    if (json_fields::loginOf(c) != ctx.ownLogin) continue;
    if (json_fields::textOf(c, "body").find(marker) != std::string::npos) return json_fields::idOf(c);
  }
  return std::int64_t{0};
}

ChannelOutcome publishOne(PublishContext& ctx, BranchPusher& pusher, const ProposedChange& change) {
  const PublicationRequest& req = ctx.request();
  const std::string channel = "branch: " + stepLabel(change.stage, change.step);
  auto pushed = pusher.push(req, change, branchNameFor(req, change));
  if (!pushed) return {channel, ChannelState::Failed, pushed.error().message};
  const std::string issue = ctx.repoPath() + "/issues/" + std::to_string(req.number);
  auto earlier = earlierComment(ctx, issue, patchBranchMarker(req.id, change));
  if (!earlier) return {channel, ChannelState::Failed, earlier.error().message};
  const json::object body{{"body", patchBranchComment(req, change, *pushed, webHostOfApiUrl(ctx.api.config().apiUrl))}};
  auto r = *earlier ? ctx.api.send("PATCH", ctx.repoPath() + "/issues/comments/" + std::to_string(*earlier), body)
                    : ctx.api.send("POST", issue + "/comments", body);
  ChannelOutcome o = outcomeOf(channel, r, *earlier ? "PATCH linking comment" : "POST linking comment");
  if (o.state == ChannelState::Posted) o.detail = pushed->branch + " at " + pushed->commit.substr(0, 12);
  return o;
}

}  // namespace

std::string branchNameFor(const PublicationRequest& request, const ProposedChange& change) {
  std::string step = stepNameShared(request, change) ? change.stage + "-" + change.step : change.step;
  return "loopwright/" + refComponent(request.id) + "/" + refComponent(step);
}

std::string patchBranchMarker(const std::string& runId, const ProposedChange& change) {
  return "<!-- loopwright:patch-branch:" + refComponent(runId) + ":" + refComponent(change.stage) + "/" +
         refComponent(change.step) + " -->";
}

std::string patchBranchComment(const PublicationRequest& request, const ProposedChange& change,
                               const PushedBranch& pushed, const std::string& webHost) {
  const std::string repo = "https://" + webHost + "/" + request.repo.fullName();
  const std::string step = neutraliseIdentifier(stepLabel(change.stage, change.step), 200);
  return patchBranchMarker(request.id, change) + "\n### loopwright: proposed change\n\n" + "Author step `" + step +
         "` proposes a change, committed as `" + pushed.commit.substr(0, 12) + "` on branch [`" + pushed.branch +
         "`](" + repo + "/tree/" + pushed.branch + ") (its parent is `" + change.baseCommit.substr(0, 12) +
         "`, the head it was made on).\n\n" + "[Compare](" + repo + "/compare/" + change.baseCommit + "..." +
         pushed.branch + ") · to take it, merge or cherry-pick `" + pushed.commit + "`.\n";
}

std::vector<ChannelOutcome> publishPatchBranches(PublishContext& ctx, BranchPusher* pusher) {
  const PublicationRequest& req = ctx.request();
  std::vector<ChannelOutcome> out;
  if (req.options.patches != PatchPublication::Branch) return out;
  for (const ProposedChange& change : req.changes) {
    if (!pusher) {
      out.push_back({"branch: " + stepLabel(change.stage, change.step), ChannelState::Failed,
                     "this process has no git remote to push to (it publishes only through the API)"});
      continue;
    }
    out.push_back(publishOne(ctx, *pusher, change));
  }
  return out;
}

}  // namespace lw::github
