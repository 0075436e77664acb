#include "sandbox/gvisor/gvisor_container.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>

#include <boost/json.hpp>

#include "sandbox/gvisor/gvisor_probe.h"

namespace lw::sandbox::gvisor {
namespace {

namespace fs = std::filesystem;

bool emptyDir(const fs::path& dir) {
  std::error_code ec;
  return fs::is_empty(dir, ec) || ec;
}

// runsc --log holds runsc's own errors, one JSON object per line
// ({"msg": …, "level": "error"}); empty when the sandbox ran.
std::optional<Error> launchFailureIn(const fs::path& log) {
  std::ifstream in(log);
  std::string first;
  if (!std::getline(in, first) || first.empty()) return std::nullopt;
  boost::system::error_code ec;
  const boost::json::value line = boost::json::parse(first, ec);
  const boost::json::value* msg = !ec && line.is_object() ? line.as_object().if_contains("msg") : nullptr;
  std::string message = msg != nullptr && msg->is_string() ? std::string(msg->get_string()) : first;
  constexpr std::size_t kExcerpt = 400;
  if (message.size() > kExcerpt) message = message.substr(0, kExcerpt) + "…";
  return makeError(ErrorCode::SandboxLaunchFailed,
                   "runsc could not start the step's gVisor sandbox: " + diagnoseRunscFailure(message),
                   "run `loopwright qualify` on this runner; docs/isolation-levels.md says how to install gVisor",
                   "linux-gvisor");
}

// runsc kill + delete of whatever container `state` still holds. Whether
// the state is empty afterwards: runsc's record of the container gone.
bool deleteContainer(const std::string& runscPath, const Scratch& scratch) {
  // runsc run deletes its container when it ends; state left behind means
  // it was killed (a timeout, a kill, loopwright's own death).
  if (!runscPath.empty() && !emptyDir(scratch.state)) {
    process::SpawnRequest del;
    del.argv = {runscPath, "--root", scratch.state.string(), "delete", "--force", scratch.container};
    if (auto p = process::spawn(del)) (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  }
  return emptyDir(scratch.state);
}

class RetiringSandbox final : public process::RunningProcess {
 public:
  RetiringSandbox(std::unique_ptr<RunningProcess> inner, std::string runscPath, Scratch scratch,
                  std::shared_ptr<BackgroundRemoval> removal)
      : inner_(std::move(inner)),
        runscPath_(std::move(runscPath)),
        scratch_(std::move(scratch)),
        removal_(std::move(removal)) {}
  ~RetiringSandbox() override {
    inner_.reset();
    cleanUp();
  }
  int pid() const override { return inner_->pid(); }
  process::ExitInfo wait(std::optional<std::chrono::steady_clock::time_point> deadline) override {
    process::ExitInfo info = inner_->wait(deadline);
    info.launchFailure = launchFailureIn(scratch_.log);
    cleanUp();
    return info;
  }
  void kill() override {
    inner_->kill();
    cleanUp();
  }
  const process::CapturedStream& stdoutData() const override { return inner_->stdoutData(); }
  const process::CapturedStream& stderrData() const override { return inner_->stderrData(); }
  const std::vector<std::string>& planNotes() const override { return inner_->planNotes(); }

 private:
  void cleanUp() {
    if (done_) return;
    done_ = true;
    retireSandbox(runscPath_, scratch_, *removal_);
  }
  std::unique_ptr<RunningProcess> inner_;
  std::string runscPath_;
  Scratch scratch_;
  std::shared_ptr<BackgroundRemoval> removal_;
  bool done_ = false;
};

}  // namespace

Result<Scratch> makeScratch(const fs::path& tempRoot, const std::string& ownerLine) {
  static std::atomic<unsigned> launches{0};
  std::string tmpl = (tempRoot / (std::string(kScratchPrefix) + "XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "cannot create the gVisor sandbox's scratch in " + tempRoot.string(),
                     "make the temporary directory (TMPDIR) writable for this user", tempRoot.string());
  }
  Scratch s;
  s.dir = tmpl;
  s.bundle = s.dir / "bundle";
  s.rootfs = s.bundle / "rootfs";
  s.state = s.dir / "state";
  s.log = s.dir / "runsc.log";
  s.container = std::string(kContainerPrefix) + std::to_string(::getpid()) + "-" + std::to_string(++launches);
  std::error_code ec;
  fs::create_directories(s.rootfs, ec);
  if (!ec) fs::create_directories(s.state, ec);
  std::ofstream(s.dir / kOwnerFile) << ownerLine;
  std::ofstream(s.dir / "container") << s.container << "\n";
  if (ec) {
    fs::remove_all(s.dir, ec);
    return makeError(ErrorCode::SandboxLaunchFailed, "cannot create the gVisor bundle in " + s.dir.string(),
                     "make the temporary directory (TMPDIR) writable for this user", s.dir.string());
  }
  return s;
}

void removeSandbox(const std::string& runscPath, const Scratch& scratch) {
  deleteContainer(runscPath, scratch);
  std::error_code ec;
  fs::remove_all(scratch.dir, ec);
}

fs::path trashPathFor(const fs::path& scratchDir) {
  const std::string name = scratchDir.filename().string();
  const std::string suffix = name.substr(std::min(name.size(), std::string_view(kScratchPrefix).size()));
  return scratchDir.parent_path() / (std::string(kScratchPrefix) + kTrashInfix + suffix);
}

std::optional<fs::path> moveToTrash(const Scratch& scratch) {
  const fs::path trash = trashPathFor(scratch.dir);
  // RENAME_NOREPLACE: an earlier trash of the same suffix is never replaced.
  if (::renameat2(AT_FDCWD, scratch.dir.c_str(), AT_FDCWD, trash.c_str(), RENAME_NOREPLACE) != 0) return std::nullopt;
  return trash;
}

void retireSandbox(const std::string& runscPath, const Scratch& scratch, BackgroundRemoval& removal) {
  const bool containerGone = deleteContainer(runscPath, scratch);
  const std::optional<fs::path> trash = containerGone ? moveToTrash(scratch) : std::nullopt;
  if (!trash) {
    std::error_code ec;
    fs::remove_all(scratch.dir, ec);
    return;
  }
  removal.add([dir = *trash] {
    std::error_code ec;
    fs::remove_all(dir, ec);
  });
}

std::unique_ptr<process::RunningProcess> retiringSandboxAfter(std::unique_ptr<process::RunningProcess> inner,
                                                              std::string runscPath, Scratch scratch,
                                                              std::shared_ptr<BackgroundRemoval> removal) {
  return std::make_unique<RetiringSandbox>(std::move(inner), std::move(runscPath), std::move(scratch),
                                           std::move(removal));
}

}  // namespace lw::sandbox::gvisor
