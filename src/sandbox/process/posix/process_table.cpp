#include "sandbox/process/posix/process_table.h"

#include <charconv>
#include <set>

namespace lw::sandbox::process::posix {
namespace {

bool seenBefore(const TreeMarks& marks, const ProcessEntry& e) {
  auto it = marks.seen.find(e.pid);
  return it != marks.seen.end() && it->second == e.started;
}

// The ids a member may hold as its session or group: the leader's, and those
// of processes seen in the tree whose pid no other process holds now (a pid
// reused by a stranger is no longer the tree's; an id still held as a session
// or group cannot be handed out as a new pid, so a stranger cannot get it).
std::set<pid_t> creatorIds(const std::vector<ProcessEntry>& table, const TreeMarks& marks) {
  std::map<pid_t, std::uint64_t> live;
  for (const ProcessEntry& e : table) live[e.pid] = e.started;
  std::set<pid_t> ids{marks.leader};
  for (const auto& [pid, started] : marks.seen) {
    auto it = live.find(pid);
    if (it == live.end() || it->second == started) ids.insert(pid);
  }
  return ids;
}

}  // namespace

std::vector<ProcessEntry> treeMembers(const std::vector<ProcessEntry>& table, const TreeMarks& marks, pid_t self) {
  std::set<pid_t> ids = creatorIds(table, marks);
  std::set<pid_t> members;
  // A fixed point: each round may add the children, sessions and groups of
  // the members found in the round before.
  for (bool grew = true; grew;) {
    grew = false;
    for (const ProcessEntry& e : table) {
      if (e.pid == self || e.pid == 1 || members.count(e.pid) != 0) continue;
      const bool linked = e.marked || seenBefore(marks, e) || members.count(e.ppid) != 0 || ids.count(e.sid) != 0 ||
                          ids.count(e.pgid) != 0;
      if (!linked) continue;
      members.insert(e.pid);
      ids.insert(e.pid);
      grew = true;
    }
  }
  std::vector<ProcessEntry> out;
  for (const ProcessEntry& e : table)
    if (members.count(e.pid) != 0 && !e.zombie) out.push_back(e);
  return out;
}

std::optional<ProcessEntry> parseProcStat(std::string_view stat) {
  const auto open = stat.find('(');
  const auto close = stat.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return std::nullopt;
  ProcessEntry e;
  if (std::from_chars(stat.data(), stat.data() + open, e.pid).ec != std::errc{}) return std::nullopt;
  // After ") ": state ppid pgrp session tty_nr tpgid flags (9), then up to
  // starttime (22).
  std::vector<std::string_view> fields;
  std::size_t at = close + 1;
  while (at < stat.size() && fields.size() < 20) {
    while (at < stat.size() && stat[at] == ' ') ++at;
    std::size_t end = stat.find(' ', at);
    if (end == std::string_view::npos) end = stat.size();
    if (end > at) fields.push_back(stat.substr(at, end - at));
    at = end;
  }
  if (fields.size() < 20 || e.pid <= 0) return std::nullopt;
  auto number = [](std::string_view s, auto& out) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc{} && r.ptr == s.data() + s.size();
  };
  unsigned long flags = 0;
  if (!number(fields[1], e.ppid) || !number(fields[2], e.pgid) || !number(fields[3], e.sid) ||
      !number(fields[6], flags) || !number(fields[19], e.started))
    return std::nullopt;
  e.zombie = fields[0] == "Z" || fields[0] == "X";
  constexpr unsigned long kPfKthread = 0x00200000;  // include/linux/sched.h
  e.kernelThread = (flags & kPfKthread) != 0;
  return e;
}

}  // namespace lw::sandbox::process::posix
