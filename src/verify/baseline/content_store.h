// An append-only file holding the bytes a baseline captured (untracked,
// ignored, dirty and .git files) so that a restore can put them back. It must
// live outside the workspace: a step that could write it could forge the
// baseline.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"

namespace lw::verify {

struct StoreSpan {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

class ContentStore {
 public:
  // Creates (truncates) the store file at `path` for writing; mode 0600.
  static Result<ContentStore> create(const std::string& path);
  // Opens an existing store for reading.
  static Result<ContentStore> open(const std::string& path);

  ContentStore(ContentStore&& o) noexcept;
  ContentStore& operator=(ContentStore&& o) noexcept;
  ContentStore(const ContentStore&) = delete;
  ~ContentStore();

  // Buffers `bytes` and returns where they will be; flush() makes them durable
  // for readers of the file.
  Result<StoreSpan> append(std::string_view bytes);
  Status flush();
  // Reads a span written earlier (flushes pending writes first).
  Result<std::string> read(StoreSpan span);
  const std::string& path() const { return path_; }

 private:
  ContentStore(int fd, std::string path, std::uint64_t end) : fd_(fd), path_(std::move(path)), end_(end) {}
  int fd_ = -1;
  std::string path_;
  std::uint64_t end_ = 0;  // offset after the last appended byte (buffered included)
  std::string pending_;
};

}  // namespace lw::verify
