#include "agents/review/file_selection.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace lw::agents::review {

namespace {

// Lock files list resolved versions, not code anyone wrote: the security
// built-in reports their dependency changes instead.
constexpr std::array<std::string_view, 21> kLockFiles = {"package-lock.json",
                                                         "npm-shrinkwrap.json",
                                                         "yarn.lock",
                                                         "pnpm-lock.yaml",
                                                         "bun.lockb",
                                                         "Cargo.lock",
                                                         "go.sum",
                                                         "Gemfile.lock",
                                                         "poetry.lock",
                                                         "Pipfile.lock",
                                                         "composer.lock",
                                                         "uv.lock",
                                                         "pdm.lock",
                                                         "flake.lock",
                                                         "packages.lock.json",
                                                         "gradle.lockfile",
                                                         "mix.lock",
                                                         "pubspec.lock",
                                                         "Podfile.lock",
                                                         "Package.resolved",
                                                         "deno.lock"};

constexpr std::array<std::string_view, 11> kGeneratedGlobs = {
    "*.min.js",      "*.min.css",  "*.pb.go",       "*.pb.cc",  "*.pb.h",  "*_pb2.py",
    "*_pb2_grpc.py", "*.pb.swift", "*.generated.*", "*.g.dart", "*.js.map"};

constexpr std::array<std::string_view, 4> kVendorDirs = {"vendor", "third_party", "node_modules", "bower_components"};
constexpr std::array<std::string_view, 2> kGeneratedDirs = {"dist", "__generated__"};

// How many lines from the top of a file a generator's marker may sit at.
constexpr int kMarkerLines = 10;

std::string_view baseName(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// True when a directory component of `path` (not the file name) is `dir`.
bool inDirectory(std::string_view path, std::string_view dir) {
  std::size_t start = 0;
  for (auto slash = path.find('/'); slash != std::string_view::npos; slash = path.find('/', start)) {
    if (path.substr(start, slash - start) == dir) return true;
    start = slash + 1;
  }
  return false;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool isMarker(std::string_view text) {
  const std::string l = lower(text);
  if (l.find("@generated") != std::string::npos) return true;
  return l.find("generated") != std::string::npos && l.find("do not edit") != std::string::npos;
}

std::optional<std::string> diffSkipReason(const ChangedFile& f, const diff::DiffIndex& diff) {
  if (f.status == "removed") return "removed";
  const diff::DiffFile* d = diff.file(f.path);
  if (f.binary || (d != nullptr && d->binary)) return "binary file";
  if (d == nullptr) return "not in the diff";
  if (d->hunks.empty()) return "no changed lines";
  if (hasGeneratedMarker(*d)) return "generated file (marker)";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> defaultSkipReason(std::string_view path) {
  const std::string_view name = baseName(path);
  for (std::string_view lock : kLockFiles)
    if (name == lock) return "lock file";
  for (std::string_view dir : kVendorDirs)
    if (inDirectory(path, dir)) return "vendored (" + std::string(dir) + "/)";
  for (std::string_view dir : kGeneratedDirs)
    if (inDirectory(path, dir)) return "generated file (" + std::string(dir) + "/)";
  for (std::string_view glob : kGeneratedGlobs)
    if (excludeMatches(glob, path)) return "generated file (" + std::string(glob) + ")";
  return std::nullopt;
}

bool hasGeneratedMarker(const diff::DiffFile& file) {
  for (const diff::DiffHunk& h : file.hunks)
    for (const diff::DiffLine& l : h.lines)
      if (l.kind != '-' && l.newLine >= 1 && l.newLine <= kMarkerLines && isMarker(l.text)) return true;
  return false;
}

bool excludeMatches(std::string_view glob, std::string_view path) {
  const std::string g(glob), p(path);
  if (::fnmatch(g.c_str(), p.c_str(), 0) == 0) return true;
  if (g.find('/') != std::string::npos) return false;
  return ::fnmatch(g.c_str(), std::string(baseName(path)).c_str(), 0) == 0;
}

Selection selectFiles(const std::vector<ChangedFile>& files, const diff::DiffIndex& diff,
                      const std::vector<std::string>& exclude, int maxFiles) {
  Selection s;
  for (const ChangedFile& f : files) {
    std::optional<std::string> reason = defaultSkipReason(f.path);
    if (!reason) reason = diffSkipReason(f, diff);
    for (auto g = exclude.begin(); !reason && g != exclude.end(); ++g)
      if (excludeMatches(*g, f.path)) reason = "excluded (" + *g + ")";
    if (!reason && static_cast<int>(s.review.size()) >= maxFiles)
      reason = "maxFiles (" + std::to_string(maxFiles) + ") reached";
    if (reason)
      s.skipped.push_back({f.path, CoverageStatus::Skipped, std::move(*reason)});
    else
      s.review.push_back(f.path);
  }
  return s;
}

}  // namespace lw::agents::review
