#include "pipeline/sarif_file.h"

#include "core/file_io.h"
#include "core/json_text.h"
#include "core/version.h"

namespace lw::pipeline {

Result<github::SarifLog> writeSarifFile(const RunRecord& run, const std::string& path) {
  std::vector<Finding> findings;
  for (const StageRecord& stage : run.stages)
    for (const StepRecord& s : stage.steps) findings.insert(findings.end(), s.findings.begin(), s.findings.end());
  github::SarifLog log = github::sarifLog(findings, kVersion);
  if (auto written = writeFileAtomic(path, toJsonText(log.document) + "\n"); !written) return written.error();
  return log;
}

}  // namespace lw::pipeline
