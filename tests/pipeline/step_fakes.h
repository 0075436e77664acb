// Fakes of a sandbox backend, its process and a step's bridge, so that
// runStep is tested as ninja tests its builder with a fake command runner:
// no sandbox, no socket, and time moved by hand (guard::ManualClock).
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "guard/clock.h"
#include "pipeline/step/step_runner.h"
#include "sandbox/backend.h"
#include "support/temp_dir.h"

namespace lw::test {

// What the fake step "does": how long it runs on the manual clock, how it
// ends, what it prints, and what it writes into its out dir.
struct FakeStepScript {
  std::chrono::milliseconds runs{10};
  bool runsPastDeadline = false;  // wait() returns timedOut at the deadline
  int exitCode = 0;
  std::string stdoutText, stderrText;
  std::vector<std::pair<std::string, std::string>> outFiles;    // name, content
  std::vector<std::pair<std::string, std::string>> repoWrites;  // path in the repo, content
};

class FakeProcess final : public sandbox::process::RunningProcess {
 public:
  FakeProcess(guard::ManualClock& clock, FakeStepScript script, sandbox::StepSpec spec)
      : clock_(clock), script_(std::move(script)), spec_(std::move(spec)) {
    out_.data = script_.stdoutText;
    out_.totalBytes = out_.data.size();
    err_.data = script_.stderrText;
    err_.totalBytes = err_.data.size();
  }
  // No real process: a pid above the kernel's PID_MAX_LIMIT (4194304), so
  // that a kill on a guardrail stop reaches nothing (never 0 or -1, which
  // would signal a process group or every process of this user).
  int pid() const override { return 0x3fffffff; }
  sandbox::process::ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    for (const auto& [name, content] : script_.outFiles) writeAt(spec_.outDir / name, content);
    for (const auto& [name, content] : script_.repoWrites) writeAt(spec_.workspace / name, content);
    sandbox::process::ExitInfo exit;
    if (script_.runsPastDeadline && deadline) {
      clock_.advance(*deadline - clock_.now());
      exit.timedOut = true;
      exit.signal = 9;
    } else {
      clock_.advance(script_.runs);
      exit.exitCode = script_.exitCode;
    }
    return exit;
  }
  void kill() override {}
  const std::vector<std::string>& planNotes() const override { return notes_; }
  const sandbox::process::CapturedStream& stdoutData() const override { return out_; }
  const sandbox::process::CapturedStream& stderrData() const override { return err_; }

 private:
  static void writeAt(const std::filesystem::path& p, const std::string& content) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content;
  }
  guard::ManualClock& clock_;
  FakeStepScript script_;
  sandbox::StepSpec spec_;
  sandbox::process::CapturedStream out_, err_;
  std::vector<std::string> notes_{"protected path .git/hooks reached through a symlink: not bound"};
};

class FakeBackend final : public sandbox::Backend {
 public:
  FakeBackend(guard::ManualClock& clock, sandbox::BackendTraits traits, FakeStepScript script)
      : clock_(clock), traits_(traits), script_(std::move(script)) {}
  BackendId id() const override { return BackendId::LinuxBwrap; }
  sandbox::BackendTraits traits() const override { return traits_; }
  const sandbox::ProbeReport& probe() override { return report_; }
  Result<std::unique_ptr<sandbox::process::RunningProcess>> launch(const sandbox::StepSpec& spec) override {
    launched = spec;
    if (launchError) return *launchError;
    return std::unique_ptr<sandbox::process::RunningProcess>(std::make_unique<FakeProcess>(clock_, script_, spec));
  }
  std::optional<sandbox::StepSpec> launched;  // the spec launch() was given
  std::optional<Error> launchError;

 private:
  guard::ManualClock& clock_;
  sandbox::BackendTraits traits_;
  FakeStepScript script_;
  sandbox::ProbeReport report_;
};

class FakeBridge final : public pipeline::BridgeHandle {
 public:
  FakeBridge(int fd, pipeline::BridgeOutcome outcome) : fd_(fd), outcome_(std::move(outcome)) {}
  int stepFd() const override { return closed_ ? -1 : fd_; }
  void closeStepEnd() override { closed_ = true; }
  pipeline::BridgeOutcome finish() override { return outcome_; }

 private:
  int fd_;
  bool closed_ = false;
  pipeline::BridgeOutcome outcome_;
};

// A bridge factory handing out FakeBridges with `outcome`; records the
// socket path it was asked to listen on.
struct FakeBridgeFactory {
  pipeline::BridgeOutcome outcome;
  std::optional<std::string> socketPath;  // set when the factory was called
  std::optional<Error> error;
  pipeline::BridgeFactory factory() {
    return [this](const pipeline::PlannedStep&, const pipeline::RunContext&, std::function<void(const guard::Event&)>,
                  const std::string& socket) -> Result<std::unique_ptr<pipeline::BridgeHandle>> {
      socketPath = socket;
      if (error) return *error;
      return std::unique_ptr<pipeline::BridgeHandle>(std::make_unique<FakeBridge>(socket.empty() ? 42 : -1, outcome));
    };
  }
};

// A scratch run: a committed git repository, an out root, an event file and
// an engine beside a fake `loopwright`, with a manual clock.
struct FakeRun {
  TempDir dir;
  guard::ManualClock clock;
  Environment env{std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"}}};
  pipeline::RunContext ctx;
  Step step;
  pipeline::PlannedStep planned;

  FakeRun() {
    const auto repo = dir.root / "repo";
    dir.write("repo/README.md", "hello\n");
    dir.write("repo/src/a.txt", "a\n");
    const std::string git = "cd '" + repo.string() +
                            "' && git init -q -b main && git add -A && "
                            "git -c user.name=t -c user.email=t@invalid commit -qm base";
    if (std::system(git.c_str()) != 0) throw std::runtime_error("git init failed");
    ctx.runId = "r1";
    ctx.repo = repo;
    ctx.outRoot = dir.root / "out";
    ctx.eventFile = dir.write("event.json", "{}");
    ctx.selfExe = dir.write("bin/loopwright", "");
    dir.write("bin/loopwright-engine", "");
    ctx.env = &env;
    ctx.secrets = std::make_shared<verify::SecretScanner>(std::vector<std::string>{"s3cr3t-value"});
    ctx.clock = &clock;
    step.name = "check";
    step.run = {"/bin/true"};
    planned.step = &step;
    planned.policy.stage = "review";
    planned.policy.step = "check";
    planned.policy.limits.wallTimeMs = 1500;
  }

  pipeline::StepRecord run(FakeBackend& backend, FakeBridgeFactory& bridges,
                           Result<sandbox::Negotiated> negotiated = sandbox::Negotiated{}) {
    pipeline::StepBaseline baseline(ctx.repo, dir.root / "baseline.store");
    return pipeline::runStep(planned, negotiated, &backend, baseline, ctx, bridges.factory());
  }
};

}  // namespace lw::test
