// Words of an issue as the triage agent compares them: lower-case ASCII
// words, stop words dropped, a light suffix stemmer ("crashes", "crashed",
// "crashing" -> "crash"), and TF-IDF vectors with cosine similarity. Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lw::agents::triage {

// A word reduced to its stem: lower-cased, a plural or -ed/-ing ending
// removed from words long enough to keep a stem of three letters.
std::string stem(std::string_view word);

// The stems of the content words of `text` in order (stop words and words
// of one letter or digits only dropped). Code identifiers split at '_'/'.'.
std::vector<std::string> contentTerms(std::string_view text);

// The terms of an issue: the title's count twice (a title says what the
// issue is about more densely than its body).
std::vector<std::string> issueTerms(std::string_view title, std::string_view body);

using TermVector = std::map<std::string, double>;

// TF-IDF over a small corpus: each document's term frequencies weighted by
// the smoothed inverse document frequency ln((1 + N) / (1 + df)) + 1.
class TfIdf {
 public:
  explicit TfIdf(const std::vector<std::vector<std::string>>& documents);
  TermVector vector(const std::vector<std::string>& terms) const;
  double idf(const std::string& term) const;

 private:
  std::map<std::string, int> documentFrequency_;
  std::size_t documents_ = 0;
};

// Cosine of the angle between two vectors: 0 when either is empty.
double cosine(const TermVector& a, const TermVector& b);

}  // namespace lw::agents::triage
