// `loopwright validate [TASKPACK]`: schema, bounds and references, every
// problem at once with file:line:col; the host config too when one exists.
#include <ostream>

#include <boost/json/object.hpp>

#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/policy_context.h"

namespace lw::cli {

Command validateCommand() {
  Command c;
  c.name = "validate";
  c.summary = "check a taskpack (and the host config) against the schema";
  c.usage = "[TASKPACK] [--taskpack P] [--repo DIR]";
  c.description =
      "Reports every problem with file:line:col and the YAML path, and exits 2 if there\n"
      "is any. TASKPACK defaults to <repo>/.loopwright/taskpack.yaml.";
  c.options = {{"taskpack", "P", "the taskpack file"},
               {"repo", "DIR", "repository whose .loopwright/taskpack.yaml to check"}};
  c.maxPositionals = 1;
  c.run = [](const Args& args, Io& io) {
    auto files = loadPolicyFiles(args, io.env);
    if (!files) return reportError(io, files.error());
    const Taskpack* tp = &files->taskpack;
    std::size_t steps = 0;
    for (const Stage& s : tp->stages) steps += s.steps.size();
    if (io.json) {
      boost::json::object o;
      o["valid"] = true;
      o["file"] = tp->file;
      o["name"] = tp->name;
      o["stages"] = tp->stages.size();
      o["steps"] = steps;
      printJson(io.out, o);
    } else {
      io.out << tp->file << ": valid taskpack '" << tp->name << "' (" << tp->stages.size()
             << (tp->stages.size() == 1 ? " stage, " : " stages, ") << steps << (steps == 1 ? " step)" : " steps)")
             << "\n";
    }
    return 0;
  };
  return c;
}

}  // namespace lw::cli
