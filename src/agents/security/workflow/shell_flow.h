// What a step's `run:` script writes to the files the runner reads back
// ($GITHUB_ENV, $GITHUB_PATH, $GITHUB_OUTPUT), and what can reach each
// write. Not a shell interpreter: the script is read line by line, in order,
// and
//   - a variable ($NAME, ${NAME…}, $env:NAME, %NAME%) holds what the last
//     assignment above it gave it (`NAME=…`, `export NAME=…`, one line,
//     any nesting of $(…) on its right side), else what the step's env:
//     gives it (workflow_flow.h), else Unknown;
//   - a command substitution ($(…), `…`) holds Unknown unless a variable in
//     it carries outside text (then it does: `$(echo "$TITLE" | sed …)`);
//   - a line writes to a file when it names the file after `>`, `>>`, `tee`,
//     Out-File/Add-Content/Set-Content, or as %NAME% (cmd); it writes its
//     own text, a here-document's body (`cat <<EOF >> "$GITHUB_ENV"`, taken
//     literally when the delimiter is quoted), or the `{ …; }` group it closes.
// Not followed: control flow (an assignment inside an `if` counts as made),
// functions, loops, `read`, quoting that stops expansion ('$NAME' counts as
// expanded), a write through a file descriptor or a variable naming the file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "agents/security/workflow/workflow_flow.h"

namespace lw::agents::security {

struct ScriptWrite {
  std::size_t line = 0;  // index into the script's lines (splitLines)
  std::string file;      // "GITHUB_ENV", "GITHUB_PATH" or "GITHUB_OUTPUT"
  std::string text;      // the line, trimmed
  Taint taint;           // the worst of what the line writes
};

// Every write of the step's `run:` script to those files, in order (none
// when the step has no `run:`).
std::vector<ScriptWrite> scriptWrites(const StepModel& step, const FlowScope& at);

// What step `step` sets output NAME to: the worst of its script's writes of
// `NAME=` / `NAME<<` to GITHUB_OUTPUT, else (for an action) the catalogue's
// word on that output, else Unknown.
Taint stepOutputTaint(const StepModel& step, std::string_view name, const FlowScope& at);

// The first line of the step's `run:` script (index into splitLines) whose
// text can hold outside text as the script reads it there (an expression,
// or a variable assigned or given by env: from such text), with how; nullopt
// when no line can (or the step has no `run:`).
struct ScriptLine {
  std::size_t line = 0;
  Taint taint;
};
std::optional<ScriptLine> firstOutsiderLine(const StepModel& step, const FlowScope& at);

// The variables a line (of a script, or of text a program expands the same
// way) reads: $NAME, ${NAME…}, $env:NAME, %NAME%; the runner's files
// (GITHUB_ENV, …) left out.
std::vector<std::string> shellVariablesIn(std::string_view line);

}  // namespace lw::agents::security
