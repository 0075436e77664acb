#include "github/actions/actions_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "github/actions/workflow_commands.h"

namespace lw::github {

std::string formatOutput(const std::string& name, const std::string& value, const std::string& delimiter) {
  return name + "<<" + delimiter + "\n" + value + "\n" + delimiter + "\n";
}

std::string heredocDelimiter(const std::vector<std::string>& texts) {
  for (;;) {
    std::string d = "ghadelimiter_" + randomToken().substr(3);
    bool clash = false;
    for (const auto& t : texts) clash = clash || t.find(d) != std::string::npos;
    if (!clash) return d;
  }
}

namespace {

Status appendFile(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path, std::ios::app | std::ios::binary);
  if (out) out << text;
  if (out) out.flush();
  if (!out) {
    return makeError(ErrorCode::IoError,
                     std::string("cannot append to ") + what + " '" + path + "': " + std::strerror(errno),
                     "the runner sets this file; check that the path is writable", path);
  }
  return Ok{};
}

}  // namespace

Status appendOutputs(const std::string& path, const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string text;
  for (const auto& [name, value] : outputs) {
    if (name.empty() || name.find_first_of("=\r\n") != std::string::npos)
      return makeError(ErrorCode::UsageError, "invalid step output name '" + name + "'");
    text += formatOutput(name, value, heredocDelimiter({name, value}));
  }
  return appendFile(path, text, "GITHUB_OUTPUT");
}

Status appendStepSummary(const std::string& path, const std::string& markdown) {
  std::error_code ec;
  auto existing = std::filesystem::file_size(path, ec);
  if (ec) existing = 0;
  if (existing + markdown.size() > kMaxStepSummaryBytes) {
    return makeError(ErrorCode::PublicationFailed,
                     "the step summary would exceed GitHub's 1 MiB limit (" + std::to_string(existing) +
                         " bytes already, " + std::to_string(markdown.size()) + " more)",
                     "the step summary was left as it was", path);
  }
  return appendFile(path, markdown, "GITHUB_STEP_SUMMARY");
}

}  // namespace lw::github
