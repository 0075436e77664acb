#include "agents/triage/text_terms.h"

#include <cctype>
#include <cmath>
#include <set>

namespace lw::agents::triage {

namespace {

// English function words and the words every issue uses ("issue", "please"),
// which say nothing about which issue it is.
const std::set<std::string, std::less<>>& stopWords() {
  static const std::set<std::string, std::less<>> words = {
      "a",     "about",    "after",  "again",    "all",       "also",    "am",         "an",        "and",
      "any",   "are",      "as",     "at",       "be",        "been",    "before",     "being",     "but",
      "by",    "can",      "cannot", "could",    "did",       "do",      "does",       "doing",     "don",
      "done",  "for",      "from",   "get",      "got",       "had",     "has",        "have",      "having",
      "he",    "her",      "here",   "him",      "his",       "how",     "i",          "if",        "in",
      "into",  "is",       "it",     "its",      "just",      "let",     "like",       "me",        "more",
      "most",  "my",       "no",     "not",      "now",       "of",      "on",         "once",      "one",
      "only",  "or",       "other",  "our",      "out",       "over",    "same",       "see",       "seem",
      "seems", "she",      "should", "so",       "some",      "such",    "than",       "that",      "the",
      "their", "them",     "then",   "there",    "these",     "they",    "this",       "those",     "through",
      "to",    "too",      "under",  "up",       "use",       "used",    "using",      "very",      "want",
      "was",   "we",       "were",   "what",     "when",      "where",   "which",      "while",     "who",
      "why",   "will",     "with",   "would",    "you",       "your",    "hi",         "hello",     "thanks",
      "thank", "please",   "issue",  "problem",  "question",  "happen",  "happens",    "something", "anyone",
      "way",   "trying",   "try",    "tried",    "work",      "works",   "working",    "still",     "response",
      "steps", "expected", "actual", "behavior", "behaviour", "version", "description"};
  return words;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string stem(std::string_view word) {
  std::string w;
  for (char c : word) w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Longest ending first; a stem keeps at least three letters.
  for (std::string_view suffix : {"ing", "ies", "es", "ed", "s"}) {
    if (!endsWith(w, suffix) || w.size() < suffix.size() + 3) continue;
    if (suffix == "s" && endsWith(w, "ss")) break;  // "class", "process"
    w.erase(w.size() - suffix.size());
    if (suffix == "ies") w += 'y';
    // "crashes" -> "crash", but "uses" -> "us" is not wanted: -es only after s, x, z, ch, sh.
    if (suffix == "es" &&
        !(endsWith(w, "s") || endsWith(w, "x") || endsWith(w, "z") || endsWith(w, "ch") || endsWith(w, "sh")))
      w += 'e';
    break;
  }
  return w;
}

std::vector<std::string> contentTerms(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    bool digitsOnly = word.find_first_not_of("0123456789") == std::string::npos;
    if (word.size() > 1 && !digitsOnly && !stopWords().count(word)) {
      std::string s = stem(word);
      if (!stopWords().count(s)) out.push_back(std::move(s));
    }
    word.clear();
  };
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

std::vector<std::string> issueTerms(std::string_view title, std::string_view body) {
  std::vector<std::string> terms = contentTerms(title);
  std::vector<std::string> again = terms;
  terms.insert(terms.end(), again.begin(), again.end());
  std::vector<std::string> rest = contentTerms(body);
  terms.insert(terms.end(), rest.begin(), rest.end());
  return terms;
}

TfIdf::TfIdf(const std::vector<std::vector<std::string>>& documents) : documents_(documents.size()) {
  for (const auto& doc : documents) {
    std::set<std::string> seen(doc.begin(), doc.end());
    for (const auto& t : seen) ++documentFrequency_[t];
  }
}

double TfIdf::idf(const std::string& term) const {
  auto it = documentFrequency_.find(term);
  const double df = it == documentFrequency_.end() ? 0 : it->second;
  return std::log((1.0 + static_cast<double>(documents_)) / (1.0 + df)) + 1.0;
}

TermVector TfIdf::vector(const std::vector<std::string>& terms) const {
  TermVector v;
  for (const auto& t : terms) v[t] += 1.0;
  for (auto& [term, weight] : v) weight *= idf(term);
  return v;
}

double cosine(const TermVector& a, const TermVector& b) {
  double dot = 0, na = 0, nb = 0;
  for (const auto& [t, w] : a) {
    na += w * w;
    if (auto it = b.find(t); it != b.end()) dot += w * it->second;
  }
  for (const auto& [t, w] : b) nb += w * w;
  return na == 0 || nb == 0 ? 0 : dot / std::sqrt(na * nb);
}

}  // namespace lw::agents::triage
