#include "sandbox/seatbelt/seatbelt_backend.h"

#if defined(__APPLE__)

#include <unistd.h>

#include <filesystem>
#include <optional>

#include "core/executables.h"
#include "sandbox/process/posix/cleanup_canary.h"
#include "sandbox/seatbelt/sbpl_profile.h"

namespace lw::sandbox::seatbelt {
namespace {

namespace fs = std::filesystem;

// Observed, not assumed: a profile that denies writing one file must make
// sandbox-exec's child fail to create it.
std::optional<std::string> canaryFailure() {
  std::error_code ec;
  const fs::path dir = fs::temp_directory_path(ec) / ("lw-seatbelt-probe-" + std::to_string(::getpid()));
  fs::create_directories(dir, ec);
  const fs::path real = fs::weakly_canonical(dir, ec);
  const fs::path canary = real / "canary";
  const std::string profile =
      "(version 1)\n(allow default)\n(deny file-write* (subpath " + sbplQuote(real.string()) + "))\n";
  process::SpawnRequest req;
  req.argv = sandboxExecArgv(profile, {"/usr/bin/touch", canary.string()});
  req.env = {{"PATH", "/usr/bin:/bin"}};
  std::optional<std::string> failure;
  auto p = process::spawn(req);
  if (!p) {
    failure = "sandbox-exec could not be started: " + p.error().message;
  } else {
    const auto exit = p.value()->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
    if (fs::exists(canary, ec))
      failure = "sandbox-exec ran but did not enforce a file-write deny";
    else if (exit.exitCode == 0)
      failure = "sandbox-exec's canary exited 0 without writing: cannot tell";
  }
  fs::remove_all(dir, ec);
  return failure;
}

// The POSIX launcher's tree cleanup (process/posix), as its canary saw it:
// macOS has no subreaper or pid namespace, so descendants are followed by
// their inherited mark, kqueue fork events and the process table.
SupportStatus cleanupSupport() {
  const auto loopwright = siblingExecutable(kFrontExecutable);
  std::error_code ec;
  const auto scratch = fs::temp_directory_path(ec) / ("lw-seatbelt-cleanup-" + std::to_string(::getpid()));
  const auto failure = process::posix::daemonSurvivesCleanup(loopwright, scratch);
  if (failure) return {Support::Partial, process::posix::kCleanupWithoutCanary + *failure};
  return {Support::Enforced, process::posix::kCleanupSeenToHold};
}

class SeatbeltBackend final : public Backend {
 public:
  BackendId id() const override { return BackendId::MacosSeatbelt; }
  BackendTraits traits() const override { return {}; }

  const ProbeReport& probe() override {
    if (report_) return *report_;
    ProbeReport r;
    r.backend = BackendId::MacosSeatbelt;
    std::optional<std::string> failure;
    if (::access(std::string(kSandboxExec).c_str(), X_OK) != 0)
      failure = std::string(kSandboxExec) + " is missing or not executable";
    else
      failure = canaryFailure();
    if (failure) {
      r.unavailableReason = *failure;
      for (Capability c : kAllCapabilities) r.capabilities[c] = {Support::Absent, *failure};
      for (NetworkMode m : kAllNetworkModes) r.networkModes[m] = {Support::Absent, *failure};
      report_ = r;
      return *report_;
    }
    r.available = true;
    r.version = "sandbox-exec (SBPL version 1)";
    using C = Capability;
    r.capabilities[C::FilesystemReadContainment] = {Support::Enforced,
                                                    "SBPL file-read* on system paths and the step's trees only"};
    r.capabilities[C::FilesystemWriteContainment] = {Support::Enforced,
                                                     "SBPL file-write* on the writable scope and the out dir only"};
    r.capabilities[C::ProtectedPathReadOnlyMask] = {Support::Enforced,
                                                    "SBPL denies after the allows; ancestors pinned, file-link denied"};
    r.capabilities[C::NetworkIsolation] = {Support::Enforced, "SBPL network rules"};
    r.capabilities[C::ProcessTreeCleanup] = cleanupSupport();
    r.capabilities[C::SyscallFiltering] = {Support::Absent, "SBPL filters operations, not system calls"};
    r.networkModes[NetworkMode::None] = {Support::Enforced, "(deny network*)"};
    r.networkModes[NetworkMode::LoopbackOnly] = {
        Support::Partial, "no network namespace on macOS: the host's loopback services are reachable"};
    r.networkModes[NetworkMode::AllowOutbound] = {Support::Partial,
                                                  "the resolver's socket stays reachable and SBPL cannot refuse cloud "
                                                  "metadata addresses"};
    r.networkModes[NetworkMode::AllowList] = {Support::Absent, "no egress relay on macOS yet"};
    report_ = r;
    return *report_;
  }

  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override {
    if (!probe().available)
      return makeError(ErrorCode::SandboxBackendUnavailable, "macos-seatbelt: " + report_->unavailableReason, {},
                       "macos-seatbelt");
    const StepSpec canon = canonicalSpec(spec);
    auto profile = sbplProfile(SbplInput{canon});
    if (!profile) return profile.error();
    process::SpawnRequest req;
    req.argv = sandboxExecArgv(*profile, spec.argv);
    req.env = spec.env;
    req.cwd = (canon.workdir.empty() ? canon.workspace : canon.workdir).string();
    req.passFd = spec.passFd;
    req.maxOutputBytes = spec.maxOutputBytes;
    req.onOutput = spec.onOutput;
    return process::spawn(req);
  }

 private:
  std::optional<ProbeReport> report_;
};

}  // namespace

std::unique_ptr<Backend> makeSeatbeltBackend(const Environment&) { return std::make_unique<SeatbeltBackend>(); }

}  // namespace lw::sandbox::seatbelt

#endif
