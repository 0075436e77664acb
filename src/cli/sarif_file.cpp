#include "cli/sarif_file.h"

#include "core/file_io.h"
#include "core/json_text.h"
#include "core/version.h"

namespace lw::cli {

Result<github::SarifLog> writeSarifFile(const pipeline::RunRecord& run, const std::string& path) {
  std::vector<Finding> findings;
  for (const pipeline::StageRecord& stage : run.stages)
    for (const pipeline::StepRecord& s : stage.steps)
      findings.insert(findings.end(), s.findings.begin(), s.findings.end());
  github::SarifLog log = github::sarifLog(findings, kVersion);
  if (auto written = writeFileAtomic(path, toJsonText(log.document) + "\n"); !written) return written.error();
  return log;
}

}  // namespace lw::cli
