// The tools a bridge can offer. The pipeline registers them (the built-ins
// of builtin_tools.h, model.complete, GitHub reads); each step's session
// then offers only those its grants name.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "core/result.h"
#include "guard/event.h"

namespace lw::bridge {

// What a handler may tell the session besides its result.
struct ToolContext {
  std::string step;                  // the calling step ("review/security")
  std::vector<guard::Event> events;  // to the run record (e.g. a breaker opening)
  // Set to stop the step (the pipeline kills it): the call is answered with
  // a JSON-RPC error naming the code, and every later call is refused.
  std::optional<guard::Event> stop;
};

struct ToolOutput {
  boost::json::value structured;  // structuredContent, and the text content serialized
  std::string text;               // when set, the text content instead of `structured`
};

// Returns the result, or an Error the step reads as a tool error
// (isError: true). Errors coded BREAKER_OPEN, LOOP_DETECTED or
// BUDGET_EXCEEDED are answered as JSON-RPC errors instead. Called on the
// bridge thread of the step; handlers shared by steps must be thread-safe.
using ToolHandler = std::function<Result<ToolOutput>(const boost::json::object& args, ToolContext&)>;

struct Tool {
  std::string name;  // "findings.report"
  std::string description;
  boost::json::object inputSchema;  // JSON Schema (verify::validateJson); checked before the handler
  ToolHandler handler;
  bool modelCall = false;      // charged to maxModelCalls as well
  bool chargesOutput = false;  // its arguments' size is charged to maxOutputBytes
};

class ToolRegistry {
 public:
  // Replaces a tool of the same name.
  void add(Tool tool);
  const Tool* find(const std::string& name) const;
  // Registered tools among `grants`, sorted by name.
  std::vector<const Tool*> granted(const std::vector<std::string>& grants) const;

 private:
  std::map<std::string, Tool> tools_;
};

}  // namespace lw::bridge
