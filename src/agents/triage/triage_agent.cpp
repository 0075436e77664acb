#include "agents/triage/triage_agent.h"

#include <ostream>

#include <boost/json.hpp>

#include "agents/output.h"
#include "agents/triage/duplicates.h"
#include "agents/triage/issue_forms.h"
#include "agents/triage/labels.h"
#include "agents/triage/triage_params.h"
#include "agents/triage/triage_report.h"
#include "policy/model/tool_names.h"

namespace lw::agents {

namespace json = boost::json;
using namespace triage;

namespace {

// GitHub's search answers at most 100 a page; 30 candidates are plenty to
// rank and keep the search tool's own 30/min budget for other steps.
constexpr int kSearchResults = 30;

std::string str(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::vector<std::string> names(const json::object& o, const char* key) {
  std::vector<std::string> out;
  if (const json::value* v = o.if_contains(key); v && v->is_array())
    for (const json::value& n : v->as_array())
      if (n.is_string()) out.emplace_back(n.get_string());
  return out;
}

IssueText issueText(const json::object& o) {
  IssueText t;
  if (const json::value* n = o.if_contains("number"); n && n->is_int64()) t.number = static_cast<int>(n->get_int64());
  t.title = str(o, "title");
  t.body = str(o, "body");
  t.state = str(o, "state");
  return t;
}

Result<std::vector<RepoLabel>> repositoryLabels(BridgeClient& bridge) {
  auto answer = bridge.call(tools::kGithubLabels, {});
  if (!answer) return std::move(answer).error();
  std::vector<RepoLabel> labels;
  if (answer->is_object())
    if (const json::value* list = answer->as_object().if_contains("labels"); list && list->is_array())
      for (const json::value& l : list->as_array())
        if (l.is_object() && !str(l.as_object(), "name").empty())
          labels.push_back({str(l.as_object(), "name"), str(l.as_object(), "description")});
  return labels;
}

// The model's choice, validated; nullopt (logged) when it cannot be had.
std::optional<std::vector<std::string>> modelLabels(AgentContext& ctx, const IssueText& issue,
                                                    const std::vector<RepoLabel>& labels) {
  json::object args{{"messages", labelPrompt(issue.title, issue.body, labels)}, {"maxTokens", 200}, {"temperature", 0}};
  auto answer = ctx.bridge.call(tools::kModelComplete, args);
  if (!answer) {
    ctx.log << "triage: model.complete failed (" << answer.error().message << "); labels chosen by matching\n";
    return std::nullopt;
  }
  const std::string text = answer->is_object() ? str(answer->as_object(), "text") : std::string();
  auto parsed = parseModelLabels(text, labels);
  if (!parsed) {
    ctx.log << "triage: the model's answer held no JSON array of labels; labels chosen by matching\n";
    return std::nullopt;
  }
  for (const std::string& d : parsed->dropped)
    ctx.log << "triage: dropped '" << d << "': not a label of this repository\n";
  return parsed->chosen;
}

std::vector<std::string> chooseLabels(AgentContext& ctx, const TriageParams& params, const IssueText& issue,
                                      const std::vector<std::string>& existing) {
  if (!params.labels) return existing;
  auto labels = repositoryLabels(ctx.bridge);
  if (!labels) {
    ctx.log << "triage: github.labels failed (" << labels.error().message << "); no labels proposed\n";
    return existing;
  }
  std::optional<std::vector<std::string>> chosen;
  if (params.useModel) chosen = modelLabels(ctx, issue, *labels);
  if (!chosen) chosen = matchLabels(issue.title, issue.body, *labels);
  return mergeLabels(existing, *chosen);
}

std::vector<IssueText> searchCandidates(AgentContext& ctx, const IssueText& issue) {
  std::vector<IssueText> candidates;
  // The three most distinctive words, then the two: a narrower query finds
  // little when the issue words things differently.
  for (std::size_t terms : {3u, 2u}) {
    const std::string query = searchQuery(issue, terms);
    if (query.empty() || candidates.size() >= static_cast<std::size_t>(kSearchResults)) break;
    auto found = ctx.bridge.call(tools::kGithubIssuesSearch,
                                 json::object{{"query", query + " is:issue"}, {"maxResults", kSearchResults}});
    if (!found) {
      ctx.log << "triage: github.issues.search failed (" << found.error().message << ")\n";
      break;
    }
    if (const json::value* items = found->is_object() ? found->as_object().if_contains("items") : nullptr;
        items && items->is_array())
      for (const json::value& item : items->as_array())
        if (item.is_object()) candidates.push_back(issueText(item.as_object()));
  }
  return candidates;
}

std::optional<FormCheck> checkIssueForms(AgentContext& ctx, const IssueText& issue) {
  std::vector<std::string> skipped;
  const std::vector<IssueForm> forms = loadIssueForms(ctx.workspace, skipped);
  for (const std::string& s : skipped) ctx.log << "triage: issue form skipped: " << s << "\n";
  if (forms.empty()) return std::nullopt;
  FormCheck check;
  const IssueForm* form = formOf(issue.body, forms);
  if (!form) {
    for (const IssueForm& f : forms) check.available.push_back(f.name.empty() ? f.file : f.name);
    return check;
  }
  check.formName = form->name.empty() ? form->file : form->name;
  check.missing = missingFields(issue.body, *form);
  return check;
}

}  // namespace

int runTriageAgent(AgentContext& ctx) {
  auto params = readTriageParams(ctx.params);
  if (!params) {
    ctx.log << "triage: " << params.error().message << "\n";
    return 2;
  }
  auto answer = ctx.bridge.call(tools::kGithubIssue, {});
  if (!answer || !answer->is_object()) {
    ctx.log << "triage: cannot read the issue: "
            << (answer ? "github.issue returned no object" : answer.error().message) << "\n";
    return 1;
  }
  const IssueText issue = issueText(answer->as_object());
  TriageFacts facts;
  facts.labels = chooseLabels(ctx, *params, issue, names(answer->as_object(), "labels"));
  if (params->maxDuplicates > 0)
    facts.duplicates = rankDuplicates(issue, searchCandidates(ctx, issue), params->duplicateThreshold,
                                      static_cast<std::size_t>(params->maxDuplicates));
  if (params->checkForms) facts.forms = checkIssueForms(ctx, issue);
  Status written = writeTriage(ctx.outDir, toTriageResult(facts));
  if (!written) {
    ctx.log << "triage: " << written.error().message << "\n";
    return 1;
  }
  ctx.log << "triage: " << facts.labels.size() << " label(s), " << facts.duplicates.size() << " likely duplicate(s)\n";
  return 0;
}

}  // namespace lw::agents
