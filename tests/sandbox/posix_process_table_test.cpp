#include <doctest/doctest.h>

#include <algorithm>

#include "sandbox/process/posix/process_table.h"

using lw::sandbox::process::posix::parseProcStat;
using lw::sandbox::process::posix::ProcessEntry;
using lw::sandbox::process::posix::TreeMarks;
using lw::sandbox::process::posix::treeMembers;

namespace {

constexpr pid_t kSelf = 100;  // loopwright, in session 90

std::vector<pid_t> pidsOf(const std::vector<ProcessEntry>& entries) {
  std::vector<pid_t> out;
  for (const auto& e : entries) out.push_back(e.pid);
  std::sort(out.begin(), out.end());
  return out;
}

// pid, ppid, pgid, sid, started
ProcessEntry proc(pid_t pid, pid_t ppid, pid_t pgid, pid_t sid, std::uint64_t started = 1) {
  return {pid, ppid, pgid, sid, started, false};
}

}  // namespace

TEST_CASE("posix process table: the leader, its session and a child in another group are the tree") {
  const std::vector<ProcessEntry> table = {proc(1, 0, 1, 1),           proc(kSelf, 1, 90, 90),
                                           proc(200, kSelf, 200, 200), proc(201, 200, 200, 200),
                                           proc(202, 201, 202, 200),   proc(300, 1, 300, 300)};
  TreeMarks marks{200, {}};
  CHECK(pidsOf(treeMembers(table, marks, kSelf)) == std::vector<pid_t>{200, 201, 202});
}

TEST_CASE("posix process table: a reparented orphan that kept the step's session or group is the tree") {
  // The leader is gone; 210 was re-parented to init but holds session 200,
  // 211 left the session's group rules but is in a group a member created.
  const std::vector<ProcessEntry> table = {proc(1, 0, 1, 1), proc(kSelf, 1, 90, 90), proc(210, 1, 210, 200),
                                           proc(211, 1, 210, 200), proc(400, 1, 400, 400)};
  TreeMarks marks{200, {}};
  CHECK(pidsOf(treeMembers(table, marks, kSelf)) == std::vector<pid_t>{210, 211});
}

TEST_CASE("posix process table: a daemon in the session of a middle process seen before is the tree") {
  // 220 (seen while it ran) called setsid and forked 221, then exited: 221
  // is init's child in session 220, linked to the step by nothing else.
  const std::vector<ProcessEntry> table = {proc(1, 0, 1, 1), proc(kSelf, 1, 90, 90), proc(221, 1, 220, 220, 7),
                                           proc(500, 1, 500, 500)};
  TreeMarks seen{200, {{220, 5}}};
  CHECK(pidsOf(treeMembers(table, seen, kSelf)) == std::vector<pid_t>{221});
  TreeMarks unseen{200, {}};
  CHECK(treeMembers(table, unseen, kSelf).empty());
}

TEST_CASE("posix process table: a re-parented grandchild whose middle process was never seen is the tree by its mark") {
  // The race the mark closes: 220 called setsid, forked 221 and exited
  // before any look, so 221 is init's child in session 220, which no member
  // created as far as the tree knows. Only the environment it inherited
  // links it to the step; the stranger 500, in the same shape, has no mark.
  std::vector<ProcessEntry> table = {proc(1, 0, 1, 1), proc(kSelf, 1, 90, 90), proc(221, 1, 220, 220, 7),
                                     proc(500, 1, 500, 500)};
  table[2].marked = true;
  CHECK(pidsOf(treeMembers(table, TreeMarks{200, {}}, kSelf)) == std::vector<pid_t>{221});
  // The same table once the daemon has dropped the mark: nothing links it.
  table[2].marked = false;
  CHECK(treeMembers(table, TreeMarks{200, {}}, kSelf).empty());
}

TEST_CASE("posix process table: what a marked daemon starts is the tree even after it clears its environment") {
  // 221 (marked, re-parented) started 222 with an empty environment in its
  // own session, and 223 left that session again: 222 is found through its
  // parent and 221's session, 223 through its parent 222.
  std::vector<ProcessEntry> table = {proc(1, 0, 1, 1),
                                     proc(kSelf, 1, 90, 90),
                                     proc(221, 1, 221, 221, 7),
                                     proc(222, 221, 222, 221, 8),
                                     proc(223, 222, 223, 223, 9),
                                     proc(600, 1, 600, 600)};
  table[2].marked = true;
  CHECK(pidsOf(treeMembers(table, TreeMarks{200, {}}, kSelf)) == std::vector<pid_t>{221, 222, 223});
}

TEST_CASE("posix process table: the mark never makes init or loopwright a member") {
  std::vector<ProcessEntry> table = {proc(1, 0, 1, 1), proc(kSelf, 1, 90, 90), proc(250, 1, 250, 250)};
  table[0].marked = true;
  table[1].marked = true;
  CHECK(treeMembers(table, TreeMarks{200, {}}, kSelf).empty());
}

TEST_CASE("posix process table: a process seen before stays in the tree after setsid and reparenting") {
  const std::vector<ProcessEntry> table = {proc(1, 0, 1, 1), proc(kSelf, 1, 90, 90), proc(230, 1, 230, 230, 9)};
  CHECK(pidsOf(treeMembers(table, TreeMarks{200, {{230, 9}}}, kSelf)) == std::vector<pid_t>{230});
}

TEST_CASE("posix process table: a pid reused by a stranger is not the tree, nor its session") {
  // 230 was seen in the tree (started 9); the pid now holds a stranger
  // (started 50) that leads its own session, with a child in it.
  const std::vector<ProcessEntry> table = {proc(1, 0, 1, 1), proc(kSelf, 1, 90, 90), proc(230, 1, 230, 230, 50),
                                           proc(231, 230, 230, 230, 51)};
  CHECK(treeMembers(table, TreeMarks{200, {{230, 9}}}, kSelf).empty());
}

TEST_CASE("posix process table: loopwright itself, init and zombies are never members") {
  // A table that (wrongly) puts init and the caller in the step's session.
  std::vector<ProcessEntry> table = {proc(1, 0, 200, 200), proc(kSelf, 200, 200, 200), proc(240, 200, 200, 200)};
  table[2].zombie = true;
  CHECK(treeMembers(table, TreeMarks{200, {}}, kSelf).empty());
}

TEST_CASE("posix process table: a zombie's children are still found through it") {
  std::vector<ProcessEntry> table = {proc(1, 0, 1, 1), proc(kSelf, 1, 90, 90), proc(250, kSelf, 250, 250),
                                     proc(251, 250, 251, 251)};
  table[2].zombie = true;  // the leader, dead and not reaped yet
  CHECK(pidsOf(treeMembers(table, TreeMarks{250, {}}, kSelf)) == std::vector<pid_t>{251});
}

TEST_CASE(
    "posix process table: /proc/<pid>/stat is read past a comm with spaces and parentheses, kernel threads told "
    "apart") {
  const auto e = parseProcStat(
      "4242 (a) b (c)) S 4200 4241 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 100 "
      "18446744073709551615\n");
  REQUIRE(e);
  CHECK(e->pid == 4242);
  CHECK(e->ppid == 4200);
  CHECK(e->pgid == 4241);
  CHECK(e->sid == 4240);
  CHECK(e->started == 987654u);
  CHECK_FALSE(e->zombie);
  CHECK_FALSE(e->kernelThread);
  // kthreadd: PF_KTHREAD (0x00200000) among its flags.
  const auto k = parseProcStat("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 1 0 0\n");
  REQUIRE(k);
  CHECK(k->kernelThread);
  const auto z = parseProcStat("7 (sh) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0\n");
  REQUIRE(z);
  CHECK(z->zombie);
  CHECK_FALSE(parseProcStat("7 (sh) S 1 7"));
  CHECK_FALSE(parseProcStat("garbage"));
}
