// The mark every process of one step's tree inherits without asking: a
// random token in the step's environment, LOOPWRIGHT_TREE, which fork copies
// and exec passes on. Unlike a parent, a session or a group, it is not lost
// when a daemon's middle process exits before anyone looked: a double-forked,
// setsid daemon re-parented to init still carries it, so the POSIX launcher
// finds it at any later look (process_table.h, treeMembers).
//
// What it cannot see, and docs/security-model.md says so: a process that
// runs a program with an environment without the mark (env -i, execve with
// its own envp), overwrites its environment's memory in place (as
// setproctitle does), or cannot be read (another user's, a setuid program,
// a process made non-dumpable on Linux). Such a process is still found
// through its session, its group or its parent; only one that also leaves
// the step's session, and whose every link was made and broken between two
// looks, escapes.
//
// The token is no secret (any process of the same user can read it), and
// carrying it only ever gets the carrier killed with the tree. A step that
// runs loopwright (a nested run) passes its own mark on: the value is a
// ':'-separated chain, the launching tree's token last.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace lw::sandbox::process::posix {

inline constexpr const char* kTreeMarkVariable = "LOOPWRIGHT_TREE";

// A new token: 16 hex digits from std::random_device.
std::string newTreeToken();

// Pure: the value a step launched with `token` gets, `inherited` (the
// launcher's own LOOPWRIGHT_TREE, if any) in front, keeping its last 7
// tokens so that nesting cannot grow it without bound.
std::string chainedTreeMark(std::optional<std::string_view> inherited, std::string_view token);

// Pure: whether an environment block (NAME=VALUE entries separated by NUL, as
// /proc/<pid>/environ holds it) carries `token` in a LOOPWRIGHT_TREE entry.
bool environCarriesToken(std::string_view block, std::string_view token);

// Pure: the environment block of a macOS KERN_PROCARGS2 buffer (argc as an
// int, the executable's path, NUL padding, argc arguments, then the
// environment up to an empty string), its last NUL kept; empty when the
// kernel left the environment out, nullopt when the buffer is not of that
// shape.
std::optional<std::string_view> environOfProcArgs(std::string_view procargs);

// The start of `pid`'s environment as the kernel shows it: /proc/<pid>/environ
// on Linux, KERN_PROCARGS2 on macOS (same user only). nullopt when it cannot
// be read: gone, another user's, a setuid program; empty when it shows none
// for now (in the middle of execve, a kernel thread), worth reading again.
std::optional<std::string> readEnvironOf(pid_t pid);

}  // namespace lw::sandbox::process::posix
