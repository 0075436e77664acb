// Command-line parsing for subcommands: --name, --name VALUE, --name=VALUE,
// repeatable options, positionals, and everything after "--" kept verbatim.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace lw::cli {

struct OptionSpec {
  std::string name;       // without the leading "--"
  std::string valueName;  // empty for a flag ("FILE", "B")
  std::string help;
  bool repeatable = false;
};

class Args {
 public:
  // Fails with USAGE_ERROR on an unknown option, a missing value, a repeated
  // non-repeatable option, or more positionals than maxPositionals.
  static Result<Args> parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs,
                            std::size_t maxPositionals, bool takesCommandAfterDashDash);

  bool flag(const std::string& name) const;
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }
  // The words after "--" (a command to run), when the subcommand takes one.
  const std::vector<std::string>& command() const { return command_; }

 private:
  std::map<std::string, std::vector<std::string>> options_;
  std::vector<std::string> positionals_;
  std::vector<std::string> command_;
};

}  // namespace lw::cli
