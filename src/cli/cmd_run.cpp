// `loopwright run`: the main job. Loads the trusted taskpack, resolves every
// step's policy against the host floor, runs the stages the event selects,
// each step in its own negotiated sandbox with its own bridge, verifies what
// each did, writes run.json, and (with --publish github) publishes.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include <boost/json/serialize.hpp>

#include "cli/commands.h"
#include "cli/comment_gate.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "cli/policy_context.h"
#include "cli/pull_event.h"
#include "cli/run_session.h"
#include "cli/sarif_file.h"
#include "cli/taskpack_source.h"
#include "core/executables.h"
#include "core/file_io.h"
#include "core/json_text.h"
#include "core/step_label.h"
#include "github/actions/actions_files.h"
#include "github/actions/workflow_commands.h"
#include "github/publish/carry_forward.h"
#include "github/publish/channels/channels.h"
#include "github/publish/channels/publisher.h"
#include "github/publish/fallback.h"
#include "github/publish/outbox.h"
#include "github/publish/run_artifact.h"
#include "github/rest/live_rest_client.h"
#include "lease/open_store.h"
#include "pipeline/author/patch_branch.h"
#include "pipeline/publication_builder.h"
#include "pipeline/review/git_diff_source.h"
#include "pipeline/review/incremental_review.h"
#include "pipeline/run/run_plan.h"
#include "pipeline/run/run_setup.h"
#include "pipeline/stage_loop.h"
#include "pipeline/step/bridge_adapter.h"
#include "policy/load/taskpack_loader.h"
#include "sandbox/registry/backend_registry.h"
#include "verify/git/libgit2.h"

namespace lw::cli {
namespace fs = std::filesystem;

namespace {

// What a published run ends as: the verdict of what was published (the
// run's own findings and those earlier reviews left open), and 0 or the
// publication error's exit status.
struct PublishedRun {
  github::Verdict verdict;
  int status = 0;
};

// Publishes the run: first whatever an earlier run left in the outbox, then
// this one, with the findings earlier reviews left open counted.
PublishedRun publishRun(const pipeline::RunRecord& record, const pipeline::EventInput& event, const Taskpack& taskpack,
                        const HostConfig& host, const fs::path& repo, Io& io) {
  std::ostream& log = io.json ? io.err : io.out;
  const github::RestConfig rest = github::restConfigFromEnvironment(io.env);
  github::LiveRestClient client(rest, &log);
  github::RestClient& api = client.api();
  const std::string stateDir = pipeline::stateDirFor(host.present, host.stateDir, io.env);
  github::Outbox outbox(stateDir);
  // publication.patches: branch is pushed by this process, from this checkout.
  pipeline::GitBranchPusher pusher(pipeline::patchBranchConfigFor(repo.string(), stateDir, rest));
  github::PublisherConfig config;
  config.branchPusher = &pusher;
  // Masked again after each text is made inert: removing a hidden
  // character can join a token the step's own masking saw split.
  config.secrets = pipeline::secretValues(io.env);
  config.stepSummaryPath = io.env.get("GITHUB_STEP_SUMMARY").value_or("");
  // The outputs are the action's declared ones, written once by runMain
  // after publishing (the publisher's own set is for `loopwright publish`).
  config.outputPath.clear();
  pipeline::GitDiffSource diffs(repo.string(), event.baseSha);
  github::Publisher publisher(api, outbox, config, log, &diffs);
  auto request = pipeline::toPublicationRequest(record, *event.typed, taskpack.publication);
  github::carryOpenFindings(api, request, !record.incrementalFrom.empty(), log);
  PublishedRun published{github::concludeRun(request), 0};
  // What earlier runs of this repository left unfinished; other
  // repositories' entries in a shared state directory are not this token's.
  if (auto earlier = publisher.resumeAll(request.repo); !earlier) {
    Io errIo{io.err, io.err, io.env, false};
    reportError(errIo, earlier.error());
  }
  auto outcome = publisher.publish(request);
  if (!outcome) {
    Io errIo{io.err, io.err, io.env, false};
    published.status = reportError(errIo, outcome.error());
  }
  return published;
}

// The action's declared outputs (action.yml), each written once, after
// publishing so that `conclusion` is the job's final one.
void writeRunOutputs(const pipeline::RunRecord& record, const fs::path& runJson, int status, Io& io) {
  auto outputPath = io.env.get("GITHUB_OUTPUT");
  if (!outputPath || outputPath->empty()) return;
  std::size_t findings = 0;
  std::string blocked;
  for (const auto& stage : record.stages)
    for (const auto& s : stage.steps) {
      findings += s.findings.size();
      if (!s.blocker.empty()) blocked += (blocked.empty() ? "" : ",") + stepLabel(stage.name, s.step);
    }
  auto written = github::appendOutputs(*outputPath, {{"conclusion", status == 0 ? "success" : "failure"},
                                                     {"findings-count", std::to_string(findings)},
                                                     {"run-json", runJson.string()},
                                                     {"blocked-steps", blocked}});
  if (!written) io.err << "loopwright: " << written.error().message << "\n";
}

// Under Actions a run that publishes nothing (publish: none, dry-run) still
// shows its findings on the run page: annotations and the step summary.
void reportUnpublished(const github::PublicationRequest& request, const fs::path& runJson, Io& io) {
  if (io.env.get("GITHUB_ACTIONS").value_or("") != "true") return;
  github::PublicationOutcome outcome;
  outcome.complete = true;  // nothing was to be published, nothing is pending
  std::vector<github::FallbackItem> items;
  for (const Finding& f : github::allFindings(request)) items.push_back({f, false});
  github::FallbackPlan plan = github::planFallback(items);
  github::printFallback(io.json ? io.err : io.out, plan);
  outcome.annotations = plan.annotations;
  outcome.summaryOnly = plan.rest;
  auto summary = io.env.get("GITHUB_STEP_SUMMARY");
  if (!summary || summary->empty() || !request.options.summary) return;
  std::error_code ec;
  std::size_t used = 0;
  if (auto size = fs::file_size(*summary, ec); !ec) used = size;
  auto written =
      github::appendStepSummary(*summary, github::renderStepSummary(request, outcome, runJson.string(), used));
  if (!written) io.err << "loopwright: " << written.error().message << "\n";
}

// A pull request run that publishes nothing leaves what it would have
// published beside run.json: a fork's read-only job uploads its run
// directory, and a workflow_run job publishes it (docs/fork-pull-requests.md).
void keepUnpublishedRequest(const github::PublicationRequest& request, const fs::path& out, Io& io) {
  if (!request.isPullRequest) return;
  if (auto s = github::writeArtifactRequest(out.string(), request); !s)
    io.err << "loopwright: " << s.error().message << "\n";
}

// A comment command its author may not give (docs/comment-commands.md):
// one line in the log and the step summary, no stage runs, exit 0.
int reportCommandRefused(const std::string& refusal, Io& io) {
  (io.json ? io.err : io.out) << "::notice title=loopwright: command not run::" << github::escapeData(refusal) << "\n";
  if (auto summary = io.env.get("GITHUB_STEP_SUMMARY"); summary && !summary->empty())
    if (auto written = github::appendStepSummary(*summary, "> **Note:** " + refusal + "\n\n"); !written)
      io.err << "loopwright: " << written.error().message << "\n";
  return 0;
}

// run --sarif FILE: every accepted finding with a file, for code scanning;
// says how many it had to leave out.
Status writeSarif(const pipeline::RunRecord& record, const std::string& file, std::ostream& progress) {
  auto written = writeSarifFile(record, file);
  if (!written) return written.error();
  if (written->leftOut > 0)
    progress << "loopwright: " << written->leftOut << " finding(s) on the change as a whole are not in " << file
             << " (code scanning needs a file for each)\n";
  return Ok{};
}

// run.json, the SARIF file when asked for, and the summary (or the record as
// JSON) on stdout.
Status writeRecord(const pipeline::RunRecord& record, const fs::path& runJson, const Args& args, Io& io) {
  auto json = pipeline::toJson(record);
  if (auto s = writeFileAtomic(runJson.string(), toJsonText(json) + "\n"); !s) return s.error();
  if (auto sarif = args.value("sarif"))
    if (auto s = writeSarif(record, *sarif, io.json ? io.err : io.out); !s) return s.error();
  if (io.json) {
    printJson(io.out, json);
  } else {
    io.out << "\n" << pipeline::humanSummary(record) << "\nrun record: " << runJson.string() << "\n";
  }
  return Ok{};
}

int runMain(const Args& args, Io& io) {
  // libgit2's init parses the system CA bundle (~4 ms with mbedTLS); the
  // first baseline needs it, so it overlaps with loading and planning.
  std::jthread libgit2Init([] { verify::ensureLibGit2(); });
  std::string publish = args.value("publish").value_or("none");
  if (publish != "none" && publish != "github")
    return reportError(io, makeError(ErrorCode::UsageError, "--publish " + publish + " is not a mode",
                                     "use --publish none or --publish github"));
  auto event = pipeline::loadEventInput(args.value("event-name"), args.value("event-path"), io.env);
  if (!event) return reportError(io, event.error());
  if (auto s = completePullRequestEvent(*event, io.env, io.json ? io.err : io.out); !s)
    return reportError(io, s.error());
  auto selection = gateStages(*event, io.env, io.json ? io.err : io.out);
  if (!selection) return reportError(io, selection.error());
  if (!selection->refusal.empty()) return reportCommandRefused(selection->refusal, io);
  if (publish == "github" && !event->typed)
    return reportError(io, makeError(ErrorCode::UsageError, "--publish github needs the event payload",
                                     "give --event-path (under Actions GITHUB_EVENT_PATH is used)"));
  auto executed = executeRun(args, *event, selection->eventName, selection->action, io);
  if (!executed) return reportError(io, executed.error());
  const RunInputs& in = executed->inputs;
  const pipeline::RunRecord& record = executed->record;
  const fs::path& out = executed->out;

  const fs::path runJson = out / "run.json";
  if (auto s = writeRecord(record, runJson, args, io); !s) return reportError(io, s.error());
  int status = 0;
  if (publish == "github") {
    // Judged as published: with the findings earlier reviews left open.
    const PublishedRun published = publishRun(record, *event, in.taskpack, in.host, in.repo, io);
    status = exitStatusFor(published.verdict);
    if (published.status != 0 && status == 0) status = published.status;
  } else {
    // Judged once: the request reported and kept carries that conclusion.
    std::optional<github::PublicationRequest> request;
    if (event->typed) request = pipeline::toPublicationRequest(record, *event->typed, in.taskpack.publication);
    status = exitStatusFor(request ? github::concludeRun(*request)
                                   : pipeline::judgeRecord(record, in.taskpack.publication.failOn));
    if (request) {
      reportUnpublished(*request, runJson, io);
      keepUnpublishedRequest(*request, out, io);
    }
  }
  writeRunOutputs(record, runJson, status, io);
  return status;
}

}  // namespace

Command runCommand() {
  Command c;
  c.name = "run";
  c.summary = "run the taskpack's pipeline on an event, each step sandboxed and verified";
  c.usage =
      "[--taskpack P] [--event-name N --event-path F] [--repo DIR] [--out DIR] [--sarif FILE] [--publish none|github]"
      " [--fail-on error|warning|never]";
  c.description =
      "Selects the stages whose `on:` matches the event, runs their steps (concurrently\n"
      "where they cannot write the working tree), verifies each with libgit2 and writes\n"
      "run.json to --out (default $RUNNER_TEMP/loopwright/<run> or /tmp/loopwright/<run>).\n"
      "Under GITHUB_ACTIONS=true the event comes from GITHUB_EVENT_NAME/GITHUB_EVENT_PATH.\n"
      "For pull_request events the taskpack is read from the base commit.";
  c.options = {{"taskpack", "P", "a taskpack file to use as is (local runs; skips the base-commit rule)"},
               {"taskpack-path", "REL", "the taskpack's path in the repository (default .loopwright/taskpack.yaml)"},
               {"event-name", "N", "EVENT or EVENT.ACTION (pull_request.opened, workflow_dispatch)"},
               {"event-path", "F", "the webhook payload (JSON)"},
               {"repo", "DIR", "the repository checkout (default .)"},
               {"out", "DIR", "where run.json, logs and outputs go (outside the repository)"},
               {"sarif", "FILE", "also write every accepted finding to FILE as SARIF 2.1.0 (GitHub code scanning)"},
               {"publish", "MODE", "none (default) or github: review, checks, summary, outputs"},
               {"fail-on", "LEVEL", "error, warning or never: overrides the taskpack's publication.failOn"}};
  c.run = runMain;
  return c;
}

}  // namespace lw::cli
