#include "core/environment.h"

#include <unistd.h>

extern char** environ;

namespace lw {

Environment Environment::fromProcess() {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    vars.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return Environment(std::move(vars));
}

std::optional<std::string> Environment::get(const std::string& name) const {
  auto it = vars_.find(name);
  if (it == vars_.end()) return std::nullopt;
  return it->second;
}

bool Environment::isTrue(const std::string& name) const {
  auto v = get(name);
  return v && *v == "true";
}

}  // namespace lw
