#include "agents/security/scan/security_agent.h"

#include <cstdlib>

#include <boost/json/parse.hpp>

#include "agents/output.h"
#include "agents/security/scan/scan.h"
#include "agents/security/scan/security_inputs.h"
#include "agents/security/scan/security_params.h"
#include "core/file_io.h"

namespace lw::agents {

namespace {

int cannotScan(AgentContext& ctx, const Error& e) {
  ctx.log << "builtin/security: " << codeName(e.code) << ": " << e.message << "\n";
  if (!e.hint.empty()) ctx.log << "  hint: " << e.hint << "\n";
  (void)writeFindings(ctx.outDir, {});
  return 1;
}

// The owner is only a refinement (secrets: inherit to one's own workflows is
// fine): a payload that cannot be read leaves it unknown, never fails the step.
std::string ownerFromEventFile(const std::string& path) {
  if (path.empty()) return {};
  Result<std::string> text = readBoundedFile(path, 25 * 1024 * 1024, ErrorCode::EventInvalid);
  if (!text) return {};
  boost::system::error_code ec;
  boost::json::value event = boost::json::parse(*text, ec);
  return ec ? std::string() : security::repositoryOwnerOf(event);
}

}  // namespace

int runSecurityAgentWithEvent(AgentContext& ctx, const std::string& eventPath) {
  Result<security::ScanOptions> options = security::readSecurityParams(ctx.params);
  if (!options) return cannotScan(ctx, options.error());
  options->repositoryOwner = ownerFromEventFile(eventPath);
  Result<std::vector<security::ChangedFile>> files = security::readChangedFiles(ctx.bridge, ctx.log);
  if (!files) return cannotScan(ctx, files.error());
  security::ScanResult scan = security::scanPullRequest(*files, *options);
  Status wrote = writeFindings(ctx.outDir, scan.findings);
  if (!wrote) return cannotScan(ctx, wrote.error());
  if (std::optional<Coverage> coverage = security::coverageOf(scan, *options)) {
    wrote = writeCoverage(ctx.outDir, std::move(*coverage));
    if (!wrote) return cannotScan(ctx, wrote.error());
  }
  ctx.log << "builtin/security: " << files->size() << " changed files, " << scan.findings.size() << " findings";
  if (!scan.unchecked.empty()) ctx.log << ", " << scan.unchecked.size() << " workflow file(s) not checked";
  ctx.log << "\nbuiltin/security: " << security::scanSummary(scan, *options) << "\n";
  return 0;
}

int runSecurityAgent(AgentContext& ctx) {
  const char* event = std::getenv("LOOPWRIGHT_EVENT");
  return runSecurityAgentWithEvent(ctx, event != nullptr ? event : "");
}

}  // namespace lw::agents
