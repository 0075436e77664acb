// Likely duplicates of an issue: a search query from its most distinctive
// words, and the search's candidates ranked locally by TF-IDF cosine over
// title and body (GitHub's own ranking is by match, not similarity). Pure.
#pragma once

#include <string>
#include <vector>

namespace lw::agents::triage {

struct IssueText {
  int number = 0;
  std::string title;
  std::string body;
  std::string state;  // "open" | "closed"; "" when unknown
};

// At most `maxTerms` distinct stems of the issue, the most frequent first
// (title words count twice; ties: the longer word, then the earlier one),
// joined by spaces and at most `maxChars` long (GitHub's search refuses
// queries past 256 characters).
std::string searchQuery(const IssueText& issue, std::size_t maxTerms = 5, std::size_t maxChars = 200);

struct RankedDuplicate {
  int number = 0;
  double score = 0;  // cosine similarity 0..1
  std::string title;
};

// The candidates most similar to `issue`, best first: the issue itself and
// repeated numbers excluded, scores at or above `threshold`, at most `max`.
// The IDF is taken over the issue and its candidates.
std::vector<RankedDuplicate> rankDuplicates(const IssueText& issue, const std::vector<IssueText>& candidates,
                                            double threshold, std::size_t max);

// "similar title and description (score 0.82): <title>", for triage.json.
std::string duplicateReason(const RankedDuplicate& d);

}  // namespace lw::agents::triage
