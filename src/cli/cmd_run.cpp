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
#include "cli/policy_context.h"
#include "cli/report.h"
#include "core/file_io.h"
#include "pipeline/bridge_adapter.h"
#include "pipeline/plan.h"
#include "pipeline/run.h"
#include "pipeline/run_setup.h"
#include "pipeline/taskpack_source.h"
#include "policy/taskpack_loader.h"
#include "sandbox/registry.h"

namespace lw::cli {
namespace fs = std::filesystem;

namespace {

std::string isoNow() {
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buf;
}

// The taskpack to trust: --taskpack when given; for pull requests the base
// commit's; otherwise the working tree's.
Result<Taskpack> loadTrustedTaskpack(const Args& args, const fs::path& repo,
                                     const pipeline::EventInput& event) {
  TaskpackLoadOptions options{currentUserHome()};
  if (args.value("taskpack")) return loadTaskpack(*args.value("taskpack"), options);
  if (pipeline::isPullRequestEvent(event.name) && !event.baseSha.empty()) {
    auto text = pipeline::readTaskpackAtCommit(repo.string(), event.baseSha,
                                               std::string(kDefaultTaskpackPath));
    if (!text) return text.error();
    return parseTaskpack(text->text, text->source, options);
  }
  return loadTaskpack((repo / kDefaultTaskpackPath).string(), options);
}

int runMain(const Args& args, Io& io) {
  std::string publish = args.value("publish").value_or("none");
  if (publish != "none")
    return reportError(io, makeError(ErrorCode::UsageError, "--publish " + publish + " is not supported",
                                     "use --publish none; publication to GitHub is `loopwright publish`"));
  auto event = pipeline::loadEventInput(args.value("event-name"), args.value("event-path"), io.env);
  if (!event) return reportError(io, event.error());

  std::error_code ec;
  fs::path repo = fs::canonical(args.value("repo").value_or("."), ec);
  if (ec)
    return reportError(io, makeError(ErrorCode::UsageError,
                                     "repository " + args.value("repo").value_or(".") + " not found",
                                     "give --repo the checkout to run on"));
  auto host = loadHostConfigFrom(io.env);
  if (!host) return reportError(io, host.error());
  auto taskpack = loadTrustedTaskpack(args, repo, *event);
  if (!taskpack) return reportError(io, taskpack.error());
  auto policies = resolvePolicies(*taskpack, *host, resolveContextFrom(io.env));
  if (!policies) return reportError(io, policies.error());

  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  pipeline::RunPlan plan = pipeline::buildPlan(*taskpack, *policies, event->name, event->action, cores);

  std::string runId = pipeline::makeRunId(io.env);
  auto out = pipeline::prepareOutDir(args.value("out"), repo, runId, io.env);
  if (!out) return reportError(io, out.error());

  pipeline::RunContext ctx;
  ctx.runId = runId;
  ctx.repo = repo;
  ctx.outRoot = *out;
  ctx.eventFile = *out / "event.json";
  if (auto s = writeFileAtomic(ctx.eventFile.string(), event->payloadText); !s)
    return reportError(io, s.error());
  ::chmod(ctx.eventFile.c_str(), 0444);
  ctx.event = event->payload;
  ctx.selfExe = fs::read_symlink("/proc/self/exe", ec);
  ctx.env = &io.env;
  ctx.secrets = pipeline::secretValues(io.env);

  auto backends = sandbox::makeBackends(io.env);
  auto bridges = pipeline::makeBridgeFactory(*taskpack, io.env);
  auto started = std::chrono::steady_clock::now();
  std::ostream& progress = io.json ? io.err : io.out;
  pipeline::RunRecord record = pipeline::runPlan(plan, backends, ctx, bridges, progress);
  record.runId = runId;
  record.taskpack = taskpack->file;
  record.eventName = event->name;
  record.eventAction = event->action;
  record.repo = repo.string();
  record.startedAt = isoNow();
  record.durationMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - started).count();

  auto json = pipeline::toJson(record);
  fs::path runJson = *out / "run.json";
  if (auto s = writeFileAtomic(runJson.string(), boost::json::serialize(json) + "\n"); !s)
    return reportError(io, s.error());
  if (io.json) {
    printJson(io.out, json);
  } else {
    io.out << "\n" << pipeline::humanSummary(record) << "\nrun record: " << runJson.string() << "\n";
  }
  return pipeline::exitCodeOf(record, taskpack->publication.failOn);
}

}  // namespace

Command runCommand() {
  Command c;
  c.name = "run";
  c.summary = "run the taskpack's pipeline on an event, each step sandboxed and verified";
  c.usage = "[--taskpack P] [--event-name N --event-path F] [--repo DIR] [--out DIR] [--publish none]";
  c.description =
      "Selects the stages whose `on:` matches the event, runs their steps (concurrently\n"
      "where they cannot write the working tree), verifies each with libgit2 and writes\n"
      "run.json to --out (default $RUNNER_TEMP/loopwright/<run> or /tmp/loopwright/<run>).\n"
      "Under GITHUB_ACTIONS=true the event comes from GITHUB_EVENT_NAME/GITHUB_EVENT_PATH.\n"
      "For pull_request events the taskpack is read from the base commit.";
  c.options = {{"taskpack", "P", "the taskpack file (default: the trusted one, see above)"},
               {"event-name", "N", "EVENT or EVENT.ACTION (pull_request.opened, workflow_dispatch)"},
               {"event-path", "F", "the webhook payload (JSON)"},
               {"repo", "DIR", "the repository checkout (default .)"},
               {"out", "DIR", "where run.json, logs and outputs go (outside the repository)"},
               {"publish", "MODE", "none (default)"}};
  c.run = runMain;
  return c;
}

}  // namespace lw::cli
