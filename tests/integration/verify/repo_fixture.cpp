#include "integration/verify/repo_fixture.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lw::test {
namespace fs = std::filesystem;

bool haveGit() { return std::system("git --version >/dev/null 2>&1") == 0; }

TempRepo::TempRepo() {
  std::string templ = (fs::temp_directory_path() / "lw-verify-XXXXXX").string();
  root_ = mkdtemp(templ.data());
  dir_ = root_ + "/repo";
  scratch_ = root_ + "/scratch";
  fs::create_directories(dir_);
  fs::create_directories(scratch_);
  int rc = sh(R"(
    set -e
    export GIT_CONFIG_NOSYSTEM=1 HOME="$PWD/.."
    git init -q -b main .
    git config user.email t@example.com
    git config user.name test
    printf 'ignored/\n*.log\n' > .gitignore
    printf 'alpha\n' > a.txt
    mkdir -p dir/sub .github/workflows
    printf 'beta\n' > dir/b.txt
    printf 'gamma\n' > dir/sub/c.txt
    printf '#!/bin/sh\necho hi\n' > run.sh && chmod +x run.sh
    printf 'on: push\n' > .github/workflows/ci.yml
    ln -s dir/b.txt link-to-b
    git add -A && git commit -q -m first
    printf 'alpha 2\n' >> a.txt
    git commit -q -am second
    git tag v1
    git branch old
    git pack-refs --all
    git branch loose
    printf 'untracked\n' > notes.txt
    mkdir -p ignored/deep
    printf 'cache\n' > ignored/cache.bin
    printf 'deep\n' > ignored/deep/x.bin
    printf 'log\n' > build.log
  )");
  if (rc != 0) throw std::runtime_error("fixture repository setup failed");
}

TempRepo::~TempRepo() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

int TempRepo::sh(const std::string& script) const {
  std::string path = root_ + "/script.sh";
  {
    std::ofstream out(path);
    out << "cd '" << dir_ << "' || exit 99\nexport GIT_CONFIG_NOSYSTEM=1 HOME='" << root_ << "'\n" << script << "\n";
  }
  int rc = std::system(("sh '" + path + "' >/dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

namespace {

void walk(const fs::path& root, const fs::path& dir, std::map<std::string, NodeState>& out) {
  for (const auto& ent : fs::directory_iterator(dir)) {
    std::string rel = fs::relative(ent.path(), root).string();
    if (rel == ".git/objects" || rel.starts_with(".git/objects/pack") ||
        (rel.starts_with(".git/objects/") && !rel.starts_with(".git/objects/info")) ||
        rel.starts_with(".git/refs/loopwright") || rel == ".git/refs/loopwright")
      continue;
    struct stat s {};
    lstat(ent.path().c_str(), &s);
    NodeState n;
    n.perm = s.st_mode & 07777;
    if (S_ISLNK(s.st_mode)) {
      n.type = 'l';
      n.perm = 0;
      n.content = fs::read_symlink(ent.path()).string();
    } else if (S_ISDIR(s.st_mode)) {
      n.type = 'd';
      out[rel] = n;
      walk(root, ent.path(), out);
      continue;
    } else {
      std::ifstream in(ent.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      n.content = ss.str();
    }
    out[rel] = n;
  }
}

}  // namespace

std::map<std::string, NodeState> snapshotBytes(const std::string& repoDir) {
  std::map<std::string, NodeState> out;
  walk(repoDir, repoDir, out);
  return out;
}

std::string firstDifference(const std::map<std::string, NodeState>& a, const std::map<std::string, NodeState>& b) {
  for (const auto& [path, node] : a) {
    auto it = b.find(path);
    if (it == b.end()) return "missing after: " + path;
    if (!(it->second == node)) return "differs: " + path;
  }
  for (const auto& [path, node] : b)
    if (!a.contains(path)) return "extra after: " + path;
  return "";
}

lw::Result<lw::verify::Baseline> baselineOf(const TempRepo& repo) {
  lw::verify::BaselineOptions options;
  options.storePath = repo.scratch() + "/store";
  return lw::verify::takeBaseline(repo.dir(), options);
}

}  // namespace lw::test
