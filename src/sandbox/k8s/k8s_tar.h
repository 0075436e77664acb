// The tar streams the k8s-pod backend moves the workspace in and the step's
// outputs out with (over exec's stdin and stdout, k8s_exec.h): POSIX ustar,
// which the image's GNU or busybox tar reads and writes.
//
// Writing (the workspace, trusted): directories, regular files and
// symlinks, a path over ustar's fields in a pax header.
//
// Reading (the outputs, written inside the pod, so hostile): only
// directories and regular files are created, each under `dir` by a relative
// path without "..", opened O_NOFOLLOW|O_EXCL beneath directories this reader
// made, so no entry can write outside `dir` or through a link; symlinks,
// hard links, devices and FIFOs are refused, as is anything past the byte
// and entry bounds.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace lw::sandbox::k8s {

// The tree under `root` as a tar stream with paths relative to it ("./a/b").
// SANDBOX_LAUNCH_FAILED when a file cannot be read or the stream would pass
// maxBytes.
Result<std::string> tarTree(const std::filesystem::path& root, std::size_t maxBytes);

struct TarFile {
  std::string name;  // a plain name: the stream's entry is "./<name>"
  std::string data;
  bool executable = false;
};
// `files` as a tar stream (loopwright's own files for the pod, trusted).
std::string tarFiles(const std::vector<TarFile>& files);

struct UntarLimits {
  std::size_t maxBytes = 64u << 20;  // the file contents, in total
  std::size_t maxEntries = 10000;
};

// Unpacks `tar` into the existing directory `dir`; the number of files made.
// SANDBOX_LAUNCH_FAILED naming the entry when one is refused (nothing after
// it is unpacked).
Result<std::size_t> untarInto(std::string_view tar, const std::filesystem::path& dir, const UntarLimits& limits);

}  // namespace lw::sandbox::k8s
