#include "pipeline/author/validate_run.h"

#include <sys/stat.h>

#include <chrono>

#include "core/file_io.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

// What the step had that the validate command must not: its bridge, the
// event, loopwright's own binary.
constexpr const char* kStepOnlyVariables[] = {"LOOPWRIGHT_BRIDGE", "LOOPWRIGHT_EVENT", "LOOPWRIGHT_BIN"};

std::optional<std::string> makeValidateDirs(const ValidateLayout& layout) {
  std::error_code ec;
  fs::create_directories(layout.outDir, ec);
  if (ec) return "cannot create " + layout.outDir.string() + ": " + ec.message();
  ::chmod(layout.dir.c_str(), 0700);
  return std::nullopt;
}

std::size_t writeMasked(const verify::SecretScanner& scanner, const std::string& text, const fs::path& path) {
  auto scan = scanner.scanAndMask(text);
  (void)writeFileAtomic(path.string(), scan.masked, /*sync=*/false);
  return scan.hits.size();
}

bool exitedCleanly(const sandbox::process::ExitInfo& exit) {
  return !exit.timedOut && exit.signal == 0 && exit.exitCode == 0 && exit.supervisorLost.empty();
}

}  // namespace

ValidateLayout validateLayout(const fs::path& stepDir) {
  ValidateLayout l;
  l.dir = stepDir / "validate";
  l.outDir = l.dir / "out";
  l.stdoutLog = l.dir / "stdout.log";
  l.stderrLog = l.dir / "stderr.log";
  return l;
}

sandbox::StepSpec planValidate(const StepPlan& step, const std::vector<std::string>& argv) {
  sandbox::StepSpec spec = step.spec;
  const ValidateLayout layout = validateLayout(step.layout.stepDir);
  spec.argv = argv;
  spec.workspaceWritable = true;  // a build writes in the worktree; the patch was captured before
  spec.writablePaths.clear();
  spec.workdir = spec.workspace;
  spec.outDir = layout.outDir;
  spec.network = NetworkMode::None;
  spec.passFd.reset();
  spec.onOutput = nullptr;
  for (const char* name : kStepOnlyVariables) spec.env.erase(name);
  spec.env["LOOPWRIGHT_OUT"] = layout.outDir.string();
  spec.env["HOME"] = layout.outDir.string();
  return spec;
}

ValidationRun runValidation(sandbox::Backend& backend, const sandbox::StepSpec& spec, const ValidateLayout& layout,
                            std::int64_t wallTimeMs, const verify::SecretScanner& scanner) {
  ValidationRun run;
  run.command = spec.argv;
  run.wallTimeMs = wallTimeMs;
  run.stdoutPath = layout.stdoutLog.string();
  run.stderrPath = layout.stderrLog.string();
  if (auto failed = makeValidateDirs(layout)) {
    run.error = *failed;
    return run;
  }
  const auto started = std::chrono::steady_clock::now();
  auto process = backend.launch(spec);
  if (!process) {
    run.error = process.error().message;
    return run;
  }
  const sandbox::process::ExitInfo exit = (*process)->wait(started + std::chrono::milliseconds(wallTimeMs));
  run.durationMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  run.exitStatus = exit.status();
  run.timedOut = exit.timedOut;
  run.passed = exitedCleanly(exit);
  run.secretsMasked = writeMasked(scanner, (*process)->stdoutData().data, layout.stdoutLog) +
                      writeMasked(scanner, (*process)->stderrData().data, layout.stderrLog);
  return run;
}

}  // namespace lw::pipeline
