#include "cli/dispatch.h"

#include <algorithm>
#include <exception>
#include <ostream>
#include <sstream>

#include "cli/error_report.h"
#include "cli/exit_codes.h"
#include "core/version.h"

namespace lw::cli {
namespace {

std::vector<std::string> wordsOf(const std::string& name) {
  std::vector<std::string> words;
  std::istringstream in(name);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool startsWithWords(const std::vector<std::string>& argv, const std::vector<std::string>& words) {
  if (argv.size() < words.size()) return false;
  return std::equal(words.begin(), words.end(), argv.begin());
}

void printOverview(std::ostream& out, const std::vector<Command>& commands, const std::string& group) {
  out << "loopwright " << kVersion << " — run AI agent steps in OS sandboxes, verify them, publish to GitHub\n\n"
      << "usage: loopwright <command> [options]\n\ncommands:\n";
  // The summaries start in one column, two spaces past the longest name.
  std::size_t width = 0;
  for (const Command& c : commands) width = std::max(width, c.name.size());
  for (const Command& c : commands) {
    if (!group.empty() && !c.name.starts_with(group + " ")) continue;
    out << "  " << c.name << std::string(width + 2 - c.name.size(), ' ') << c.summary << "\n";
  }
  out << "\nEvery command takes --help and --json. Exit codes: 0 ok, 1 findings or a failed step,\n"
         "2 usage/configuration, 3 sandbox negotiation, 4 guardrail stop, 5 verification,\n"
         "6 publication, 7 lease refused, 70 internal error.\n";
}

void printCommandHelp(std::ostream& out, const Command& c) {
  out << "usage: loopwright " << c.name << (c.usage.empty() ? "" : " ") << c.usage << "\n\n" << c.summary << "\n";
  if (!c.description.empty()) out << "\n" << c.description << "\n";
  out << "\noptions:\n";
  for (const OptionSpec& o : c.options) {
    std::string lhs = "--" + o.name + (o.valueName.empty() ? "" : " " + o.valueName);
    out << "  " << lhs;
    for (std::size_t n = lhs.size(); n < 26; ++n) out << ' ';
    out << o.help << (o.repeatable ? " (repeatable)" : "") << "\n";
  }
}

}  // namespace

const Command* findCommand(const std::vector<std::string>& argv, const std::vector<Command>& commands) {
  const Command* best = nullptr;
  std::size_t bestWords = 0;
  for (const Command& c : commands) {
    auto words = wordsOf(c.name);
    if (words.size() > bestWords && startsWithWords(argv, words)) {
      best = &c;
      bestWords = words.size();
    }
  }
  return best;
}

int dispatch(const std::vector<std::string>& argv, const std::vector<Command>& commands, std::ostream& out,
             std::ostream& err, const Environment& env) {
  Io io{out, err, env, false};
  if (argv.empty() || argv[0] == "--help" || argv[0] == "-h" || argv[0] == "help") {
    printOverview(argv.empty() ? err : out, commands, "");
    return argv.empty() ? kExitConfig : kExitOk;
  }
  if (argv[0] == "--version") {
    out << "loopwright " << kVersion << "\n";
    return kExitOk;
  }

  const Command* best = findCommand(argv, commands);
  if (best == nullptr) {
    bool isGroup = std::any_of(commands.begin(), commands.end(),
                               [&](const Command& c) { return c.name.starts_with(argv[0] + " "); });
    if (isGroup) {
      printOverview(err, commands, argv[0]);
      return kExitConfig;
    }
    io.json = std::find(argv.begin(), argv.end(), "--json") != argv.end();
    return reportError(io, makeError(ErrorCode::UsageError, "unknown command '" + argv[0] + "'",
                                     "run 'loopwright --help' for the commands"));
  }

  std::vector<std::string> rest(argv.begin() + static_cast<long>(wordsOf(best->name).size()), argv.end());
  std::vector<OptionSpec> specs = best->options;
  specs.push_back({"json", "", "print machine-readable JSON"});
  specs.push_back({"help", "", "show this help"});
  auto dashDash = std::find(rest.begin(), rest.end(), "--");
  io.json = std::find(rest.begin(), dashDash, "--json") != dashDash;
  if (std::find(rest.begin(), dashDash, "--help") != dashDash) {
    printCommandHelp(out, *best);
    return kExitOk;
  }
  auto args = Args::parse(rest, specs, best->maxPositionals, best->takesCommand);
  if (!args) {
    Error e = args.error();
    e.hint = e.hint.empty() ? "see 'loopwright " + best->name + " --help'" : e.hint;
    return reportError(io, e);
  }
  try {
    return best->run(*args, io);
  } catch (const std::exception& ex) {
    return reportError(io, makeError(ErrorCode::Internal, std::string("internal error: ") + ex.what(),
                                     "this is a bug in loopwright; please report it"));
  }
}

}  // namespace lw::cli
