// Loading .loopwright/taskpack.yaml into a Taskpack: the 64 KiB bound before
// parsing, YAML syntax errors and every schema problem reported together as
// one TASKPACK_INVALID error whose diagnostics carry file:line:col and path.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "policy/model/taskpack.h"

namespace lw {

inline constexpr std::string_view kDefaultTaskpackPath = ".loopwright/taskpack.yaml";

struct TaskpackLoadOptions {
  std::string homeDir;  // "~/" in deniedReadPaths expands against it
};

// Parses taskpack text; `file` names it in messages. Never throws, never
// hangs on any input: bad input of any shape is TASKPACK_INVALID.
Result<Taskpack> parseTaskpack(std::string_view text, const std::string& file, const TaskpackLoadOptions& options);

// Reads (bounded) and parses the file at `path`.
Result<Taskpack> loadTaskpack(const std::string& path, const TaskpackLoadOptions& options);

}  // namespace lw
