// The PR review channel. Endpoints:
//   GET    /repos/{o}/{r}/pulls/{n}            (Accept: application/vnd.github.diff)
//   GET    /repos/{o}/{r}/pulls/{n}/comments   our earlier inline comments
//   GET    /repos/{o}/{r}/pulls/{n}/reviews    our earlier reviews (and leftover pending ones)
//   POST   /repos/{o}/{r}/pulls/{n}/reviews    the review; without "event" a pending probe
//   DELETE /repos/{o}/{r}/pulls/{n}/reviews/{id}  a pending probe
//   PATCH  /repos/{o}/{r}/pulls/comments/{id}  mark an outdated comment of ours resolved
#include <boost/json.hpp>

#include "core/json_fields.h"
#include "github/publish/channels/channels.h"
#include "github/publish/channels/resolve_plan.h"
#include "github/publish/channels/review_plan.h"
#include "github/publish/channels/suggestion_plan.h"
#include "github/publish/conclusion.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"

namespace lw::github {

namespace json = boost::json;

namespace {

using json_fields::idOf;
using json_fields::loginOf;
using json_fields::peekInt;
using json_fields::textOf;

// Comments someone other than `self` replied to (their in_reply_to_id): a
// person is discussing them, so they are never edited.
std::set<std::int64_t> answeredByOthers(const json::array& comments, const std::string& self) {
  std::set<std::int64_t> out;
  for (const auto& c : comments) {
    const auto to = peekInt(c, "in_reply_to_id");
    if (to && loginOf(c) != self) out.insert(*to);
  }
  return out;
}

class ReviewChannel {
 public:
  explicit ReviewChannel(PublishContext& ctx)
      : ctx_(ctx), req_(ctx.request()), pulls_(ctx.repoPath() + "/pulls/" + std::to_string(req_.number)) {}

  ChannelOutcome run() {
    if (!req_.isPullRequest || req_.options.review == ReviewMode::None)
      return {"review", ChannelState::Skipped, !req_.isPullRequest ? "not a pull request" : "review: none"};
    if (req_.headSha.empty())
      return {"review", ChannelState::Failed, "no head commit: an issue_comment event needs fetchPull() first"};
    std::vector<Finding> findings = allFindings(req_);

    if (auto denied = loadDiff()) return *denied;
    // An author's change rides on the review as suggestions and a body patch.
    if (req_.options.patches == PatchPublication::Suggestions)
      suggestions_ = planSuggestions(req_.changes, ctx_.diff ? &*ctx_.diff : nullptr, req_.headSha);
    std::vector<Finding> reviewed = findings;
    for (Finding& f : findingsOf(suggestions_)) reviewed.push_back(std::move(f));
    auto comments = ctx_.api.getAll(pulls_ + "/comments");
    if (!comments) return {"review", ChannelState::Failed, comments.error().message};
    auto reviews = ctx_.api.getAll(pulls_ + "/reviews");
    if (!reviews) return {"review", ChannelState::Failed, reviews.error().message};

    std::set<std::string> posted;
    std::vector<OwnComment> own;
    const std::set<std::int64_t> answered = answeredByOthers(*comments, ctx_.ownLogin);
    for (const auto& c : *comments) {
      if (loginOf(c) != ctx_.ownLogin) continue;  // a marker from anyone else means nothing
      std::string body = textOf(c, "body");
      const auto* line = c.as_object().if_contains("line");
      own.push_back(
          {idOf(c), body, textOf(c, "path"), answered.count(idOf(c)) > 0, line != nullptr && line->is_null()});
      for (auto& fp : openFindingsIn(body, req_.origin)) posted.insert(fp);
    }
    for (const auto& r : *reviews) {
      if (loginOf(r) != ctx_.ownLogin) continue;
      if (textOf(r, "state") == "PENDING") {
        // A probe left by an interrupted run: GitHub allows one pending
        // review per user, so it would make our next POST fail.
        auto d = ctx_.api.send("DELETE", pulls_ + "/reviews/" + std::to_string(idOf(r)), nullptr);
        if (!d || d->status / 100 != 2)
          ctx_.log << "loopwright: could not delete a leftover pending review " << idOf(r) << "\n";
        continue;
      }
      for (auto& fp : openFindingsIn(textOf(r, "body"), req_.origin)) posted.insert(fp);
    }

    ResolveRule resolveRule;
    if (req_.reviewedFiles)
      resolveRule.files = std::set<std::string>(req_.reviewedFiles->begin(), req_.reviewedFiles->end());
    resolveRule.onlyOutdated = reviewedIncrementally(req_.steps);
    resolveRule.origin = req_.origin;
    ReviewPlan plan = planReview(reviewed, ctx_.diff ? &*ctx_.diff : nullptr, posted, own,
                                 req_.options.maxInlineComments, resolveRule);
    for (const Finding& f : findings)
      if (posted.count(fingerprint(f))) ctx_.carried.insert(fingerprint(f));

    ChannelOutcome out{"review", ChannelState::AlreadyPosted,
                       std::to_string(plan.alreadyPosted) + " finding(s) already posted"};
    if (plan.hasNew()) {
      out = post(plan);
      if (out.state != ChannelState::Posted) return out;
    }
    for (const Finding& f : findings) ctx_.carried.insert(fingerprint(f));
    for (std::int64_t id : plan.resolve) resolve(id, own);
    return out;
  }

 private:
  // Sets ctx_.diff; returns an outcome only when the channel must stop.
  std::optional<ChannelOutcome> loadDiff() {
    auto r = ctx_.api.get(pulls_, kDiffMedia);
    std::string text;
    if (r && r->status == 200) {
      text = r->body;
    } else if (r && r->status == 406 && ctx_.diffSource) {
      // GitHub refuses diffs over its size limits with 406; the local clone has it.
      auto local = ctx_.diffSource->unifiedDiff(req_);
      if (!local) {
        ctx_.log << "loopwright: the diff is too large for the API and the local diff failed (" << local.error().message
                 << "); every finding goes to the review body\n";
        return std::nullopt;
      }
      text = std::move(local).value();
      ctx_.log << "loopwright: the diff is over GitHub's API limits (HTTP 406): comments are placed on the "
                  "local clone's diff\n";
    } else if (r && r->status == 406) {
      ctx_.log << "loopwright: the diff is too large for the API and no local diff is available; "
                  "every finding goes to the review body\n";
      return std::nullopt;
    } else {
      ChannelOutcome o = outcomeOf("review", r, "GET pull request diff");
      return o;
    }
    auto parsed = diff::DiffIndex::parse(text);
    if (!parsed) {
      ctx_.log << "loopwright: " << parsed.error().message << "; every finding goes to the review body\n";
      return std::nullopt;
    }
    ctx_.diff = std::move(parsed).value();
    return std::nullopt;
  }

  Result<HttpResponse> postReview(const std::vector<InlineComment>& comments, const std::string& body,
                                  const std::string& event) {
    std::string marker = reviewMarker(req_.headSha, req_.id, req_.origin);
    bool pending = event.empty();
    RestClient::LandedProbe landed = [this, marker, pending]() -> Result<std::optional<HttpResponse>> {
      auto reviews = ctx_.api.getAll(pulls_ + "/reviews");
      if (!reviews) return std::move(reviews).error();
      for (const auto& r : *reviews) {
        if (loginOf(r) != ctx_.ownLogin) continue;
        bool match = pending ? textOf(r, "state") == "PENDING" : textOf(r, "body").find(marker) != std::string::npos;
        if (match) return std::optional<HttpResponse>(HttpResponse{200, {}, json::serialize(r)});
      }
      return std::optional<HttpResponse>();
    };
    return ctx_.api.post(pulls_ + "/reviews", reviewPayload(comments, req_.headSha, body, event), landed);
  }

  // A pending review with just these comments: accepted means GitHub can
  // place them all. The probe is deleted at once.
  Result<bool> placeable(const std::vector<InlineComment>& comments) {
    auto r = postReview(comments, "", "");
    if (!r) return std::move(r).error();
    if (r->status == 422) return false;
    if (r->status / 100 != 2)
      return makeError(ErrorCode::PublicationFailed, "probing review comments: " + describe(*r));
    std::int64_t id = idOf(jsonBody(*r));
    auto d = ctx_.api.send("DELETE", pulls_ + "/reviews/" + std::to_string(id), nullptr);
    if (!d || d->status / 100 != 2) return makeError(ErrorCode::PublicationFailed, "deleting a probe review failed");
    return true;
  }

  // Splits comments GitHub refused as a whole into those it accepts and the
  // ones it does not, with O(bad * log n) probes.
  Status bisect(const std::vector<InlineComment>& v, std::vector<InlineComment>& good,
                std::vector<InlineComment>& bad) {
    if (v.empty()) return Ok{};
    auto ok = placeable(v);
    if (!ok) return std::move(ok).error();
    if (*ok) {
      good.insert(good.end(), v.begin(), v.end());
      return Ok{};
    }
    if (v.size() == 1) {
      bad.push_back(v.front());
      return Ok{};
    }
    std::size_t half = v.size() / 2;
    Status a = bisect({v.begin(), v.begin() + half}, good, bad);
    if (!a) return a;
    return bisect({v.begin() + half, v.end()}, good, bad);
  }

  // The review body; marked partial when this head was not reviewed whole,
  // so a later run does not review only what changed since it.
  std::string bodyOf(const ReviewPlan& plan) const {
    std::string body = reviewBody(plan, req_.headSha, req_.id, req_.options.maxInlineComments);
    if (!reviewedWhole(req_)) body = partialReviewMarker() + "\n" + body;
    std::set<std::string> inBody;
    for (const auto* list : {&plan.outsideDiff, &plan.overflow})
      for (const BodyFinding& b : *list) inBody.insert(b.fingerprint);
    return body + patchAppendix(suggestions_, inBody, kMaxBodyChars > body.size() ? kMaxBodyChars - body.size() : 0);
  }

  ChannelOutcome post(ReviewPlan plan) {
    std::string event = reviewEvent(plan, req_.options.review, req_.options.failOn);
    auto r = postReview(plan.inlineComments, bodyOf(plan), event);
    if (r && r->status == 422 && !plan.inlineComments.empty()) {
      ctx_.log << "loopwright: GitHub refused the review (" << describe(*r)
               << "); finding the comments it cannot place\n";
      // The whole set was just refused, so start from its halves.
      std::vector<InlineComment> good, bad;
      const std::vector<InlineComment> all = plan.inlineComments;
      std::size_t half = all.size() / 2;
      Status s = Ok{};
      if (all.size() == 1) {
        bad = all;
      } else {
        s = bisect({all.begin(), all.begin() + half}, good, bad);
        if (s) s = bisect({all.begin() + half, all.end()}, good, bad);
      }
      if (!s) {
        // Probing failed: keep every finding by putting them all in the body.
        good.clear();
        bad = all;
      }
      plan.inlineComments = good;
      for (const InlineComment& c : bad) plan.outsideDiff.push_back({c.finding, c.fingerprint});
      ctx_.log << "loopwright: " << bad.size() << " comment(s) moved to the review body\n";
      r = postReview(plan.inlineComments, bodyOf(plan), event);
      if (r && r->status == 422 && !plan.inlineComments.empty()) {
        for (const InlineComment& c : plan.inlineComments) plan.outsideDiff.push_back({c.finding, c.fingerprint});
        plan.inlineComments.clear();
        r = postReview({}, bodyOf(plan), event);
      }
    }
    ChannelOutcome o = outcomeOf("review", r, "POST review");
    if (o.state == ChannelState::Posted) {
      o.detail = std::to_string(plan.inlineComments.size()) + " inline comment(s), " +
                 std::to_string(plan.outsideDiff.size() + plan.overflow.size()) + " finding(s) in the body";
    }
    return o;
  }

  void resolve(std::int64_t id, const std::vector<OwnComment>& own) {
    for (const OwnComment& c : own) {
      if (c.id != id) continue;
      auto r = ctx_.api.send("PATCH", ctx_.repoPath() + "/pulls/comments/" + std::to_string(id),
                             json::object{{"body", resolvedCommentBody(c.body, req_.headSha)}});
      if (!r || r->status / 100 != 2) ctx_.log << "loopwright: could not mark outdated comment " << id << " resolved\n";
    }
  }

  PublishContext& ctx_;
  const PublicationRequest& req_;
  std::string pulls_;
  SuggestionPlan suggestions_;
};

}  // namespace

ChannelOutcome publishReview(PublishContext& ctx) {
  if (ctx.entry.progress.reviewDone) {
    for (const Finding& f : allFindings(ctx.request())) ctx.carried.insert(fingerprint(f));
    return {"review", ChannelState::AlreadyPosted, "posted by an earlier attempt"};
  }
  ChannelOutcome o = ReviewChannel(ctx).run();
  if (o.state == ChannelState::Posted || o.state == ChannelState::AlreadyPosted || o.state == ChannelState::Skipped) {
    ctx.entry.progress.reviewDone = true;
    Status s = ctx.outbox.save(ctx.entry);
    if (!s) ctx.log << "loopwright: " << s.error().message << "\n";
  }
  return o;
}

}  // namespace lw::github
