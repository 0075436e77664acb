// The table from /proc (Linux). macOS has no /proc: process_table_darwin.cpp.
// Each file guards its whole body because the build globs every .cpp.
#include "sandbox/process/posix/process_table.h"

#if !defined(__APPLE__)

#include <dirent.h>

#include <cstdlib>
#include <string>

#include "core/file_io.h"

namespace lw::sandbox::process::posix {

std::vector<ProcessEntry> readProcessTable() {
  std::vector<ProcessEntry> out;
  DIR* d = ::opendir("/proc");
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || pid <= 0) continue;
    // Gone between readdir and the read: it is no longer in the table.
    auto text = readBoundedFile("/proc/" + std::string(e->d_name) + "/stat", 4096, ErrorCode::IoError);
    if (!text) continue;
    if (auto entry = parseProcStat(*text)) out.push_back(*entry);
  }
  ::closedir(d);
  return out;
}

}  // namespace lw::sandbox::process::posix

#endif
