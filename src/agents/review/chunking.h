// The diff of the selected files cut into pieces the model gets one request
// each: file by file within `chunkTokens` (token_estimate.h). A file larger
// than a chunk is split at hunk boundaries; a hunk larger than a chunk is
// clipped, and the file is then `clipped` in coverage.json. Each line is sent
// with its new-side line number, so that the model names lines the diff has.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "agents/review/coverage.h"
#include "diff/unified_diff.h"

namespace lw::agents::review {

// Part of one file's diff, rendered.
struct ChunkPart {
  std::string path;
  std::string text;
  std::int64_t tokens = 0;
};

struct Chunk {
  std::vector<ChunkPart> parts;
  std::int64_t tokens = 0;  // sum of the parts'
  // The rendered diff of every part, as the prompt carries it.
  std::string text() const;
  bool hasPath(const std::string& path) const;
};

struct ChunkPlan {
  std::vector<Chunk> chunks;
  std::vector<FileCoverage> clipped;  // status Clipped, with where
};

// One hunk as the model reads it: its header, then each line as
// "<new line number> <kind> <text>" (no number for a removed line).
std::string renderHunk(const diff::DiffHunk& hunk);

// `rendered` cut at a line boundary to at most `maxTokens` with a last line
// saying how many lines were left out; `cutLines` is that count (0: the
// hunk fitted and is returned as it is).
std::string clipRenderedHunk(const std::string& rendered, std::int64_t maxTokens, int& cutLines);

// The chunks for `paths` (each in `diff`, with hunks) in order.
ChunkPlan planChunks(const std::vector<std::string>& paths, const diff::DiffIndex& diff, std::int64_t chunkTokens);

}  // namespace lw::agents::review
