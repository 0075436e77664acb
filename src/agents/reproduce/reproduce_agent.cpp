#include "agents/reproduce/reproduce_agent.h"

#include <cstdlib>
#include <ostream>

#include <boost/json.hpp>

#include "agents/output.h"
#include "agents/reproduce/repro_extract.h"
#include "agents/reproduce/repro_run.h"
#include "agents/reproduce/repro_shutout.h"
#include "agents/reproduce/repro_tree.h"
#include "agents/reproduce/repro_verdict.h"
#include "agents/reproduce/reproduce_params.h"
#include "policy/model/tool_names.h"

namespace lw::agents {

namespace fs = std::filesystem;
namespace json = boost::json;
using namespace reproduce;

namespace {

constexpr const char* kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

std::string envOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string whatRan(const Reproduction& r) {
  const std::string where = r.field.empty() ? "from the issue body" : "under *" + r.field + "*";
  return "the " + std::string(nameOf(*r.language)) + " block " + where + ", on " + describeRef(r.ref);
}

// Why nothing is run for `r`, or "" when its block runs. Only the pipeline
// sets LOOPWRIGHT_STEP, for a step it started in its sandbox: by hand, the
// issue's code would run wherever `loopwright agent` was typed.
std::string notRunnable(const Reproduction& r) {
  if (envOr("LOOPWRIGHT_STEP", "").empty())
    return "it was not started by the pipeline for a step (LOOPWRIGHT_STEP is unset), so it has no sandbox of its own";
  if (!r.refused.empty()) return r.refused;
  if (r.language) return {};
  if (r.ref)
    return "the issue names " + describeRef(r.ref) + " but gives no sh, bash, python or javascript block to run there";
  return "the issue has no fenced sh, bash, python or javascript block to run";
}

// The reproduction runs as the agent's user in the agent's sandbox: the
// agent shuts it out of what it holds (repro_shutout.h) once the tree is
// written (libgit2 may still read HOME) and just before it starts.
RunFacts runIn(AgentContext& ctx, const Reproduction& r, const ReproduceParams& p) {
  const fs::path scratch = ctx.outDir / ".reproduce";
  const fs::path tree = scratch / "tree";
  RunFacts facts;
  facts.wallTimeMs = p.wallTimeMs;
  facts.maxOutputBytes = p.maxOutputBytes;
  if (Status written = writeTree(ctx.workspace, r.ref, tree); !written) {
    facts.notRunBecause = written.error().message;
    return facts;
  }
  RunRequest req{*r.language, r.script, tree, scratch, envOr("PATH", kDefaultPath), p.wallTimeMs, p.maxOutputBytes};
  if (Status shut = shutOutTheReproduction(envOr("LOOPWRIGHT_BRIDGE", ""), ctx.log); !shut) {
    facts.notRunBecause = shut.error().message;
    return facts;
  }
  return runReproduction(req, ctx.log);
}

}  // namespace

int runReproduceAgent(AgentContext& ctx) {
  auto params = readReproduceParams(ctx.params);
  if (!params) {
    ctx.log << "reproduce: " << params.error().message << "\n";
    return 2;
  }
  auto answer = ctx.bridge.call(tools::kGithubIssue, {});
  const json::value* body = answer && answer->is_object() ? answer->as_object().if_contains("body") : nullptr;
  if (!answer || !answer->is_object()) {
    ctx.log << "reproduce: cannot read the issue: "
            << (answer ? "github.issue returned no object" : answer.error().message) << "\n";
    return 1;
  }
  const std::string text = body && body->is_string() ? std::string(body->get_string()) : std::string();
  const ExtractOptions options{params->fields, params->errorFields};
  const Reproduction repro = findReproduction(text, options);
  RunFacts facts;
  facts.notRunBecause = notRunnable(repro);
  if (facts.notRunBecause.empty()) {
    const std::vector<std::string> before = entriesOf(ctx.outDir);
    facts = runIn(ctx, repro, *params);
    if (int removed = removeAddedEntries(ctx.outDir, before); removed > 1)
      ctx.log << "reproduce: removed " << removed << " entries the reproduction left in the out dir\n";
  }
  facts.expectedError = reportedError(text, options);
  const Decision decision = decide(facts);
  ReportInput report{decision, &facts, repro.language ? whatRan(repro) : "", params->commentLines, params->labels};
  TriageResult result = reproduceResult(report);
  if (Status written = writeTriage(ctx.outDir, result); !written) {
    ctx.log << "reproduce: " << written.error().message << "\n";
    return 1;
  }
  ctx.log << "reproduce: " << toString(decision.verdict) << ": " << decision.why << "\n";
  return 0;
}

}  // namespace lw::agents
