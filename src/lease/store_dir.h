// The files of the local lease store, reached only through the store
// directory's descriptor (openat, renameat): once the directory passed its
// checks, a path swapped under it cannot redirect a read or a write.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/unique_fd.h"

namespace lw::lease {

class StoreDir {
 public:
  // Opens `dir`, creating it (mode 0700, parents as needed) when missing.
  // LEASE_UNAVAILABLE when it is a symlink, not a directory, not owned by
  // the effective user, or writable by group or others; IO_ERROR when it
  // cannot be created or opened.
  static Result<StoreDir> open(const std::filesystem::path& dir);

  // Holds flock(LOCK_EX) on <resource>.lock until the returned descriptor
  // closes. Blocks while another process or thread holds it.
  Result<UniqueFd> lock(const std::string& resource) const;

  // The text of <resource>.json, or nullopt when there is none. A record
  // that is not a regular file or cannot be read is LEASE_UNAVAILABLE.
  Result<std::optional<std::string>> read(const std::string& resource) const;

  // Replaces <resource>.json with `text`: a temporary file written and
  // synced, renamed over the record, then the directory synced.
  Status write(const std::string& resource, const std::string& text) const;

  // The resources that have a record (<name>.json), in name order.
  Result<std::vector<std::string>> resources() const;

  // The record's path, for messages.
  std::string recordPath(const std::string& resource) const;

 private:
  StoreDir(std::filesystem::path path, UniqueFd fd) : path_(std::move(path)), fd_(std::move(fd)) {}
  std::filesystem::path path_;
  UniqueFd fd_;
};

}  // namespace lw::lease
