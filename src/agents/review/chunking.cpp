#include "agents/review/chunking.h"

#include "agents/review/token_estimate.h"

namespace lw::agents::review {

namespace {

std::string fileHeader(const std::string& path) { return "file: " + path + "\n"; }

std::string renderLine(const diff::DiffLine& l) {
  std::string number = l.kind == '-' ? std::string() : std::to_string(l.newLine);
  if (number.size() < 6) number.insert(0, 6 - number.size(), ' ');
  return number + " " + l.kind + " " + l.text + "\n";
}

// A line saying what was left out; reserved before cutting so the result
// stays within the bound.
std::string clipNote(int cutLines) {
  return "[" + std::to_string(cutLines) + " more lines of this hunk were clipped: not sent]\n";
}

// Collects parts into chunks: a part that does not fit what is left of the
// current chunk starts the next one.
class ChunkBuilder {
 public:
  explicit ChunkBuilder(std::int64_t chunkTokens) : limit_(chunkTokens) {}
  void add(ChunkPart part) {
    if (!current_.parts.empty() && current_.tokens + part.tokens > limit_) flush();
    current_.tokens += part.tokens;
    current_.parts.push_back(std::move(part));
  }
  std::vector<Chunk> finish() {
    flush();
    return std::move(chunks_);
  }

 private:
  void flush() {
    if (!current_.parts.empty()) chunks_.push_back(std::move(current_));
    current_ = Chunk{};
  }
  std::int64_t limit_;
  Chunk current_;
  std::vector<Chunk> chunks_;
};

ChunkPart makePart(const std::string& path, std::string body) {
  ChunkPart p{path, fileHeader(path) + body, 0};
  p.tokens = estimateTokens(p.text);
  return p;
}

// One file's parts: the whole file when it fits a chunk, else its hunks
// packed in order, each hunk clipped to what a chunk can hold.
std::vector<ChunkPart> fileParts(const diff::DiffFile& file, const std::string& path, std::int64_t chunkTokens,
                                 std::string& clipReason) {
  const std::int64_t room = chunkTokens - estimateTokens(fileHeader(path));
  std::vector<std::string> hunks;
  std::string whole;
  for (const diff::DiffHunk& h : file.hunks) {
    int cut = 0;
    hunks.push_back(clipRenderedHunk(renderHunk(h), room, cut));
    if (cut > 0 && clipReason.empty())
      clipReason = "a hunk larger than chunkTokens (the one at line " + std::to_string(h.newStart) +
                   ") was clipped: " + std::to_string(cut) + " lines not reviewed";
    whole += hunks.back();
  }
  if (estimateTokens(whole) <= room) return {makePart(path, whole)};
  std::vector<ChunkPart> parts;
  std::string body;
  for (const std::string& h : hunks) {
    if (!body.empty() && estimateTokens(body + h) > room) {
      parts.push_back(makePart(path, body));
      body.clear();
    }
    body += h;
  }
  parts.push_back(makePart(path, body));
  return parts;
}

}  // namespace

std::string Chunk::text() const {
  std::string out;
  for (const ChunkPart& p : parts) out += (out.empty() ? "" : "\n") + p.text;
  return out;
}

bool Chunk::hasPath(const std::string& path) const {
  for (const ChunkPart& p : parts)
    if (p.path == path) return true;
  return false;
}

std::string renderHunk(const diff::DiffHunk& h) {
  std::string out = "@@ -" + std::to_string(h.oldStart) + "," + std::to_string(h.oldCount) + " +" +
                    std::to_string(h.newStart) + "," + std::to_string(h.newCount) + " @@\n";
  for (const diff::DiffLine& l : h.lines) out += renderLine(l);
  return out;
}

std::string clipRenderedHunk(const std::string& rendered, std::int64_t maxTokens, int& cutLines) {
  cutLines = 0;
  if (estimateTokens(rendered) <= maxTokens) return rendered;
  int total = 0;
  for (char c : rendered) total += c == '\n' ? 1 : 0;
  // The note is at most this long (a count of up to ten digits).
  const std::int64_t noteBytes = static_cast<std::int64_t>(clipNote(1'000'000'000).size());
  const std::int64_t maxBytes = maxTokens * kBytesPerToken - noteBytes;
  std::size_t keep = 0;
  int kept = 0;
  for (std::size_t nl = rendered.find('\n'); nl != std::string::npos; nl = rendered.find('\n', nl + 1)) {
    if (static_cast<std::int64_t>(nl + 1) > maxBytes) break;
    keep = nl + 1;
    ++kept;
  }
  cutLines = total - kept;
  return rendered.substr(0, keep) + clipNote(cutLines);
}

ChunkPlan planChunks(const std::vector<std::string>& paths, const diff::DiffIndex& diff, std::int64_t chunkTokens) {
  ChunkPlan plan;
  ChunkBuilder builder(chunkTokens);
  for (const std::string& path : paths) {
    const diff::DiffFile* file = diff.file(path);
    if (file == nullptr) continue;
    std::string clipReason;
    for (ChunkPart& part : fileParts(*file, path, chunkTokens, clipReason)) builder.add(std::move(part));
    if (!clipReason.empty()) plan.clipped.push_back({path, CoverageStatus::Clipped, clipReason});
  }
  plan.chunks = builder.finish();
  return plan;
}

}  // namespace lw::agents::review
