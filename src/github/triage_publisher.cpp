// The triage channel: labels and one sticky comment. Endpoints:
//   GET   /repos/{o}/{r}/issues/{n}/labels       labels already on the issue
//   GET   /repos/{o}/{r}/labels/{name}           does the label exist
//   POST  /repos/{o}/{r}/labels                  create it, with a colour
//   POST  /repos/{o}/{r}/issues/{n}/labels       add the missing ones
//   GET   /repos/{o}/{r}/issues/{n}/comments     find our sticky comment
//   POST  /repos/{o}/{r}/issues/{n}/comments     create it
//   PATCH /repos/{o}/{r}/issues/comments/{id}    edit it in place
#include <algorithm>
#include <cstdio>

#include <boost/json.hpp>

#include "github/channels.h"
#include "github/fingerprint.h"
#include "github/json_fields.h"

namespace lw::github {

namespace json = boost::json;

namespace {

using json_fields::peekInt;
using json_fields::peekMember;
using json_fields::peekStr;

std::string str(const json::value& v, const char* key) { return peekStr(v, key).value_or(""); }
std::string login(const json::value& v) { return peekStr(peekMember(v, "user"), "login").value_or(""); }
std::int64_t id(const json::value& v) { return peekInt(v, "id").value_or(0); }

}  // namespace

// A stable colour per label name, so the same label looks the same everywhere.
std::string labelColour(const std::string& name) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  char buf[7];
  std::snprintf(buf, sizeof buf, "%06x", h & 0xffffff);
  return buf;
}

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

std::vector<ChannelOutcome> publishTriage(PublishContext& ctx) {
  const PublicationRequest& req = ctx.entry.request;
  if (req.triage.empty()) return {};
  std::vector<ChannelOutcome> out;
  std::string issue = ctx.repoPath() + "/issues/" + std::to_string(req.number);
  auto save = [&] {
    Status s = ctx.outbox.save(ctx.entry);
    if (!s) ctx.log << "loopwright: " << s.error().message << "\n";
  };

  std::vector<std::string> wanted;
  for (const TriageResult& t : req.triage)
    for (const auto& l : t.labels)
      if (std::find(wanted.begin(), wanted.end(), l) == wanted.end()) wanted.push_back(l);

  if (ctx.entry.progress.labelsDone || wanted.empty()) {
    out.push_back({"labels", wanted.empty() ? ChannelState::Skipped : ChannelState::AlreadyPosted, ""});
  } else {
    ChannelOutcome o{"labels", ChannelState::AlreadyPosted, "already on the issue"};
    auto current = ctx.api.getAll(issue + "/labels");
    std::vector<std::string> missing;
    if (!current) {
      o = {"labels", ChannelState::Failed, current.error().message};
    } else {
      for (const auto& l : wanted) {
        bool have = std::any_of(current->begin(), current->end(), [&](const json::value& v) { return str(v, "name") == l; });
        if (!have) missing.push_back(l);
      }
    }
    for (const auto& l : missing) {
      if (o.state == ChannelState::Failed || o.state == ChannelState::PermissionDenied) break;
      auto exists = ctx.api.get(ctx.repoPath() + "/labels/" + urlEncode(l));
      if (exists && exists->status == 200) continue;
      if (!exists || exists->status != 404) {
        o = outcomeOf("labels", exists, "GET label");
        break;
      }
      // No probe needed: a second create answers 422 already_exists, which is fine.
      RestClient::LandedProbe none = [] { return Result<std::optional<HttpResponse>>(std::optional<HttpResponse>()); };
      auto created = ctx.api.post(ctx.repoPath() + "/labels",
                                  json::object{{"name", l}, {"color", labelColour(l)},
                                               {"description", "Added by loopwright triage"}},
                                  none);
      if (created && created->status == 422) continue;  // created meanwhile
      ChannelOutcome c = outcomeOf("labels", created, "POST label");
      if (c.state != ChannelState::Posted) o = c;
    }
    if (!missing.empty() && o.state == ChannelState::AlreadyPosted) {
      json::array names;
      for (const auto& l : missing) names.emplace_back(l);
      // Adding a label twice is harmless, so the POST may simply be retried.
      RestClient::LandedProbe none = [] { return Result<std::optional<HttpResponse>>(std::optional<HttpResponse>()); };
      auto r = ctx.api.post(issue + "/labels", json::object{{"labels", names}}, none);
      o = outcomeOf("labels", r, "POST issue labels");
      if (o.state == ChannelState::Posted) o.detail = std::to_string(missing.size()) + " label(s) added";
    }
    if (o.state == ChannelState::Posted || o.state == ChannelState::AlreadyPosted) {
      ctx.entry.progress.labelsDone = true;
      save();
    }
    out.push_back(o);
  }

  if (ctx.entry.progress.commentDone) {
    out.push_back({"comment", ChannelState::AlreadyPosted, "posted by an earlier attempt"});
    return out;
  }
  std::string body = triageCommentBody(req);
  auto comments = ctx.api.getAll(issue + "/comments");
  if (!comments) {
    out.push_back({"comment", ChannelState::Failed, comments.error().message});
    return out;
  }
  auto findOurs = [&](const json::array& list) -> const json::value* {
    for (const auto& c : list)
      if (login(c) == ctx.ownLogin && str(c, "body").find(triageMarker()) != std::string::npos) return &c;
    return nullptr;
  };
  ChannelOutcome o;
  if (const json::value* mine = findOurs(*comments)) {
    if (str(*mine, "body") == body) {
      o = {"comment", ChannelState::AlreadyPosted, "unchanged"};
    } else {
      auto r = ctx.api.send("PATCH", ctx.repoPath() + "/issues/comments/" + std::to_string(id(*mine)),
                            json::object{{"body", body}});
      o = outcomeOf("comment", r, "PATCH comment");
      if (o.state == ChannelState::Posted) o.detail = "edited in place";
    }
  } else {
    RestClient::LandedProbe landed = [&]() -> Result<std::optional<HttpResponse>> {
      auto again = ctx.api.getAll(issue + "/comments");
      if (!again) return std::move(again).error();
      if (const json::value* mine = findOurs(*again))
        return std::optional<HttpResponse>(HttpResponse{201, {}, json::serialize(*mine)});
      return std::optional<HttpResponse>();
    };
    auto r = ctx.api.post(issue + "/comments", json::object{{"body", body}}, landed);
    o = outcomeOf("comment", r, "POST comment");
  }
  if (o.state == ChannelState::Posted || o.state == ChannelState::AlreadyPosted) {
    ctx.entry.progress.commentDone = true;
    save();
  }
  out.push_back(o);
  return out;
}

}  // namespace lw::github
