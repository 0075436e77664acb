// Labels for an issue, chosen only among the repository's own: by matching
// the words against label names and descriptions (with a small
// synonym table), or by the step's model lane, whose answer is validated
// against the same list. Existing labels are always kept. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <boost/json/array.hpp>

namespace lw::agents::triage {

struct RepoLabel {
  std::string name;
  std::string description;
};

// Labels whose name (or synonym) or description words occur in the issue:
// a name word present chooses the label; a description chooses it when at
// least two of its content words and half of them are present. Labels that
// record a maintainer's decision (duplicate, wontfix, invalid, help wanted,
// good first issue) are never chosen. At most `max`, in repository order.
std::vector<std::string> matchLabels(const std::string& title, const std::string& body,
                                     const std::vector<RepoLabel>& labels, std::size_t max = 5);

// The chat messages asking a model to choose labels from `labels` only; the
// issue's text is fenced as data.
boost::json::array labelPrompt(const std::string& title, const std::string& body, const std::vector<RepoLabel>& labels);

struct ModelLabels {
  std::vector<std::string> chosen;   // real labels, as the repository spells them
  std::vector<std::string> dropped;  // what the model named that is no label here
};

// The model's answer (a JSON array of names, possibly inside prose or a
// code fence) checked against `labels` (case-insensitively); nullopt when
// the answer holds no JSON array of strings.
std::optional<ModelLabels> parseModelLabels(const std::string& answer, const std::vector<RepoLabel>& labels,
                                            std::size_t max = 5);

// `existing` followed by the chosen labels not already in it.
std::vector<std::string> mergeLabels(const std::vector<std::string>& existing, const std::vector<std::string>& chosen);

}  // namespace lw::agents::triage
