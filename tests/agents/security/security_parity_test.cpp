// builtin/security against zizmor's and poutine's own test corpora: recall
// per audit class (the reference finding matched by a finding of a mapped
// rule on its line, step or job), and false positives on the files the
// reference tool finds clean. Prints the table; the floors are in
// tests/data/security/corpus/mapping (docs: tests/data/security/corpus/README.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "agents/security/scan/scan.h"
#include "agents/security/workflow/workflow_model.h"
#include "security_parity_fixture.h"

using namespace lw;
using namespace lw::agents::security;

namespace {

// A clean file's finding that is not a false positive, and why.
struct Allowed {
  const char* corpus;
  const char* path;  // corpus path
  const char* rule;
  const char* argument;
};
const std::vector<Allowed> kAllowed = {
    {"poutine", ".github/workflows/invalid-yaml.yml", "security/unparsed-workflow",
     "The file is not YAML (a tab indents a key); poutine skips what it cannot parse, zizmor refuses it, and "
     "loopwright reports that no workflow rule read it: a file nothing checked is not clean."},
    {"poutine", ".github/action.yaml", "security/unparsed-workflow",
     "The file is the text `not an action`, not a mapping: the same argument as invalid-yaml.yml."},
    // poutine follows workflow_run to its parent workflows and is quiet when
    // none runs on a pull request; loopwright sees only the pull request's
    // files, not the parent (zizmor's dangerous-triggers flags the file too).
    {"poutine", ".github/workflows/workflow_run_reusable.yml", "security/untrusted-checkout",
     "workflow_run checks out and builds the triggering run's head; whether an outsider can start that run "
     "depends on a parent workflow loopwright does not see, so it reports the checkout."},
    {"poutine", ".github/workflows/workflow_run_reusable.yml", "security/missing-permissions",
     "poutine's rule covers pull_request_target and issue_comment only; loopwright also covers workflow_run, "
     "whose token is a write token by default (zizmor's excessive-permissions flags the file as well)."},
    // poutine's only pinning rule, unpinnable_action, reads actions' own
    // dependencies; it says nothing of a workflow's images and uses:, which
    // zizmor's unpinned-images and unpinned-uses report in the same shapes.
    {"poutine", ".github/workflows/anchors_multiple.yml", "security/unpinned-image",
     "`container: &container node:18` (and its two aliases) is a tag, not a digest; poutine has no rule for workflows' "
     "images."},
    {"poutine", ".github/workflows/reusable.yml", "security/unpinned-image",
     "`container: image: node:latest` is a tag, not a digest; poutine has no rule for workflows' images."},
    {"poutine", ".github/workflows/reusable.yml", "security/unpinned-action",
     "A reusable workflow called at a branch; poutine has no rule for workflows' uses:."},
};

// A reference finding loopwright leaves out on purpose, and why: counted
// neither found nor expected.
struct ArguedMiss {
  const char* corpus;
  const char* path;
  int line;
  const char* audit;
  const char* argument;
};
const std::vector<ArguedMiss> kArguedMisses = {
    {"zizmor", "template-injection/issue-1903-repro.yml", 21, "template-injection",
     "`(github.event.pull_request || github.event.issue).number` is a number either way; zizmor itself reports "
     "it as informational, low confidence (\"may expand\")."},
};

bool argued(const std::string& corpus, const test::ReferenceFinding& r) {
  return std::any_of(kArguedMisses.begin(), kArguedMisses.end(), [&](const ArguedMiss& a) {
    return corpus == a.corpus && r.path == a.path && r.line == a.line && r.audit == a.audit;
  });
}

bool allowed(const std::string& corpus, const std::string& path, const std::string& rule) {
  return std::any_of(kAllowed.begin(), kAllowed.end(),
                     [&](const Allowed& a) { return corpus == a.corpus && path == a.path && rule == a.rule; });
}

struct Range {
  int first = 0, last = 0;
  bool contains(int line) const { return line >= first && line <= last; }
};

// Where the steps and jobs of a workflow lie: each from its first line to
// the line before the next one (the last to the end of its job or file).
struct Layout {
  std::vector<Range> steps, jobs;
};

Layout layoutOf(const ChangedFile& f, bool isAction) {
  Layout out;
  Result<WorkflowModel> model = parseWorkflow(f.content, isAction);
  if (!model) return out;
  int end = static_cast<int>(f.lines().size());
  std::vector<JobModel> jobs = model->jobs;
  std::sort(jobs.begin(), jobs.end(), [](const JobModel& a, const JobModel& b) { return a.line < b.line; });
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    Range job{jobs[j].line, j + 1 < jobs.size() ? jobs[j + 1].line - 1 : end};
    out.jobs.push_back(job);
    const std::vector<StepModel>& steps = jobs[j].steps;
    for (std::size_t s = 0; s < steps.size(); ++s)
      out.steps.push_back({steps[s].line, s + 1 < steps.size() ? steps[s + 1].line - 1 : job.last});
  }
  return out;
}

// Whether a finding on `found` is on the place of a reference finding on
// `reference`: its line, its step, its job (outside the steps, or anywhere
// in it when the reference names only the job), or outside every job; a
// reference on line 0 is the whole file.
bool samePlace(const Layout& l, int reference, int found, bool jobOnly = false) {
  if (reference == 0 || reference == found) return true;
  for (const Range& s : l.steps)
    if (!jobOnly && s.contains(reference)) return s.contains(found);
  for (const Range& j : l.jobs)
    if (j.contains(reference)) return j.contains(found);
  return std::none_of(l.jobs.begin(), l.jobs.end(), [&](const Range& j) { return j.contains(found); });
}

struct ScannedFile {
  FileKind kind = FileKind::Other;
  Layout layout;
  std::vector<Finding> findings;
};

std::map<std::string, ScannedFile> scanCorpus(const test::ReferenceCorpus& c) {
  std::map<std::string, ScannedFile> out;
  for (const ChangedFile& f : c.files) {
    ScannedFile s;
    std::vector<std::string_view> lines = f.lines();
    s.kind = classify(f.path, lines.empty() ? std::string_view{} : lines.front());
    if (s.kind == FileKind::Workflow || s.kind == FileKind::Action) s.layout = layoutOf(f, s.kind == FileKind::Action);
    s.findings = scanFile(f, "").findings;
    out[f.path] = std::move(s);
  }
  return out;
}

struct Score {
  int expected = 0, found = 0;        // default persona (zizmor), all (poutine)
  int expectedAll = 0, foundAll = 0;  // every persona
  int notWorkflow = 0;                // on files loopwright does not read as workflows

  Score& operator+=(const Score& o) {
    expected += o.expected;
    found += o.found;
    expectedAll += o.expectedAll;
    foundAll += o.foundAll;
    notWorkflow += o.notWorkflow;
    return *this;
  }
};

// Whether the rule that made the finding runs in the default persona (what
// `persona:` left unset reports; scanFile reports every persona's rules).
bool isDefaultPersona(const Finding& f) {
  const RuleInfo* rule = findRule(f.ruleId);
  return rule == nullptr || rule->persona == Persona::Default;
}

// A configuration file (Dependabot's, pre-commit's) has no steps or jobs:
// its findings are in place on the reference's line only.
bool isConfigFile(FileKind kind) { return kind == FileKind::Dependabot || kind == FileKind::PreCommit; }

// Whether loopwright reads the file as a whole, with rules that may answer the reference.
bool isRead(FileKind kind) { return kind == FileKind::Workflow || kind == FileKind::Action || isConfigFile(kind); }

bool inPlace(const ScannedFile& s, const test::ReferenceFinding& r, const test::AuditMapping& m, int line) {
  if (isConfigFile(s.kind)) return r.line == line;
  return m.wholeFile || samePlace(s.layout, r.line, line, r.jobOnly);
}

// Found by a finding of one of the class's rules in its place; with
// `defaultOnly`, by a rule of the default persona.
bool isFound(const test::ReferenceFinding& r, const ScannedFile& s, const test::AuditMapping& m, bool defaultOnly) {
  return std::any_of(s.findings.begin(), s.findings.end(), [&](const Finding& f) {
    return std::find(m.rules.begin(), m.rules.end(), f.ruleId) != m.rules.end() &&
           (!defaultOnly || isDefaultPersona(f)) && inPlace(s, r, m, f.line);
  });
}

const test::AuditMapping* mappingOf(const std::vector<test::AuditMapping>& m, const std::string& tool,
                                    const std::string& audit) {
  auto it = std::find_if(m.begin(), m.end(), [&](const auto& x) { return x.tool == tool && x.audit == audit; });
  return it == m.end() ? nullptr : &*it;
}

// Each class's score; the misses of classes that have a rule go to `missed`.
std::map<std::string, Score> scoreCorpus(const test::ReferenceCorpus& c,
                                         const std::map<std::string, ScannedFile>& scanned,
                                         const std::vector<test::AuditMapping>& mapping,
                                         std::vector<std::string>& missed) {
  std::map<std::string, Score> out;
  for (const test::ReferenceFinding& r : c.findings) {
    if (argued(c.name, r)) continue;
    Score& score = out[r.audit];
    const ScannedFile& s = scanned.at(c.scannedAs.at(r.path));
    if (!isRead(s.kind)) {
      ++score.notWorkflow;
      continue;
    }
    const test::AuditMapping* m = mappingOf(mapping, c.tool, r.audit);
    bool found = m != nullptr && isFound(r, s, *m, false);
    if (!found && m != nullptr && !m->rules.empty())
      missed.push_back(c.name + " " + r.path + ":" + std::to_string(r.line) + " " + r.audit + " (" + r.persona + ")");
    ++score.expectedAll;
    score.foundAll += found;
    if (r.persona != "regular") continue;
    ++score.expected;
    // zizmor's default persona against loopwright's (poutine has no personas).
    score.found += m != nullptr && isFound(r, s, *m, c.tool == "zizmor");
  }
  return out;
}

std::string percent(int found, int expected) {
  if (expected == 0) return "   -";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%3d%%", found * 100 / expected);
  return buf;
}

std::string row(const std::string& tool, const std::string& audit, const Score& s, const test::AuditMapping* m) {
  std::ostringstream out;
  char buf[200];
  std::string floor = m == nullptr ? "?" : m->floorPercent ? std::to_string(*m->floorPercent) : "online";
  std::snprintf(buf, sizeof buf, "%-8s %-42s %3d/%-3d %s   %3d/%-3d %s   %-6s %3d  ", tool.c_str(), audit.c_str(),
                s.found, s.expected, percent(s.found, s.expected).c_str(), s.foundAll, s.expectedAll,
                percent(s.foundAll, s.expectedAll).c_str(), floor.c_str(), s.notWorkflow);
  out << buf;
  if (m == nullptr || m->rules.empty()) out << "-";
  for (std::size_t i = 0; m != nullptr && i < m->rules.size(); ++i) out << (i ? "," : "") << m->rules[i];
  return out.str() + "\n";
}

struct Measured {
  std::string table;
  std::vector<std::string> missed, falsePositives, allowedOnClean, notJudged, unmatched;
};

// Warnings and errors of judged rules, on the files the tool reports on,
// that no reference finding of a class mapped to the rule explains: not
// counted (the tool may see the same flaw under another audit), listed for
// whoever looks for false positives next.
void unmatchedFindings(const test::ReferenceCorpus& c, const std::map<std::string, ScannedFile>& scanned,
                       const std::vector<test::AuditMapping>& mapping, Measured& out) {
  std::map<std::string, std::vector<const test::ReferenceFinding*>> byPath;
  for (const test::ReferenceFinding& r : c.findings) byPath[r.path].push_back(&r);
  for (const auto& [path, refs] : byPath) {
    const ScannedFile& s = scanned.at(c.scannedAs.at(path));
    for (const Finding& f : s.findings) {
      bool judged = false, explained = false;
      for (const test::AuditMapping& m : mapping) {
        if (m.tool != c.tool || std::find(m.rules.begin(), m.rules.end(), f.ruleId) == m.rules.end()) continue;
        judged = true;
        for (const test::ReferenceFinding* r : refs)
          explained = explained || (r->audit == m.audit && inPlace(s, *r, m, f.line));
      }
      if (judged && !explained && f.severity != Severity::Notice && isDefaultPersona(f))
        out.unmatched.push_back(c.name + " " + path + ":" + std::to_string(f.line) + " " + f.ruleId);
    }
  }
}

// The rules whose ground a tool covers: those its audits map to, and the
// unparsed-workflow rule (each tool refuses or skips what it cannot read).
std::vector<std::string> judgedRules(const std::vector<test::AuditMapping>& mapping, const std::string& tool) {
  std::vector<std::string> out{"security/unparsed-workflow"};
  for (const test::AuditMapping& m : mapping)
    if (m.tool == tool) out.insert(out.end(), m.rules.begin(), m.rules.end());
  return out;
}

// A warning or error on a file the tool found clean is a false positive
// when the tool covers its rule (poutine has no pinning rule, zizmor no
// curl-pipe-shell: their silence says nothing there), unless kAllowed argues
// otherwise. Notices are not reported as problems (the measure), nor
// what only the pedantic and auditor personas report.
void falsePositives(const test::ReferenceCorpus& c, const std::map<std::string, ScannedFile>& scanned,
                    const std::vector<std::string>& judged, Measured& out) {
  for (const std::string& path : c.clean)
    for (const Finding& f : scanned.at(c.scannedAs.at(path)).findings) {
      std::string where = c.name + " " + path + ":" + std::to_string(f.line) + " " + f.ruleId;
      if (f.severity == Severity::Notice || !isDefaultPersona(f)) continue;
      if (std::find(judged.begin(), judged.end(), f.ruleId) == judged.end())
        out.notJudged.push_back(where);
      else if (allowed(c.name, path, f.ruleId))
        out.allowedOnClean.push_back(where);
      else
        out.falsePositives.push_back(where);
    }
}

// Each tool's classes over all its corpora, every mapped class listed.
std::map<std::string, std::map<std::string, Score>> scoreAll(const std::vector<test::AuditMapping>& mapping,
                                                             Measured& m, int& cleanFiles) {
  std::map<std::string, std::map<std::string, Score>> byTool;
  for (const std::string& name : test::referenceCorpusNames()) {
    test::ReferenceCorpus corpus = test::loadReferenceCorpus(name);
    REQUIRE(corpus.findings.size() >= 40u);
    std::map<std::string, ScannedFile> scanned = scanCorpus(corpus);
    for (const auto& [audit, score] : scoreCorpus(corpus, scanned, mapping, m.missed))
      byTool[corpus.tool][audit] += score;
    falsePositives(corpus, scanned, judgedRules(mapping, corpus.tool), m);
    unmatchedFindings(corpus, scanned, mapping, m);
    cleanFiles += static_cast<int>(corpus.clean.size());
  }
  for (const test::AuditMapping& a : mapping) byTool[a.tool][a.audit];
  return byTool;
}

}  // namespace

TEST_CASE("security parity: recall per zizmor audit and poutine rule, no false positive on their clean files") {
  std::vector<test::AuditMapping> mapping = test::loadAuditMapping();
  Measured m;
  m.table = "tool     audit                                    default         every persona  floor  other rules\n";
  int cleanFiles = 0;
  for (const auto& [tool, scores] : scoreAll(mapping, m, cleanFiles))
    for (const auto& [audit, score] : scores) {
      const test::AuditMapping* a = mappingOf(mapping, tool, audit);
      m.table += row(tool, audit, score, a);
      CAPTURE(tool);
      CAPTURE(audit);
      CHECK_MESSAGE(a != nullptr, "add the audit to tests/data/security/corpus/mapping");
      if (a == nullptr || !a->floorPercent) continue;
      CHECK_MESSAGE(score.found * 100 >= *a->floorPercent * score.expected, "recall fell below the floor");
    }
  auto list = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += "  " + s + "\n";
    return out.empty() ? "  (none)\n" : out;
  };
  MESSAGE(
      "recall (found/expected) per class; 'other': reference findings on files loopwright does not read as "
      "workflows, actions or configuration files\n"
      << m.table << "missed, in the classes that have a rule:\n"
      << list(m.missed) << "left out on purpose (kArguedMisses): " << kArguedMisses.size() << "\n"
      << "warnings and errors on the " << cleanFiles << " clean files:\n"
      << list(m.falsePositives) << "allowed (tests/agents/security/security_parity_test.cpp, kAllowed):\n"
      << list(m.allowedOnClean) << "not judged (the tool has no audit for the rule):\n"
      << list(m.notJudged) << "not matched by any reference finding, on files the tool reports on:\n"
      << list(m.unmatched));
  CHECK(m.falsePositives.empty());
}
