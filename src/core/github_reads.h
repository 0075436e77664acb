// The GitHub reads a step may ask the bridge for (github.pull, github.pulls.diff,
// github.pulls.files, github.file, github.issue, github.issues.search,
// github.labels), as plain data, and the interface that answers them. The
// bridge's tools shape these values; the pipeline answers them from the local
// clone first and the REST API second (docs/github-read-tools.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace lw {

enum class FileChange { Added, Modified, Removed, Renamed, Copied };
std::string_view toString(FileChange c);
// GitHub's file status names ("added", "removed", …; "changed" reads as
// modified); nullopt for anything else.
std::optional<FileChange> parseFileChange(std::string_view s);

enum class TreeSide { Base, Head };
std::string_view toString(TreeSide s);

struct PullSummary {
  int number = 0;
  std::string title, body, author, authorAssociation;
  std::string baseSha, headSha, baseRef, headRef;
  std::vector<std::string> labels;
  bool draft = false;
};

// What a diff or a file list covers: base...head, or lastReviewedHead..head
// when `incremental` (a synchronize after an earlier review).
struct DiffScope {
  std::string base;
  std::string head;
  bool incremental = false;
};

struct PullDiff {
  DiffScope scope;
  std::string diff;  // unified, git style ("diff --git a/… b/…")
  bool truncated = false;
};

struct ChangedFile {
  std::string path;
  std::string previousPath;  // renamed or copied only
  FileChange status = FileChange::Modified;
  int additions = 0;
  int deletions = 0;
  bool binary = false;
};

struct PullFiles {
  DiffScope scope;
  std::vector<ChangedFile> files;
  bool truncated = false;
};

struct FileAtRef {
  std::string path;
  TreeSide side = TreeSide::Head;
  std::string sha;         // the blob's
  std::uint64_t size = 0;  // the whole blob's, even when truncated
  std::string content;     // empty for a binary blob
  bool truncated = false;
  bool binary = false;  // a NUL byte or invalid UTF-8: not text a JSON string can carry
};

struct IssueComment {
  std::string author, authorAssociation, body, createdAt;
};

struct IssueThread {
  int number = 0;
  std::string title, body, author, authorAssociation, state;
  std::vector<std::string> labels;
  std::vector<IssueComment> comments;  // oldest first
  bool commentsTruncated = false;
};

struct IssueHit {
  int number = 0;
  std::string title, body, state, url;
  std::vector<std::string> labels;
};

struct IssueSearch {
  std::int64_t total = 0;  // GitHub's total_count, which may exceed items
  std::vector<IssueHit> items;
};

struct RepoLabel {
  std::string name, description, color;
};

// The bounds every reader keeps; a read that reaches one says `truncated`.
struct ReadLimits {
  std::size_t diffBytes = 1u << 20;  // a diff beyond this is cut at a file or hunk boundary
  std::size_t fileBytes = 1u << 20;  // github.file's content
  std::size_t maxFiles = 3000;       // GitHub lists at most 3000 files of a pull request
  std::size_t maxComments = 300;     // github.issue's comments
  int maxSearchResults = 100;        // github.issues.search's maxResults bound
};

class GithubReader {
 public:
  virtual ~GithubReader() = default;
  // The run's pull request. Fails when the run is not on one.
  virtual Result<PullSummary> pull() = 0;
  // base...head (the merge base, as GitHub's three-dot compare), or the
  // incremental scope unless `full`.
  virtual Result<PullDiff> diff(bool full) = 0;
  virtual Result<PullFiles> files(bool full) = 0;
  // A path at the pull request's base or head commit; notFound() when the
  // path is not a file there.
  virtual Result<FileAtRef> file(const std::string& path, TreeSide side) = 0;
  // The issue (or pull request) `number`, else the event's.
  virtual Result<IssueThread> issue(std::optional<int> number) = 0;
  // `words` is the step's query, scoped to the run's repository by the reader.
  virtual Result<IssueSearch> searchIssues(const std::string& words, int maxResults) = 0;
  virtual Result<std::vector<RepoLabel>> labels() = 0;
};

// The error of a read whose subject does not exist: "not found: <what>".
Error notFound(const std::string& what);
bool isNotFound(const Error& e);

// `diff` cut to at most `maxBytes`: at the last file boundary ("diff --git")
// that fits, else the last hunk boundary, else nothing; true when cut.
std::pair<std::string, bool> clipUnifiedDiff(std::string diff, std::size_t maxBytes);

// Whether content cannot be carried as JSON text: a NUL byte (git's own
// test for binary) or a byte sequence that is not UTF-8.
bool isBinaryContent(std::string_view content);

// `text` cut to at most `maxBytes` without splitting a UTF-8 sequence.
std::string clipUtf8(std::string text, std::size_t maxBytes);

}  // namespace lw
