#include "sandbox/landlock/landlock_abi.h"

#include <sys/syscall.h>
#include <unistd.h>

namespace lw::sandbox::landlock {

std::uint64_t fsRightsOf(int abi) {
  if (abi < 1) return 0;
  std::uint64_t r = (kFsMakeSym << 1) - 1;  // ABI 1: bits 0..12
  if (abi >= 2) r |= kFsRefer;
  if (abi >= 3) r |= kFsTruncate;
  if (abi >= 5) r |= kFsIoctlDev;
  return r;
}

std::uint64_t netRightsOf(int abi) { return abi >= 4 ? (kNetBindTcp | kNetConnectTcp) : 0; }

std::uint64_t scopesOf(int abi) { return abi >= 6 ? (kScopeAbstractUnixSocket | kScopeSignal) : 0; }

int queryAbi() noexcept {
  int v = createRuleset(nullptr, 0, kCreateRulesetVersion);
  return v < 0 ? 0 : v;
}

int createRuleset(const RulesetAttr* attr, unsigned long size, std::uint32_t flags) noexcept {
  return static_cast<int>(syscall(SYS_landlock_create_ruleset, attr, size, flags));
}

int addRule(int rulesetFd, int ruleType, const void* ruleAttr, std::uint32_t flags) noexcept {
  return static_cast<int>(syscall(SYS_landlock_add_rule, rulesetFd, ruleType, ruleAttr, flags));
}

int restrictSelf(int rulesetFd, std::uint32_t flags) noexcept {
  return static_cast<int>(syscall(SYS_landlock_restrict_self, rulesetFd, flags));
}

}  // namespace lw::sandbox::landlock
