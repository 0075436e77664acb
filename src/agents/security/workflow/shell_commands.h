// The simple commands of a shell script, word by word: enough to recognise
// `cargo publish` or `npm install left-pad` in a run: step, not a shell
// interpreter (no expansion, no here-documents, no functions).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lw::agents::security {

struct ShellCommand {
  // The words after any `VAR=value`, `sudo [-flags]`, `env`, `time`,
  // `exec`, `command`: words[0] is the program, without its directory.
  // Quotes are removed; a quoted word with spaces stays one word.
  std::vector<std::string> words;
  std::size_t line = 0;  // index in the lines given of the command's first line
};

// Commands are separated by newlines, `;`, `&&`, `||`, `|`, `&` and
// parentheses; a line continued with a trailing `\` (sh) or `` ` ``
// (PowerShell) goes on; a word starting with `#` ends the line.
std::vector<ShellCommand> shellCommands(const std::vector<std::string_view>& lines);

}  // namespace lw::agents::security
