#include "cli/policy_context.h"

#include <filesystem>

#include "core/file_io.h"
#include "policy/load/host_config_loader.h"
#include "policy/load/taskpack_loader.h"

namespace lw::cli {

std::string taskpackPathFrom(const Args& args) {
  if (auto p = args.value("taskpack")) return *p;
  if (!args.positionals().empty()) return args.positionals().front();
  std::filesystem::path repo = args.value("repo").value_or(".");
  return (repo / kDefaultTaskpackPath).lexically_normal().string();
}

Result<std::string> repositoryTaskpackPath(const Args& args) {
  std::string given = args.value("taskpack-path").value_or(std::string(kDefaultTaskpackPath));
  // "./.loopwright/taskpack.yaml" names the same file; git trees know no "./".
  std::string relative = std::filesystem::path(given).lexically_normal().generic_string();
  if (given.empty() || relative.empty() || relative.front() == '/' || relative.find("..") != std::string::npos)
    return makeError(ErrorCode::UsageError, "--taskpack-path '" + given + "' is not inside the repository",
                     "give a repository-relative path such as .loopwright/taskpack.yaml");
  return relative;
}

Result<Taskpack> loadTaskpackFrom(const Args& args) {
  return loadTaskpack(taskpackPathFrom(args), TaskpackLoadOptions{currentUserHome()});
}

Result<HostConfig> loadHostConfigFrom(const Environment& env) {
  bool named = env.get("LOOPWRIGHT_HOST_CONFIG").has_value();
  return loadHostConfig(hostConfigPath(env), named);
}

ResolveContext resolveContextFrom(const Environment& env) {
  return ResolveContext{env.isTrue("GITHUB_ACTIONS"), currentUserHome()};
}

Result<PolicyFiles> loadPolicyFiles(const Args& args, const Environment& env) {
  auto host = loadHostConfigFrom(env);
  if (!host) return host.error();
  auto taskpack = loadTaskpackFrom(args);
  if (!taskpack) return taskpack.error();
  return PolicyFiles{std::move(*host), std::move(*taskpack)};
}

}  // namespace lw::cli
