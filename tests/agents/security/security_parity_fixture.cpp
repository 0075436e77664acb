#include "security_parity_fixture.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lw::test {

namespace fs = std::filesystem;

namespace {

fs::path corpusDir() { return fs::path(LOOPWRIGHT_SOURCE_DIR) / "tests/data/security/corpus"; }

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> dataLines(const fs::path& p) {
  std::vector<std::string> out;
  std::istringstream in(readAll(p));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

std::string baseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

bool named(const std::string& base, const char* stem) {
  return base == std::string(stem) + ".yml" || base == std::string(stem) + ".yaml";
}

// zizmor reads an input by its name: action.yml is an action, dependabot.yml
// and the pre-commit and zizmor configurations are not workflows, anything
// else is. loopwright reads by place, so the workflows move under
// .github/workflows/ (flattened, so that names stay unique) and the
// Dependabot configurations into a .github/ folder where they are.
std::string zizmorScanPath(const std::string& corpusPath) {
  std::string base = baseName(corpusPath);
  if (named(base, "dependabot") && corpusPath.find(".github/workflows/") == std::string::npos)
    return corpusPath.substr(0, corpusPath.size() - base.size()) + ".github/" + base;
  if (named(base, "action") || named(base, ".pre-commit-config") || named(base, "zizmor") ||
      !(base.ends_with(".yml") || base.ends_with(".yaml")))
    return corpusPath;
  std::string flat = corpusPath;
  std::replace(flat.begin(), flat.end(), '/', '~');
  return ".github/workflows/" + flat;
}

ReferenceFinding parseFinding(std::istringstream& words) {
  ReferenceFinding f;
  std::string where;
  std::string unit;
  words >> where >> f.audit >> f.persona >> unit;
  f.jobOnly = unit == "job";
  std::size_t colon = where.rfind(':');
  f.path = where.substr(0, colon);
  f.line = std::stoi(where.substr(colon + 1));
  if (f.persona.empty()) f.persona = "regular";
  return f;
}

}  // namespace

std::vector<std::string> referenceCorpusNames() { return {"zizmor", "gha-hazmat", "poutine"}; }

ReferenceCorpus loadReferenceCorpus(const std::string& name) {
  struct Spec {
    const char* name;
    const char* data;  // the folder of the files
    const char* tool;
    bool flat;  // zizmor's layout: files by audit, read as workflows by name
  };
  static const Spec kSpecs[] = {{"zizmor", "test-data", "zizmor", true},
                                {"gha-hazmat", "repo", "zizmor", false},
                                {"poutine", "testdata", "poutine", false}};
  const Spec& spec = *std::find_if(std::begin(kSpecs), std::end(kSpecs), [&](const Spec& s) { return name == s.name; });
  ReferenceCorpus c;
  c.name = name;
  c.tool = spec.tool;
  fs::path data = corpusDir() / name / spec.data;
  for (const auto& entry : fs::recursive_directory_iterator(data)) {
    if (!entry.is_regular_file()) continue;
    std::string rel = fs::relative(entry.path(), data).generic_string();
    std::string scanned = spec.flat ? zizmorScanPath(rel) : rel;
    c.scannedAs[rel] = scanned;
    c.files.push_back(agents::security::wholeFileAdded(scanned, readAll(entry.path())));
  }
  std::sort(c.files.begin(), c.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  for (const std::string& line : dataLines(corpusDir() / name / "expected")) {
    std::istringstream words(line);
    std::string kind, path;
    words >> kind;
    if (kind == "finding")
      c.findings.push_back(parseFinding(words));
    else if (words >> path; kind == "clean")
      c.clean.insert(path);
    else if (kind == "nodefault")
      c.noDefault.insert(path);
  }
  return c;
}

std::vector<AuditMapping> loadAuditMapping() {
  std::vector<AuditMapping> out;
  for (const std::string& line : dataLines(corpusDir() / "mapping")) {
    std::istringstream words(line);
    AuditMapping m;
    std::string floor, rules, scope;
    words >> m.tool >> m.audit >> floor >> rules >> scope;
    m.wholeFile = scope == "file";
    if (floor != "online") m.floorPercent = std::stoi(floor);
    std::istringstream ids(rules);
    for (std::string id; std::getline(ids, id, ',');)
      if (id != "-") m.rules.push_back(id);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace lw::test
