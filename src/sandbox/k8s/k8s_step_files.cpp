#include "sandbox/k8s/k8s_step_files.h"

#include "core/file_io.h"
#include "sandbox/k8s/k8s_bridge_relay.h"

namespace lw::sandbox::k8s {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxEventBytes = std::size_t{16} << 20;
constexpr std::size_t kMaxInitBytes = std::size_t{32} << 20;

// The event the step is shown, when its LOOPWRIGHT_EVENT names a file here.
Status carryEvent(StepFiles& out) {
  auto named = out.spec.env.find("LOOPWRIGHT_EVENT");
  std::error_code ec;
  if (named == out.spec.env.end() || !fs::is_regular_file(named->second, ec)) return Ok{};
  auto event = readBoundedFile(named->second, kMaxEventBytes, ErrorCode::SandboxLaunchFailed);
  if (!event) return event.error();
  out.files.push_back({fs::path(kEventInPod).filename().string(), std::move(*event), false});
  named->second = kEventInPod;
  return Ok{};
}

// loopwright-container-init, which the pod runs for its bridge or its egress; the node must be of its architecture.
Status carryInit(StepFiles& out, const fs::path& initBinary, const std::string& what) {
  std::error_code ec;
  if (initBinary.empty() || !fs::is_regular_file(initBinary, ec))
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "loopwright-container-init is not installed beside loopwright (" + initBinary.string() +
                         "): " + what + " cannot be carried into the pod",
                     "install loopwright-container-init beside loopwright", "k8s-pod");
  auto init = readBoundedFile(initBinary.string(), kMaxInitBytes, ErrorCode::SandboxLaunchFailed);
  if (!init) return init.error();
  out.files.push_back({fs::path(kInitInPod).filename().string(), std::move(*init), true});
  out.nodeArch = runnerArch();
  return Ok{};
}

void carryBridge(StepFiles& out, const std::string& filter) {
  out.files.push_back({fs::path(kFilterInPod).filename().string(), filter, false});
  out.spec.argv = throughInit(out.spec.argv);
  out.spec.env["LOOPWRIGHT_BRIDGE"] = kBridgeSocketInPod;
}

}  // namespace

std::string runnerArch() {
#if defined(__x86_64__)
  return "amd64";
#elif defined(__aarch64__)
  return "arm64";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
  return "ppc64le";
#elif defined(__s390x__)
  return "s390x";
#else
  return "";
#endif
}

Result<StepFiles> stepFilesFor(const StepSpec& spec, const fs::path& initBinary, const std::string& filter) {
  StepFiles out{spec, {}, ""};
  if (Status event = carryEvent(out); !event) return event.error();
  const bool egress = spec.network == NetworkMode::AllowList;
  if (spec.passFd || egress)
    if (Status init = carryInit(out, initBinary, spec.passFd ? "the bridge" : "the egress relay"); !init)
      return init.error();
  if (spec.passFd) carryBridge(out, filter);
  return out;
}

}  // namespace lw::sandbox::k8s
