// What a reviewing step says it covered (its coverage.json): which files it
// reviewed, clipped or skipped and why, whether that is the whole change,
// and from which head it reviewed. Plain data, carried from the step's
// record to the run record, the outbox and the step summary.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

namespace lw {

enum class FileReview { Reviewed, Clipped, Skipped };
std::string_view toString(FileReview r);
std::optional<FileReview> parseFileReview(std::string_view s);

struct FileCoverage {
  std::string path;
  FileReview status = FileReview::Skipped;
  std::string reason;  // why clipped or skipped ("budget", "generated file", ...)
};

// A finding the step set aside rather than report: a model's finding on a
// file that is not part of the change it was shown. Kept as a note so that
// run.json and `loopwright eval` show what was dropped and why.
struct DroppedFinding {
  std::string path;
  int line = 0;
  int endLine = 0;
  std::string rule;
  std::string reason;
};

struct Coverage {
  std::vector<FileCoverage> files;
  std::vector<DroppedFinding> dropped;
  bool complete = false;
  std::string reason;           // why not complete; empty when complete
  std::int64_t tokensUsed = 0;  // as the step counted them (the bridge's count is in the record)
  std::string head;             // the head commit reviewed
  std::string incrementalFrom;  // the earlier head it reviewed from; empty: the whole change
};

// The coverage.json shape (schemas/coverage.schema.json).
boost::json::value toJson(const Coverage& c);

// Reads what toJson wrote (outbox entries). Throws json_fields::FieldError
// with the JSON path of the first bad field; `path` prefixes it.
Coverage readCoverage(const boost::json::value& v, const std::string& path);

// Paths the step reviewed whole (status reviewed), in its order.
std::vector<std::string> reviewedPaths(const Coverage& c);

}  // namespace lw
