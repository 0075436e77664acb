// A stand-in for a model, for the demo and the end-to-end tests: it answers
// builtin/review's requests in the agent's output contract with findings on
// the added lines that match a few fixed patterns. It is not a reviewer; it
// is a deterministic script that drives the whole path (prompt, lane,
// validation, mapping, publication) without a model provider.
#pragma once

#include <string>

#include <boost/json/value.hpp>

namespace lw::test {

// The completion text for a chat request (OpenAI or Anthropic shape): a
// JSON object {"findings": [...]} for the diff in the last user message.
std::string demoReviewerAnswer(const boost::json::value& request);

}  // namespace lw::test
