// The model part of builtin/review: each chunk sent to model.complete in
// order, within the step's token budget. Before a request its tokens are
// estimated (token_estimate.h: the prompt plus the answer it may take); a
// request that would pass `maxTokens` is not sent and every chunk from it on
// is skipped ("token budget"). After it, what the lane reports in `usage` is
// charged. An invalid answer is retried once with a correction, then the
// chunk fails ("model output invalid"); a valid answer's findings on files
// the chunk does not hold are dropped, each noted, and the rest kept; a model error is retried once, then
// the chunk fails; a guardrail stop (breaker open) ends the run at once.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "agents/review/chunking.h"
#include "agents/review/model_output.h"
#include "agents/review/prompt.h"
#include "core/step_coverage.h"

namespace lw::agents::review {

// What happened to one chunk.
struct ChunkResult {
  std::vector<std::string> paths;
  bool reviewed = false;
  std::string reason;  // why not
};

struct RunResult {
  std::vector<ModelFinding> findings;   // as validated, before the noise filter
  std::vector<DroppedFinding> dropped;  // findings off the change, set aside
  std::vector<ChunkResult> chunks;      // one per chunk, in order
  std::int64_t tokensUsed = 0;
  bool budgetReached = false;
  std::optional<Error> stop;  // the guardrail stop that ended the run
  std::string modelError;     // the last model error a chunk failed with
};

// The answer a request may take, in tokens: a third of a chunk, from 256 to
// 2048 (a findings list is short next to the diff it is about).
std::int64_t answerTokens(std::int64_t chunkTokens);

// A request's estimated cost: its messages plus the answer it may take.
std::int64_t requestTokens(const std::vector<Message>& messages, std::int64_t answer);

class ReviewRun {
 public:
  // `context` has the run's instructions, title and body; its diff is set
  // per chunk. Everything passed must outlive the run.
  ReviewRun(BridgeClient& bridge, std::int64_t maxTokens, std::int64_t chunkTokens, PromptInputs context,
            RandomBits random, std::ostream& log);

  RunResult run(const std::vector<Chunk>& chunks);

 private:
  enum class Outcome { Answered, OverBudget, ModelFailed, Stopped };
  struct Answer {
    Outcome outcome = Outcome::Answered;
    std::string text;
    bool truncated = false;
  };

  ChunkResult review(const Chunk& chunk, const std::vector<std::string>& paths);
  void drop(const ModelFinding& f);
  Answer complete(const std::vector<Message>& messages);
  Answer completeOnce(const std::vector<Message>& messages, std::int64_t estimate);

  BridgeClient& bridge_;
  std::int64_t maxTokens_;
  std::int64_t answerTokens_;
  PromptInputs context_;
  RandomBits random_;
  std::ostream& log_;
  RunResult result_;
};

}  // namespace lw::agents::review
