// The check-run channel, one check run per stage. Endpoints:
//   GET   /repos/{o}/{r}/commits/{sha}/check-runs?check_name=…  find ours (external_id)
//   POST  /repos/{o}/{r}/check-runs                            create, status in_progress
//   PATCH /repos/{o}/{r}/check-runs/{id}                       50 annotations per request;
//                                                              the last also completes it
//   GET   /repos/{o}/{r}/check-runs/{id}/annotations           how many landed (resume, retries)
#include <optional>

#include <boost/json.hpp>

#include "core/json_fields.h"
#include "github/publish/channels/channels.h"
#include "github/publish/channels/check_plan.h"
#include "github/publish/fingerprint.h"

namespace lw::github {

namespace json = boost::json;

namespace {

using json_fields::idOf;
using json_fields::textOf;

class CheckChannel {
 public:
  CheckChannel(PublishContext& ctx, const StageResult& stage)
      : ctx_(ctx),
        req_(ctx.request()),
        stage_(stage),
        plan_(planCheckRun(stage, req_.steps, req_.headSha, req_.options.failOn)),
        progress_(ctx.entry.progress.checks[stage.name]),
        channel_("check: " + stage.name) {}

  ChannelOutcome run() {
    if (progress_.done) return carried({channel_, ChannelState::AlreadyPosted, "completed by an earlier attempt"});
    if (auto ended = findOrCreate()) return *ended;
    return sendBatches();
  }

 private:
  // Our check run found, created, or resumed where the last attempt stopped;
  // an outcome when there is nothing more to send (or sending cannot start).
  std::optional<ChannelOutcome> findOrCreate() {
    if (progress_.id == 0) {
      auto existing = findOurs();
      if (!existing) return ChannelOutcome{channel_, ChannelState::Failed, existing.error().message};
      if (!existing->is_object()) {
        auto created = create();
        if (created.state != ChannelState::Posted) return created;
        save();
        return std::nullopt;
      }
      progress_.id = idOf(*existing);
    }
    // An earlier attempt may have landed PATCHes it did not record (killed
    // between the answer and the outbox save): ask the check run itself.
    auto run = ctx_.api.get(runPath());
    if (!run || run->status / 100 != 2) return outcomeOf(channel_, run, "GET check run");
    if (textOf(jsonBody(*run), "status") == "completed") {
      progress_.done = true;
      save();
      return carried({channel_, ChannelState::AlreadyPosted, "check run " + std::to_string(progress_.id)});
    }
    auto count = annotationCount();
    if (!count) return ChannelOutcome{channel_, ChannelState::Failed, count.error().message};
    progress_.batchesDone = *count / kAnnotationsPerRequest;
    save();
    return std::nullopt;
  }

  // The annotations 50 a PATCH, the last completing the check run.
  ChannelOutcome sendBatches() {
    std::size_t batches = std::max<std::size_t>(plan_.batches.size(), 1);
    for (std::size_t i = progress_.batchesDone; i < batches; ++i) {
      json::object output{{"title", plan_.title}, {"summary", plan_.summary}};
      output["annotations"] = i < plan_.batches.size() ? plan_.batches[i] : json::array{};
      json::object body{{"output", std::move(output)}};
      if (i + 1 == batches) {
        body["status"] = "completed";
        body["conclusion"] = plan_.conclusion;
      }
      // Annotations are appended, so a PATCH whose answer was lost must not
      // be sent again if it landed: count what the check run holds.
      std::size_t expected = std::min(plan_.annotated, (i + 1) * kAnnotationsPerRequest);
      RestClient::LandedProbe landed = [this, expected]() -> Result<std::optional<HttpResponse>> {
        auto count = annotationCount();
        if (!count) return std::move(count).error();
        if (*count >= expected && expected > 0) return std::optional<HttpResponse>(HttpResponse{200, {}, "{}"});
        return std::optional<HttpResponse>();
      };
      auto r = ctx_.api.send("PATCH", runPath(), body, &landed);
      ChannelOutcome o = outcomeOf(channel_, r, "PATCH check run");
      if (o.state != ChannelState::Posted) return o;
      progress_.batchesDone = i + 1;
      save();
    }
    progress_.done = true;
    save();
    return carried({channel_, ChannelState::Posted,
                    std::to_string(plan_.annotated) + " annotation(s) in " + std::to_string(plan_.batches.size()) +
                        " batch(es), conclusion " + plan_.conclusion});
  }

  std::string runPath() const { return ctx_.repoPath() + "/check-runs/" + std::to_string(progress_.id); }

  ChannelOutcome carried(ChannelOutcome o) {
    for (const Finding& f : stage_.findings) ctx_.carried.insert(fingerprint(f));
    return o;
  }

  void save() {
    Status s = ctx_.outbox.save(ctx_.entry);
    if (!s) ctx_.log << "loopwright: " << s.error().message << "\n";
  }

  // Our check run for exactly these results, or null.
  Result<json::value> findOurs() {
    auto runs = ctx_.api.getAll(
        ctx_.repoPath() + "/commits/" + req_.headSha + "/check-runs?check_name=" + urlEncode(plan_.name), "check_runs");
    if (!runs) return std::move(runs).error();
    for (const auto& r : *runs)
      if (textOf(r, "external_id") == plan_.externalId) return r;
    return json::value(nullptr);
  }

  Result<std::size_t> annotationCount() {
    auto a = ctx_.api.getAll(runPath() + "/annotations");
    if (!a) return std::move(a).error();
    return a->size();
  }

  ChannelOutcome create() {
    json::object body{{"name", plan_.name},
                      {"head_sha", req_.headSha},
                      {"status", "in_progress"},
                      {"external_id", plan_.externalId},
                      {"output", json::object{{"title", plan_.title}, {"summary", plan_.summary}}}};
    RestClient::LandedProbe landed = [this]() -> Result<std::optional<HttpResponse>> {
      auto found = findOurs();
      if (!found) return std::move(found).error();
      if (found->is_null()) return std::optional<HttpResponse>();
      return std::optional<HttpResponse>(HttpResponse{201, {}, json::serialize(*found)});
    };
    auto r = ctx_.api.post(ctx_.repoPath() + "/check-runs", body, landed);
    ChannelOutcome o = outcomeOf(channel_, r, "POST check run");
    if (o.state == ChannelState::Posted) {
      progress_.id = idOf(jsonBody(*r));
      if (progress_.id == 0) return {channel_, ChannelState::Failed, "the created check run has no id"};
    }
    return o;
  }

  PublishContext& ctx_;
  const PublicationRequest& req_;
  const StageResult& stage_;
  CheckRunPlan plan_;
  CheckProgress& progress_;
  std::string channel_;
};

}  // namespace

std::vector<ChannelOutcome> publishChecks(PublishContext& ctx) {
  const PublicationRequest& req = ctx.request();
  if (!req.options.checks) return {{"checks", ChannelState::Skipped, "checks: false"}};
  if (req.headSha.empty()) return {{"checks", ChannelState::Skipped, "no head commit to attach check runs to"}};
  std::vector<ChannelOutcome> out;
  for (const StageResult& stage : req.stages) {
    ChannelOutcome o = CheckChannel(ctx, stage).run();
    bool denied = o.state == ChannelState::PermissionDenied;
    out.push_back(std::move(o));
    if (denied) {
      // The token cannot write checks at all; asking for each stage only
      // spends rate limit.
      for (const StageResult& s : req.stages)
        if (&s > &stage)
          out.push_back({"check: " + s.name, ChannelState::PermissionDenied, "not tried after a refusal"});
      break;
    }
  }
  return out;
}

}  // namespace lw::github
