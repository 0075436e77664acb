// What validate, explain, sandbox exec and run share: finding and loading the
// taskpack and the host config, and reading the resolution context from the
// environment.
#pragma once

#include <string>

#include "cli/args.h"
#include "core/environment.h"
#include "core/result.h"
#include "policy/model/host_config.h"
#include "policy/model/taskpack.h"
#include "policy/resolve/resolve.h"

namespace lw::cli {

// --taskpack P, else the first positional, else <--repo or .>/.loopwright/taskpack.yaml.
std::string taskpackPathFrom(const Args& args);

// --taskpack-path (the action's taskpack-path input), else
// .loopwright/taskpack.yaml, as a path inside a git tree ("./" dropped).
// Fails with USAGE_ERROR when it is absolute or climbs out with "..".
Result<std::string> repositoryTaskpackPath(const Args& args);

Result<Taskpack> loadTaskpackFrom(const Args& args);

// The host config named by $LOOPWRIGHT_HOST_CONFIG (must exist) or the
// default path (may be absent: no floor).
Result<HostConfig> loadHostConfigFrom(const Environment& env);

ResolveContext resolveContextFrom(const Environment& env);

// The host config and the taskpack, as validate and explain read them: the
// host config first, so that its error is the one reported.
struct PolicyFiles {
  HostConfig host;
  Taskpack taskpack;
};
Result<PolicyFiles> loadPolicyFiles(const Args& args, const Environment& env);

}  // namespace lw::cli
