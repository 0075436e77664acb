#include "agents/triage/duplicates.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "agents/triage/text_terms.h"

namespace lw::agents::triage {

std::string searchQuery(const IssueText& issue, std::size_t maxTerms, std::size_t maxChars) {
  const std::vector<std::string> terms = issueTerms(issue.title, issue.body);
  std::map<std::string, int> count;
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    ++count[terms[i]];
    first.emplace(terms[i], i);
  }
  std::vector<std::string> ranked;
  for (const auto& [t, n] : count) ranked.push_back(t);
  std::sort(ranked.begin(), ranked.end(), [&](const std::string& a, const std::string& b) {
    if (count[a] != count[b]) return count[a] > count[b];
    if (a.size() != b.size()) return a.size() > b.size();
    return first[a] < first[b];
  });
  std::string query;
  for (std::size_t i = 0; i < ranked.size() && i < maxTerms; ++i) {
    if (query.size() + ranked[i].size() + 1 > maxChars) break;
    query += (query.empty() ? "" : " ") + ranked[i];
  }
  return query;
}

std::vector<RankedDuplicate> rankDuplicates(const IssueText& issue, const std::vector<IssueText>& candidates,
                                            double threshold, std::size_t max) {
  std::vector<const IssueText*> others;
  std::set<int> seen{issue.number};
  for (const IssueText& c : candidates)
    if (seen.insert(c.number).second) others.push_back(&c);

  std::vector<std::vector<std::string>> documents{issueTerms(issue.title, issue.body)};
  for (const IssueText* c : others) documents.push_back(issueTerms(c->title, c->body));
  const TfIdf model(documents);
  const TermVector mine = model.vector(documents[0]);

  std::vector<RankedDuplicate> ranked;
  for (std::size_t i = 0; i < others.size(); ++i) {
    const double score = cosine(mine, model.vector(documents[i + 1]));
    if (score >= threshold) ranked.push_back({others[i]->number, score, others[i]->title});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const RankedDuplicate& a, const RankedDuplicate& b) { return a.score > b.score; });
  if (ranked.size() > max) ranked.resize(max);
  return ranked;
}

std::string duplicateReason(const RankedDuplicate& d) {
  char score[16];
  std::snprintf(score, sizeof score, "%.2f", d.score);
  std::string title = d.title;
  if (title.size() > 200) {
    std::size_t cut = 200;
    while (cut > 0 && (static_cast<unsigned char>(title[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    title = title.substr(0, cut) + "…";
  }
  return "similar title and description (score " + std::string(score) + "): " + title;
}

}  // namespace lw::agents::triage
