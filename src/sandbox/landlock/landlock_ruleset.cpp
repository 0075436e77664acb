#include "sandbox/landlock/landlock_ruleset.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace lw::sandbox::landlock {

int PreparedRuleset::apply() const noexcept {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  RulesetAttr attr = plan_.handled;
  int ruleset = createRuleset(&attr, sizeof attr, 0);
  if (ruleset < 0) return errno;
  int err = 0;
  for (const PathRule& rule : plan_.paths) {
    // Paths are canonical: a symlink here was swapped in after planning, and
    // following it would grant its target.
    int fd = open(rule.path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
      err = errno;
      if (!rule.required && (err == ENOENT || err == ENOTDIR || err == EACCES)) {
        err = 0;
        continue;
      }
      break;
    }
    struct stat st {};
    std::uint64_t access = rule.access & attr.handledAccessFs;
    if (fstat(fd, &st) != 0) {
      err = errno;
    } else {
      if (S_ISLNK(st.st_mode)) access = 0;
      if (!S_ISDIR(st.st_mode)) access &= kFsFileRights;
      PathBeneathAttr beneath{access, fd};
      if (access != 0 && addRule(ruleset, kRulePathBeneath, &beneath, 0) != 0) err = errno;
    }
    close(fd);
    if (err != 0) break;
  }
  if (err == 0 && restrictSelf(ruleset, 0) != 0) err = errno;
  close(ruleset);
  return err;
}

process::ChildSetup restrictWithLandlock(std::shared_ptr<const PreparedRuleset> ruleset) {
  return process::ChildSetup{"landlock ruleset", [ruleset] { return ruleset->apply(); }};
}

}  // namespace lw::sandbox::landlock
