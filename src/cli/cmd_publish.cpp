// `loopwright publish --resume [--state-dir DIR]`: finishes the publications
// left in the outbox by a run that was interrupted or could not reach
// GitHub. `--request FILE` publishes a publication request written as JSON
// (the form the outbox stores). `--from-artifact DIR` publishes what a fork
// pull request's read-only job left in its artifact, in a workflow_run job
// (docs/fork-pull-requests.md). GITHUB_TOKEN, GITHUB_API_URL,
// GITHUB_STEP_SUMMARY and GITHUB_OUTPUT come from the environment.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <boost/json.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/policy_context.h"
#include "core/file_io.h"
#include "github/actions/workflow_run.h"
#include "github/publish/artifact_bounds.h"
#include "github/publish/channels/publisher.h"
#include "github/publish/run_artifact.h"
#include "github/rest/base_taskpack.h"
#include "github/rest/live_rest_client.h"
#include "github/rest/pulls.h"
#include "pipeline/author/patch_branch.h"
#include "pipeline/run/run_setup.h"

namespace lw::cli {

namespace {

namespace json = boost::json;

json::value outcomeJson(const github::PublicationOutcome& o) {
  json::array channels;
  for (const auto& c : o.channels)
    channels.push_back(
        json::object{{"channel", c.channel}, {"state", github::toString(c.state)}, {"detail", c.detail}});
  return json::object{{"id", o.id},
                      {"complete", o.complete},
                      {"permissionDenied", o.permissionDenied},
                      {"channels", std::move(channels)},
                      {"annotations", o.annotations.size()},
                      {"summaryOnly", o.summaryOnly.size()}};
}

Result<github::PublicationRequest> readRequest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(ErrorCode::UsageError, "cannot read '" + path + "'", "--request names a JSON file", path);
  std::ostringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  json::value v = json::parse(text.str(), ec);
  if (ec) return makeError(ErrorCode::UsageError, "'" + path + "' is not JSON: " + ec.message(), {}, path);
  auto r = github::publicationFromJson(v);
  if (!r) {
    Error e = std::move(r).error();
    e.code = ErrorCode::UsageError;
    e.subject = path;
    if (e.location) e.location->file = path;
    return e;
  }
  return r;
}

// The artifact's request, once the workflow_run event and the pull request
// as the API has it now agree with it (github/publish/run_artifact.h), bounded by
// and published as the taskpack of the pull request's base commit says
// (github/publish/artifact_bounds.h). Only reads: nothing is posted before this.
Result<github::PublicationRequest> admittedArtifact(const std::string& dir, const Args& args, github::RestClient& api,
                                                    const Environment& env) {
  auto path = repositoryTaskpackPath(args);
  if (!path) return std::move(path).error();
  auto run = github::loadWorkflowRun(env);
  if (!run) return std::move(run).error();
  auto doc = github::readArtifactDocument(dir);
  if (!doc) return std::move(doc).error();
  auto pull = github::fetchPull(api, run->repository, doc->number);
  if (!pull) return std::move(pull).error();
  auto base =
      github::fetchBaseTaskpack(api, run->repository, pull->baseSha, *path, TaskpackLoadOptions{currentUserHome()});
  if (!base) return std::move(base).error();
  const github::ArtifactCaps caps = github::artifactCapsOf(*base, github::kArtifactEvent);
  // Checked on the document first: an artifact over the caps is refused
  // without building its request, the costly part of reading a large one.
  if (auto s = github::checkCaps(github::shapeOf(doc->json, doc->bytes), caps); !s) return std::move(s).error();
  auto request = github::artifactRequestOf(*doc);
  if (!request) return std::move(request).error();
  auto admitted = github::admitArtifact(std::move(request).value(), *run, *pull);
  if (!admitted) return admitted;
  return github::boundByBaseTaskpack(std::move(admitted).value(), doc->bytes, caps);
}

// Exactly one of the three sources.
Status checkSource(bool resume, bool request, bool artifact) {
  if (int(resume) + int(request) + int(artifact) == 1) return Ok{};
  return makeError(ErrorCode::UsageError, "give exactly one of --resume, --request FILE and --from-artifact DIR",
                   "loopwright publish --resume [--state-dir DIR]");
}

// --state-dir, else the host config's.
Result<std::string> stateDirFrom(const Args& args, const Environment& env) {
  if (auto d = args.value("state-dir")) return *d;
  auto host = loadHostConfigFrom(env);
  if (!host) return host.error();
  return host->stateDir;
}

void printOutcomes(const std::vector<github::PublicationOutcome>& outcomes, const github::Outbox& outbox, Io& io) {
  if (io.json) {
    json::array a;
    for (const auto& o : outcomes) a.push_back(outcomeJson(o));
    printJson(io.out, json::object{{"publications", std::move(a)}});
  } else if (outcomes.empty()) {
    io.out << "loopwright: the outbox in " << outbox.dir() << " is empty\n";
  } else {
    for (const auto& o : outcomes) {
      io.out << "loopwright: publication " << o.id << ": " << (o.complete ? "published" : "published with fallbacks")
             << "\n";
      for (const auto& ch : o.channels)
        io.out << "  " << ch.channel << ": " << github::toString(ch.state)
               << (ch.detail.empty() ? "" : " (" + ch.detail + ")") << "\n";
    }
  }
}

int publishMain(const Args& args, Io& io) {
  bool resume = args.flag("resume");
  auto requestFile = args.value("request");
  auto artifactDir = args.value("from-artifact");
  if (auto s = checkSource(resume, requestFile.has_value(), artifactDir.has_value()); !s)
    return reportError(io, s.error());
  auto stateDir = stateDirFrom(args, io.env);
  if (!stateDir) return reportError(io, stateDir.error());
  // Workflow commands must reach the runner; under --json stdout is the
  // JSON document, so they go to stderr, which the runner also reads.
  std::ostream& log = io.json ? io.err : io.out;
  const github::RestConfig rest = github::restConfigFromEnvironment(io.env);
  github::LiveRestClient client(rest, &log);
  github::RestClient& api = client.api();
  github::Outbox outbox(*stateDir);
  // A pending branch (publication.patches: branch) is pushed from the job's
  // checkout, GITHUB_WORKSPACE (else the current directory).
  pipeline::GitBranchPusher pusher(pipeline::patchBranchConfigFor(
      io.env.get("GITHUB_WORKSPACE").value_or(std::filesystem::current_path().string()), *stateDir, rest));
  github::PublisherConfig config;
  config.stepSummaryPath = io.env.get("GITHUB_STEP_SUMMARY").value_or("");
  config.outputPath = io.env.get("GITHUB_OUTPUT").value_or("");
  config.branchPusher = &pusher;
  config.secrets = pipeline::secretValues(io.env);
  github::Publisher publisher(api, outbox, config, log);

  std::vector<github::PublicationOutcome> outcomes;
  if (resume) {
    auto r = publisher.resumeAll();
    if (!r) return reportError(io, r.error());
    outcomes = std::move(r).value();
  } else {
    auto request = artifactDir ? admittedArtifact(*artifactDir, args, api, io.env) : readRequest(*requestFile);
    if (!request) return reportError(io, request.error());
    auto r = publisher.publish(*request);
    if (!r) return reportError(io, r.error());
    outcomes.push_back(std::move(r).value());
  }
  printOutcomes(outcomes, outbox, io);
  return 0;
}

}  // namespace

Command publishCommand() {
  Command c;
  c.name = "publish";
  c.summary = "publish results to GitHub, or finish what the outbox holds";
  c.usage =
      "--resume [--state-dir DIR] | --request FILE [--state-dir DIR] | --from-artifact DIR [--taskpack-path REL] "
      "[--state-dir DIR]";
  c.description =
      "--resume publishes every pending entry of <state dir>/outbox without posting\n"
      "anything twice. --request publishes one publication request (JSON).\n"
      "--from-artifact publishes the publication.json of a pull_request job's run\n"
      "directory in a workflow_run job, only while its head is the pull request's, and\n"
      "only within the caps of the taskpack of the pull request's base commit. Uses\n"
      "GITHUB_TOKEN and GITHUB_API_URL; writes GITHUB_STEP_SUMMARY and GITHUB_OUTPUT\n"
      "when set. Exits 6 when a publication could not be finished (it stays in the outbox).";
  c.options = {{"resume", "", "publish the pending outbox entries"},
               {"request", "FILE", "publish this publication request"},
               {"from-artifact", "DIR", "publish a pull_request job's run directory (workflow_run jobs)"},
               {"taskpack-path", "REL",
                "with --from-artifact: the taskpack's path in the base commit (default .loopwright/taskpack.yaml)"},
               {"state-dir", "DIR", "the state directory (default: the host config's)"}};
  c.run = publishMain;
  return c;
}

}  // namespace lw::cli
