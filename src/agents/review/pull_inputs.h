// The bridge's answers builtin/review works from (the GitHub read tools'
// contract, docs/builtin-steps.md), read into plain structs. A field of the
// wrong type is OUTPUT_INVALID naming its JSON path: the orchestrator's
// answer is not what the contract says.
#pragma once

#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "core/result.h"

namespace lw::agents::review {

struct PullInfo {
  int number = 0;
  std::string title;
  std::string body;
  std::string baseSha;
  std::string headSha;
};

// One entry of github.pulls.files.
struct ChangedFile {
  std::string path;
  std::string previousPath;  // renamed / copied only
  std::string status;        // added | modified | removed | renamed | copied
  bool binary = false;
};

struct PullFiles {
  std::vector<ChangedFile> files;
  bool truncated = false;
};

// github.pulls.diff: the unified text between base and head. On a
// `synchronize` with a known last reviewed head, `base` is that head and
// `incremental` is true.
struct PullDiff {
  std::string base;
  std::string head;
  bool incremental = false;
  std::string diff;
  bool truncated = false;
};

Result<PullInfo> readPullInfo(const boost::json::value& v);
Result<PullFiles> readPullFiles(const boost::json::value& v);
Result<PullDiff> readPullDiff(const boost::json::value& v);

}  // namespace lw::agents::review
