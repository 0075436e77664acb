#include "cli/args.h"

#include <algorithm>

namespace lw::cli {
namespace {

Error usage(std::string message, std::string hint) {
  return makeError(ErrorCode::UsageError, std::move(message), std::move(hint));
}

}  // namespace

Result<Args> Args::parse(const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs,
                         std::size_t maxPositionals, bool takesCommandAfterDashDash) {
  Args args;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word == "--") {
      if (!takesCommandAfterDashDash) return usage("unexpected '--'", "this subcommand takes no command to run");
      args.command_.assign(argv.begin() + static_cast<long>(i) + 1, argv.end());
      break;
    }
    if (word.size() > 2 && word.starts_with("--")) {
      std::string name = word.substr(2);
      std::optional<std::string> inlineValue;
      if (auto eq = name.find('='); eq != std::string::npos) {
        inlineValue = name.substr(eq + 1);
        name.resize(eq);
      }
      auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
      if (spec == specs.end()) return usage("unknown option '--" + name + "'", "see --help for the options");
      auto& slot = args.options_[name];
      if (!slot.empty() && !spec->repeatable) return usage("option '--" + name + "' given twice", "give it once");
      if (spec->valueName.empty()) {
        if (inlineValue) return usage("option '--" + name + "' takes no value", "");
        slot.push_back("");
        continue;
      }
      if (inlineValue) {
        slot.push_back(*inlineValue);
      } else if (i + 1 < argv.size()) {
        slot.push_back(argv[++i]);
      } else {
        return usage("option '--" + name + "' needs a value " + spec->valueName,
                     "write --" + name + " " + spec->valueName);
      }
      continue;
    }
    if (word.size() > 1 && word[0] == '-' && word != "-")
      return usage("unknown option '" + word + "'", "options are spelled --name");
    if (args.positionals_.size() >= maxPositionals)
      return usage("unexpected argument '" + word + "'", "see --help for the arguments");
    args.positionals_.push_back(word);
  }
  return args;
}

bool Args::flag(const std::string& name) const { return options_.contains(name); }

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = options_.find(name);
  if (it == options_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::values(const std::string& name) const {
  auto it = options_.find(name);
  return it == options_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace lw::cli
