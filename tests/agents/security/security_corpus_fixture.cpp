#include "security_corpus_fixture.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace lw::test {

namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "3,7-9" -> {3, 7, 8, 9}
std::vector<int> parseRanges(const std::string& spec) {
  std::vector<int> out;
  std::stringstream in(spec);
  std::string part;
  while (std::getline(in, part, ',')) {
    std::size_t dash = part.find('-');
    int first = std::stoi(part.substr(0, dash));
    int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
    for (int l = first; l <= last; ++l) out.push_back(l);
  }
  return out;
}

agents::security::ChangedFile changed(const std::string& path, const std::string& content,
                                      const std::vector<int>* only) {
  agents::security::ChangedFile all = agents::security::wholeFileAdded(path, content);
  if (only == nullptr) return all;
  agents::security::ChangedFile f;
  f.path = path;
  f.content = content;
  for (std::size_t i = 0; i < all.addedLines.size(); ++i)
    if (std::find(only->begin(), only->end(), all.addedLines[i]) != only->end()) {
      f.addedLines.push_back(all.addedLines[i]);
      f.addedText.push_back(all.addedText[i]);
    }
  return f;
}

SecurityCase loadCase(const fs::path& dir) {
  SecurityCase c;
  c.name = dir.filename().string();
  std::map<std::string, std::vector<int>> added;
  std::istringstream expected(readAll(dir / "expected"));
  for (std::string line; std::getline(expected, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.starts_with("added ")) {
      std::istringstream words(line.substr(6));
      std::string path, ranges;
      words >> path >> ranges;
      added[path] = parseRanges(ranges);
    } else if (line.starts_with("persona ")) {
      c.persona = line.substr(8);
    } else {
      c.expected.insert(line);
    }
  }
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "expected") continue;
    std::string rel = fs::relative(entry.path(), dir).generic_string();
    auto only = added.find(rel);
    c.files.push_back(changed(rel, readAll(entry.path()), only == added.end() ? nullptr : &only->second));
  }
  std::sort(c.files.begin(), c.files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return c;
}

}  // namespace

fs::path securityCorpusDir() { return fs::path(LOOPWRIGHT_SOURCE_DIR) / "tests/data/security/cases"; }

std::vector<SecurityCase> loadSecurityCorpus() {
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(securityCorpusDir()))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  std::vector<SecurityCase> out;
  for (const fs::path& d : dirs) out.push_back(loadCase(d));
  return out;
}

}  // namespace lw::test
