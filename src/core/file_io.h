// Small, bounded file reads and atomic writes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"

namespace lw {

// Reads the whole file if it is at most maxBytes long. The size is checked
// before reading (and the read itself is bounded, for pipes and /proc files).
// Fails with `code` naming the file: missing, unreadable, a directory, or too large.
Result<std::string> readBoundedFile(const std::string& path, std::size_t maxBytes, ErrorCode code);

// Writes to a temporary file beside `path` and renames it over `path`, so a
// reader never sees half a file. With `sync` the data is on disk before the
// rename (records that must survive a crash); without it, only atomicity
// (per-step logs, written on the hot path). Fails with IO_ERROR.
Status writeFileAtomic(const std::string& path, std::string_view content, bool sync = true);

// The 1-based line and column of a byte offset in text.
std::pair<int, int> lineColumnAt(std::string_view text, std::size_t offset);

// The offset of the first byte that is not valid UTF-8, or npos.
std::size_t firstInvalidUtf8(std::string_view text);

// The running user's home directory (from the password database; $HOME is
// not trusted to name the user whose credentials must be protected).
std::string currentUserHome();

}  // namespace lw
