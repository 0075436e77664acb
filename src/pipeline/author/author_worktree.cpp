#include "pipeline/author/author_worktree.h"

#include <algorithm>
#include <cctype>
#include <system_error>

#include <boost/json.hpp>

#include "core/file_io.h"
#include "core/step_label.h"
#include "lease/owned_resource.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxResource = 128;
// Renewed every third of it while the worktree exists (lease/renewer.h): a
// run that dies leaves a worktree that can be reclaimed a minute later.
constexpr lease::Ttl kWorktreeTtl{60'000};

std::string fileSafe(std::string s) {
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-')) c = '_';
  if (s.empty() || s.front() == '.') s.insert(s.begin(), '_');
  return s;
}

// What a reclaim needs to find the worktree again after a crash: written
// before the worktree is added, removed after it is gone.
struct WorktreeRecord {
  std::string resource, name;
  fs::path repo, path;
};

Status writeRecord(const fs::path& file, const WorktreeRecord& r) {
  boost::json::object o{
      {"resource", r.resource}, {"name", r.name}, {"repo", r.repo.string()}, {"path", r.path.string()}};
  return writeFileAtomic(file.string(), boost::json::serialize(o) + "\n");
}

Result<WorktreeRecord> readRecord(const fs::path& file) {
  auto text = readBoundedFile(file.string(), 64 * 1024, ErrorCode::IoError);
  if (!text) return text.error();
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(*text, ec);
  const auto* o = v.if_object();
  auto str = [&](const char* key) -> std::string {
    const auto* s = o ? o->if_contains(key) : nullptr;
    return s && s->is_string() ? std::string(s->get_string()) : std::string();
  };
  WorktreeRecord r{str("resource"), str("name"), str("repo"), str("path")};
  if (ec || o == nullptr || r.resource.empty() || r.name.empty() || r.repo.empty() || r.path.empty())
    return makeError(ErrorCode::IoError, file.string() + " is not a worktree record", "", file.string());
  return r;
}

// Remove and prune, then forget the record: the lease is released after.
Status destroyWorktree(const WorktreeRecord& r, const fs::path& recordFile) {
  if (auto removed = verify::removeWorktree(r.repo, r.name, r.path); !removed) return removed;
  std::error_code ec;
  fs::remove(recordFile, ec);
  return Ok{};
}

}  // namespace

WorktreePlan planWorktree(const fs::path& stateDir, const std::string& runId, const EffectiveStep& step, long pid) {
  WorktreePlan p;
  const std::string run = fileSafe(runId), stage = fileSafe(step.stage), name = fileSafe(step.step);
  p.name = run + "-" + stage + "-" + name;
  p.resource = ("worktree." + run + "." + stage + "." + name).substr(0, kMaxResource);
  p.path = stateDir / "worktrees" / p.name;
  p.record = stateDir / "worktrees" / (p.name + ".json");
  p.holder = "run " + runId + " step " + stepLabel(step.stage, step.step) + " pid " + std::to_string(pid);
  p.ttl = kWorktreeTtl;
  return p;
}

AuthorWorktree::AuthorWorktree(lease::Store& store, const lease::Lease& held, lease::Ttl ttl, fs::path repo,
                               verify::LinkedWorktree tree, fs::path record)
    : store_(store),
      renewer_(store, held, ttl),
      repo_(std::move(repo)),
      tree_(std::move(tree)),
      record_(std::move(record)) {}

AuthorWorktree::~AuthorWorktree() { (void)teardown(); }

Result<std::unique_ptr<AuthorWorktree>> AuthorWorktree::open(lease::Store& store, const WorktreePlan& plan,
                                                             const fs::path& repo, const std::string& commit) {
  verify::LinkedWorktree made;
  const WorktreeRecord record{plan.resource, plan.name, repo, plan.path};
  lease::ResourceActions actions;
  actions.create = [&](const lease::Lease&) -> Status {
    std::error_code ec;
    fs::create_directories(plan.path.parent_path(), ec);
    if (auto written = writeRecord(plan.record, record); !written) return written;
    auto added = verify::addDetachedWorktree(repo, plan.name, plan.path, commit);
    if (!added) return added.error();
    made = *added;
    return Ok{};
  };
  actions.destroy = [&](const lease::Lease&) { return destroyWorktree(record, plan.record); };
  auto held = lease::claimAndCreate(store, plan.resource, plan.holder, plan.ttl, actions);
  if (!held) return held.error();
  return std::unique_ptr<AuthorWorktree>(new AuthorWorktree(store, *held, plan.ttl, repo, made, plan.record));
}

Status AuthorWorktree::checkFence() { return store_.checkFence(renewer_.current()); }

Status AuthorWorktree::teardown() {
  if (tornDown_) return Ok{};
  tornDown_ = true;
  // No renewal races the marker: the lease is the renewer's latest.
  renewer_.stop();
  const lease::Lease held = renewer_.current();
  const WorktreeRecord record{held.resource, tree_.name, repo_, tree_.path};
  return lease::tearDown(store_, held, [&](const lease::Lease&) { return destroyWorktree(record, record_); });
}

std::vector<std::string> reclaimExpiredWorktrees(lease::Store& store, const fs::path& stateDir,
                                                 const std::string& holder) {
  std::vector<std::string> notes;
  std::error_code ec;
  std::vector<fs::path> records;  // listed first: a reclaim removes entries of this directory
  for (const auto& entry : fs::directory_iterator(stateDir / "worktrees", ec))
    if (entry.path().extension() == ".json") records.push_back(entry.path());
  std::sort(records.begin(), records.end());
  for (const fs::path& file : records) {
    auto record = readRecord(file);
    if (!record) {
      notes.push_back("worktree record not reclaimed: " + record.error().message);
      continue;
    }
    // Held and unexpired, or being torn down: someone else's still.
    auto claimed = store.claim(record->resource, holder, kWorktreeTtl);
    if (!claimed) continue;
    Status torn = lease::tearDown(store, *claimed, [&](const lease::Lease&) { return destroyWorktree(*record, file); });
    notes.push_back(torn ? "reclaimed the worktree " + record->path.string() + " of an earlier run (its lease expired)"
                         : "could not reclaim the worktree " + record->path.string() + ": " + torn.error().message);
  }
  return notes;
}

}  // namespace lw::pipeline
