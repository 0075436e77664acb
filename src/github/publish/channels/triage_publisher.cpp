// The triage channel: labels and one sticky comment. Endpoints:
//   GET   /repos/{o}/{r}/issues/{n}/labels       labels already on the issue
//   GET   /repos/{o}/{r}/labels/{name}           does the label exist
//   POST  /repos/{o}/{r}/labels                  create it, with a colour
//   POST  /repos/{o}/{r}/issues/{n}/labels       add the missing ones
//   GET   /repos/{o}/{r}/issues/{n}/comments     find our sticky comment
//   POST  /repos/{o}/{r}/issues/{n}/comments     create it
//   PATCH /repos/{o}/{r}/issues/comments/{id}    edit it in place
#include <algorithm>

#include <boost/json.hpp>

#include "core/fnv1a.h"
#include "core/hex.h"
#include "core/json_fields.h"
#include "github/publish/channels/channels.h"
#include "github/publish/markers.h"

namespace lw::github {

namespace json = boost::json;

// A stable colour per label name, so the same label looks the same everywhere.
std::string labelColour(const std::string& name) { return hexNumber(fnv1a32(name), 6); }

std::string triageCommentBody(const PublicationRequest& req) {
  std::vector<std::string> labels;
  std::string body = triageMarker() + "\n### loopwright triage\n\n";
  std::string details, dups;
  std::optional<bool> complete, reproducible;
  for (const TriageResult& t : req.triage) {
    for (const auto& l : t.labels)
      if (std::find(labels.begin(), labels.end(), l) == labels.end()) labels.push_back(l);
    for (const auto& d : t.duplicates) {
      dups += "- #" + std::to_string(d.number);
      if (!d.reason.empty()) dups += ": " + d.reason;
      dups += "\n";
    }
    if (t.complete) complete = complete.value_or(true) && *t.complete;
    if (t.reproducible) reproducible = reproducible.value_or(true) && *t.reproducible;
    if (!t.comment.empty()) details += "\n" + t.comment + "\n";
  }
  if (!labels.empty()) {
    body += "**Labels:**";
    for (std::size_t i = 0; i < labels.size(); ++i) body += (i ? ", `" : " `") + labels[i] + "`";
    body += "\n\n";
  }
  if (complete) body += std::string("**Complete:** ") + (*complete ? "yes" : "no") + "\n\n";
  if (reproducible) body += std::string("**Reproducible:** ") + (*reproducible ? "yes" : "no") + "\n\n";
  if (!dups.empty()) body += "**Possible duplicates:**\n\n" + dups;
  body += details;
  return body;
}

namespace {

using json_fields::idOf;
using json_fields::loginOf;
using json_fields::textOf;

// The labels every triage step asked for, each once, in the order first asked.
std::vector<std::string> wantedLabels(const PublicationRequest& req) {
  std::vector<std::string> wanted;
  for (const TriageResult& t : req.triage)
    for (const auto& l : t.labels)
      if (std::find(wanted.begin(), wanted.end(), l) == wanted.end()) wanted.push_back(l);
  return wanted;
}

// For a POST that may simply be retried: nothing to look for first.
RestClient::LandedProbe noProbe() {
  return [] { return Result<std::optional<HttpResponse>>(std::optional<HttpResponse>()); };
}

bool done(const ChannelOutcome& o) { return o.state == ChannelState::Posted || o.state == ChannelState::AlreadyPosted; }

void saveProgress(PublishContext& ctx) {
  Status s = ctx.outbox.save(ctx.entry);
  if (!s) ctx.log << "loopwright: " << s.error().message << "\n";
}

std::vector<std::string> missingLabels(const json::array& current, const std::vector<std::string>& wanted) {
  std::vector<std::string> missing;
  for (const auto& l : wanted)
    if (std::none_of(current.begin(), current.end(), [&](const json::value& v) { return textOf(v, "name") == l; }))
      missing.push_back(l);
  return missing;
}

// Creates each missing label in the repository; `o` becomes the first failure.
void createLabels(PublishContext& ctx, const std::vector<std::string>& missing, ChannelOutcome& o) {
  for (const auto& l : missing) {
    if (o.state == ChannelState::Failed || o.state == ChannelState::PermissionDenied) break;
    auto exists = ctx.api.get(ctx.repoPath() + "/labels/" + urlEncode(l));
    if (exists && exists->status == 200) continue;
    if (!exists || exists->status != 404) {
      o = outcomeOf("labels", exists, "GET label");
      break;
    }
    // No probe needed: a second create answers 422 already_exists, which is fine.
    auto created = ctx.api.post(
        ctx.repoPath() + "/labels",
        json::object{{"name", l}, {"color", labelColour(l)}, {"description", "Added by loopwright triage"}}, noProbe());
    if (created && created->status == 422) continue;  // created meanwhile
    ChannelOutcome c = outcomeOf("labels", created, "POST label");
    if (c.state != ChannelState::Posted) o = c;
  }
}

ChannelOutcome addLabels(PublishContext& ctx, const std::string& issue, const std::vector<std::string>& wanted) {
  ChannelOutcome o{"labels", ChannelState::AlreadyPosted, "already on the issue"};
  auto current = ctx.api.getAll(issue + "/labels");
  if (!current) return {"labels", ChannelState::Failed, current.error().message};
  const std::vector<std::string> missing = missingLabels(*current, wanted);
  createLabels(ctx, missing, o);
  if (!missing.empty() && o.state == ChannelState::AlreadyPosted) {
    json::array names;
    for (const auto& l : missing) names.emplace_back(l);
    // Adding a label twice is harmless, so the POST may simply be retried.
    auto r = ctx.api.post(issue + "/labels", json::object{{"labels", names}}, noProbe());
    o = outcomeOf("labels", r, "POST issue labels");
    if (o.state == ChannelState::Posted) o.detail = std::to_string(missing.size()) + " label(s) added";
  }
  return o;
}

ChannelOutcome publishLabels(PublishContext& ctx, const std::string& issue) {
  const std::vector<std::string> wanted = wantedLabels(ctx.request());
  if (ctx.entry.progress.labelsDone || wanted.empty())
    return {"labels", wanted.empty() ? ChannelState::Skipped : ChannelState::AlreadyPosted, ""};
  ChannelOutcome o = addLabels(ctx, issue, wanted);
  if (done(o)) {
    ctx.entry.progress.labelsDone = true;
    saveProgress(ctx);
  }
  return o;
}

const json::value* ourComment(const json::array& list, const std::string& ownLogin) {
  for (const auto& c : list)
    if (loginOf(c) == ownLogin && markersIn(textOf(c, "body")).triage) return &c;
  return nullptr;
}

// Edits our sticky comment in place, or creates it; a POST whose answer was
// lost is found again by its marker rather than posted twice.
ChannelOutcome upsertComment(PublishContext& ctx, const std::string& issue, const json::array& comments,
                             const std::string& body) {
  if (const json::value* mine = ourComment(comments, ctx.ownLogin)) {
    if (textOf(*mine, "body") == body) return {"comment", ChannelState::AlreadyPosted, "unchanged"};
    auto r = ctx.api.send("PATCH", ctx.repoPath() + "/issues/comments/" + std::to_string(idOf(*mine)),
                          json::object{{"body", body}});
    ChannelOutcome o = outcomeOf("comment", r, "PATCH comment");
    if (o.state == ChannelState::Posted) o.detail = "edited in place";
    return o;
  }
  RestClient::LandedProbe landed = [&]() -> Result<std::optional<HttpResponse>> {
    auto again = ctx.api.getAll(issue + "/comments");
    if (!again) return std::move(again).error();
    if (const json::value* mine = ourComment(*again, ctx.ownLogin))
      return std::optional<HttpResponse>(HttpResponse{201, {}, json::serialize(*mine)});
    return std::optional<HttpResponse>();
  };
  auto r = ctx.api.post(issue + "/comments", json::object{{"body", body}}, landed);
  return outcomeOf("comment", r, "POST comment");
}

ChannelOutcome publishComment(PublishContext& ctx, const std::string& issue) {
  if (ctx.entry.progress.commentDone) return {"comment", ChannelState::AlreadyPosted, "posted by an earlier attempt"};
  auto comments = ctx.api.getAll(issue + "/comments");
  if (!comments) return {"comment", ChannelState::Failed, comments.error().message};
  ChannelOutcome o = upsertComment(ctx, issue, *comments, triageCommentBody(ctx.request()));
  if (done(o)) {
    ctx.entry.progress.commentDone = true;
    saveProgress(ctx);
  }
  return o;
}

}  // namespace

std::vector<ChannelOutcome> publishTriage(PublishContext& ctx) {
  const PublicationRequest& req = ctx.request();
  if (req.triage.empty()) return {};
  const std::string issue = ctx.repoPath() + "/issues/" + std::to_string(req.number);
  ChannelOutcome labels = publishLabels(ctx, issue);
  return {std::move(labels), publishComment(ctx, issue)};
}

}  // namespace lw::github
