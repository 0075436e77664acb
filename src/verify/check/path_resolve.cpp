#include "verify/check/path_resolve.h"

#include <sys/stat.h>
#include <unistd.h>

#include <deque>
#include <filesystem>

namespace lw::verify {
namespace {

constexpr int kMaxHops = 40;  // Linux's MAXSYMLINKS

void pushFront(std::deque<std::string>& todo, const std::string& path) {
  std::deque<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  todo.insert(todo.begin(), parts.begin(), parts.end());
}

std::string parentOf(const std::string& p) {
  auto slash = p.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : p.substr(0, slash);
}

}  // namespace

std::string realPathOf(const std::string& path) {
  std::error_code ec;
  auto r = std::filesystem::canonical(path, ec);
  return ec ? path : r.string();
}

Result<ResolvedPath> resolvePath(const std::string& workspace, const std::string& cwd, const std::string& given) {
  ResolvedPath out;
  out.given = given;
  std::string ws = realPathOf(workspace);
  std::deque<std::string> todo;
  pushFront(todo, !given.empty() && given[0] == '/' ? given : cwd + "/" + given);
  std::string cur = "/";
  int hops = 0;
  while (!todo.empty()) {
    std::string part = std::move(todo.front());
    todo.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      cur = parentOf(cur);
      continue;
    }
    std::string next = cur == "/" ? "/" + part : cur + "/" + part;
    struct stat s {};
    if (lstat(next.c_str(), &s) == 0 && S_ISLNK(s.st_mode)) {
      if (++hops > kMaxHops)
        return makeError(ErrorCode::PathPolicyViolation, "symlink loop resolving '" + given + "'",
                         "remove the looping symlinks", given);
      std::string target(static_cast<std::size_t>(s.st_size > 0 ? s.st_size : 4096) + 1, '\0');
      ssize_t n = readlink(next.c_str(), target.data(), target.size());
      if (n >= 0) {
        target.resize(static_cast<std::size_t>(n));
        if (!target.empty() && target[0] == '/') cur = "/";
        pushFront(todo, target);
        continue;
      }
    }
    cur = std::move(next);
  }
  out.absolute = cur;
  if (cur == ws) {
    out.inside = true;
  } else if (cur.size() > ws.size() && cur.compare(0, ws.size(), ws) == 0 && (ws == "/" || cur[ws.size()] == '/')) {
    out.inside = true;
    out.relative = cur.substr(ws == "/" ? 1 : ws.size() + 1);
  }
  return out;
}

}  // namespace lw::verify
