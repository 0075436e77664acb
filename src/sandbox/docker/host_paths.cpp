#include "sandbox/docker/host_paths.h"

#include "core/paths.h"

namespace lw::sandbox::docker {

namespace fs = std::filesystem;

fs::path anchoredPath(const fs::path& workspace, const fs::path& p) {
  fs::path abs = p.is_absolute() ? p : workspace / p;
  abs = abs.lexically_normal();
  if (abs.has_relative_path() && !abs.has_filename()) abs = abs.parent_path();
  return abs;
}

std::vector<fs::path> pathsToObserve(const StepSpec& spec) {
  const fs::path ws = anchoredPath("/", spec.workspace);
  std::vector<fs::path> out{ws};
  if (!spec.outDir.empty()) out.push_back(anchoredPath(ws, spec.outDir));
  for (const auto& p : spec.writablePaths) out.push_back(anchoredPath(ws, p));
  // A protected path and every directory above it up to the workspace: the
  // planner pins the ancestors and masks the first missing component.
  for (const auto& p : spec.protectedPaths)
    for (fs::path a = anchoredPath(ws, p); isStrictlyWithin(a, ws); a = a.parent_path()) out.push_back(a);
  for (const auto& p : spec.deniedReadPaths) out.push_back(anchoredPath(ws, p));
  return out;
}

PathFacts observePaths(const std::vector<fs::path>& paths) {
  PathFacts facts;
  for (const auto& p : paths) {
    std::error_code ec;
    PathFact fact;
    fact.isSymlink = fs::is_symlink(fs::symlink_status(p, ec));
    const auto st = fs::status(p, ec);
    if (!ec && fs::exists(st)) {
      fact.kind = fs::is_directory(st)      ? PathKind::Directory
                  : fs::is_regular_file(st) ? PathKind::File
                                            : PathKind::Other;
      fact.real = fs::canonical(p, ec);
      if (ec) fact = PathFact{PathKind::Missing, fact.isSymlink, {}};
    }
    facts[p] = fact;
  }
  return facts;
}

}  // namespace lw::sandbox::docker
