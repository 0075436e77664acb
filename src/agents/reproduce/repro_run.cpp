#include "agents/reproduce/repro_run.h"

#include <csignal>

#include <algorithm>
#include <chrono>
#include <map>

#include "core/file_io.h"
#include "sandbox/process/executable.h"
#include "sandbox/process/spawn.h"

namespace lw::agents::reproduce {

namespace fs = std::filesystem;
namespace proc = sandbox::process;

namespace {

const char* extensionOf(Language language) {
  switch (language) {
    case Language::Python: return ".py";
    case Language::JavaScript: return ".js";
    default: return ".sh";
  }
}

// Only what an interpreter needs: nothing of the step's own environment
// (LOOPWRIGHT_BRIDGE, LOOPWRIGHT_OUT) reaches the reproduction.
std::map<std::string, std::string> reproEnvironment(const RunRequest& r) {
  return {
      {"PATH", r.pathVariable}, {"HOME", r.tree.string()}, {"LANG", "C.UTF-8"}, {"TMPDIR", "/tmp"}, {"TERM", "dumb"}};
}

// Counts what both streams print and kills the reproduction (its supervisor
// then ends the rest of its tree) once the total passes the bound.
struct OutputBound {
  std::size_t max = 0;
  std::size_t total = 0;
  bool capped = false;
  int pid = 0;

  void seen(std::size_t size) {
    total += size;
    if (total > max && !capped && pid > 0) {
      capped = true;
      ::kill(pid, SIGKILL);
    }
  }
};

void collect(const proc::ExitInfo& info, const proc::RunningProcess& p, const OutputBound& bound, RunFacts& f) {
  f.exitCode = info.exitCode;
  f.signal = info.signal;
  f.timedOut = info.timedOut;
  f.outputCapped = bound.capped;
  f.outputBytes = bound.total;
  f.leftRunning = info.descendantsKilled.value_or(0);
  f.output = p.stdoutData().data;
  if (!f.output.empty() && f.output.back() != '\n') f.output += "\n";
  f.output += p.stderrData().data;
}

}  // namespace

RunFacts runReproduction(const RunRequest& r, std::ostream& log) {
  RunFacts f;
  f.wallTimeMs = r.wallTimeMs;
  f.maxOutputBytes = r.maxOutputBytes;
  const std::string interpreter = interpreterOf(r.language);
  auto found = proc::resolveExecutable(interpreter, {{"PATH", r.pathVariable}});
  if (!found) {
    f.notRunBecause = "`" + interpreter + "` is not installed in the step's sandbox (PATH " + r.pathVariable + ")";
    return f;
  }
  const fs::path file = r.scratch / (std::string("reproduction") + extensionOf(r.language));
  if (Status w = writeFileAtomic(file.string(), r.script, false); !w) {
    f.notRunBecause = "its script could not be written: " + w.error().message;
    return f;
  }
  proc::SpawnRequest req;
  // Relative to its tree, so that what it prints (the shell's "name: line:"
  // prefix, a traceback) names no path of the runner's.
  req.argv = {*found, fs::relative(file, r.tree).string()};
  req.env = reproEnvironment(r);
  req.cwd = r.tree.string();
  req.maxOutputBytes = r.maxOutputBytes;
  OutputBound bound{r.maxOutputBytes};
  req.onOutput = [&bound](int, const char*, std::size_t size) { bound.seen(size); };
  auto started = proc::spawn(req);
  if (!started) {
    f.notRunBecause = "it could not be started: " + started.error().message;
    return f;
  }
  bound.pid = (*started)->pid();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(r.wallTimeMs);
  const proc::ExitInfo info = (*started)->wait(deadline);
  collect(info, **started, bound, f);
  log << "reproduce: " << interpreter << " ended with status " << info.status() << " after " << info.duration.count()
      << " ms, " << f.outputBytes << " bytes of output\n";
  return f;
}

std::vector<std::string> entriesOf(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
  return names;
}

void removeTree(const fs::path& path) {
  std::error_code ec;
  // A reproduction may have taken write or search permission from its own
  // directories; give it back so that they can be emptied.
  if (fs::is_directory(fs::symlink_status(path, ec))) {
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->is_directory(ec) && !it->is_symlink(ec))
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
  }
  fs::remove_all(path, ec);
}

int removeAddedEntries(const fs::path& dir, const std::vector<std::string>& before) {
  int removed = 0;
  for (const std::string& name : entriesOf(dir)) {
    if (std::find(before.begin(), before.end(), name) != before.end()) continue;
    removeTree(dir / name);
    ++removed;
  }
  return removed;
}

}  // namespace lw::agents::reproduce
