// A built-in step (`uses: builtin/<name>`) as `loopwright agent <name>` runs
// it inside the step's sandbox: it reaches GitHub and models only through
// its bridge, reads the workspace, and writes its results to its out dir
// (findings.json, triage.json, coverage.json: the step contract).
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "core/result.h"

namespace lw::agents {

// The step's end of its bridge. Tests inject a scripted one.
class BridgeClient {
 public:
  virtual ~BridgeClient() = default;
  // tools/call: the tool's structuredContent, or an Error carrying the
  // tool's error text (isError: true, or a JSON-RPC error such as a
  // guardrail stop, whose code is kept).
  virtual Result<boost::json::value> call(const std::string& tool, const boost::json::object& args) = 0;
};

struct AgentContext {
  BridgeClient& bridge;
  // The step's `with:` with every default filled in, checked against
  // policy/builtin/builtin_catalog.h before the step was started.
  const boost::json::object& params;
  std::filesystem::path workspace;  // the current directory, read-only for reviewers
  std::filesystem::path outDir;     // LOOPWRIGHT_OUT
  std::ostream& log;                // the step's stderr (captured, bounded, masked)
};

// 0: the step did its work (its findings may still fail the run);
// non-zero: it could not (the reason is in the log and, where it can be,
// in coverage.json).
using AgentMain = int (*)(AgentContext&);

}  // namespace lw::agents
