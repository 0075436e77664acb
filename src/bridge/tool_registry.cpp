#include "bridge/tool_registry.h"

#include <algorithm>

namespace lw::bridge {

void ToolRegistry::add(Tool tool) {
  std::string name = tool.name;
  tools_.insert_or_assign(std::move(name), std::move(tool));
}

const Tool* ToolRegistry::find(const std::string& name) const {
  auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : &it->second;
}

std::vector<const Tool*> ToolRegistry::granted(const std::vector<std::string>& grants) const {
  std::vector<const Tool*> out;
  for (const auto& [name, tool] : tools_)
    if (std::find(grants.begin(), grants.end(), name) != grants.end()) out.push_back(&tool);
  return out;
}

}  // namespace lw::bridge
