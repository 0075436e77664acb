// Landlock's user-space ABI, defined here up to ABI 7 because Debian 12's
// <linux/landlock.h> stops at ABI 2 (values from the kernel's
// include/uapi/linux/landlock.h; names differ from the kernel macros so a
// newer header cannot clash). Plus raw system-call wrappers: glibc has none.
#pragma once

#include <cstdint>

namespace lw::sandbox::landlock {

// Filesystem rights (ABI 1 unless noted).
inline constexpr std::uint64_t kFsExecute = 1ull << 0;
inline constexpr std::uint64_t kFsWriteFile = 1ull << 1;
inline constexpr std::uint64_t kFsReadFile = 1ull << 2;
inline constexpr std::uint64_t kFsReadDir = 1ull << 3;
inline constexpr std::uint64_t kFsRemoveDir = 1ull << 4;
inline constexpr std::uint64_t kFsRemoveFile = 1ull << 5;
inline constexpr std::uint64_t kFsMakeChar = 1ull << 6;
inline constexpr std::uint64_t kFsMakeDir = 1ull << 7;
inline constexpr std::uint64_t kFsMakeReg = 1ull << 8;
inline constexpr std::uint64_t kFsMakeSock = 1ull << 9;
inline constexpr std::uint64_t kFsMakeFifo = 1ull << 10;
inline constexpr std::uint64_t kFsMakeBlock = 1ull << 11;
inline constexpr std::uint64_t kFsMakeSym = 1ull << 12;
inline constexpr std::uint64_t kFsRefer = 1ull << 13;     // ABI 2
inline constexpr std::uint64_t kFsTruncate = 1ull << 14;  // ABI 3
inline constexpr std::uint64_t kFsIoctlDev = 1ull << 15;  // ABI 5

// Network rights (ABI 4): TCP only; UDP and other protocols are not covered.
inline constexpr std::uint64_t kNetBindTcp = 1ull << 0;
inline constexpr std::uint64_t kNetConnectTcp = 1ull << 1;

// Scopes (ABI 6): IPC with processes outside the Landlock domain.
inline constexpr std::uint64_t kScopeAbstractUnixSocket = 1ull << 0;
inline constexpr std::uint64_t kScopeSignal = 1ull << 1;

// landlock_create_ruleset flags.
inline constexpr std::uint32_t kCreateRulesetVersion = 1u << 0;
// landlock_restrict_self flags (ABI 7): audit logging.
inline constexpr std::uint32_t kRestrictLogSameExecOff = 1u << 0;
inline constexpr std::uint32_t kRestrictLogNewExecOn = 1u << 1;
inline constexpr std::uint32_t kRestrictLogSubdomainsOff = 1u << 2;

// Rule types.
inline constexpr int kRulePathBeneath = 1;
inline constexpr int kRuleNetPort = 2;  // ABI 4

// Rights that apply to a non-directory (the kernel rejects others on files).
inline constexpr std::uint64_t kFsFileRights = kFsExecute | kFsWriteFile | kFsReadFile | kFsTruncate | kFsIoctlDev;
inline constexpr std::uint64_t kFsReadRights = kFsExecute | kFsReadFile | kFsReadDir;

// The kernel's struct landlock_ruleset_attr at ABI 6; older kernels accept it
// as long as the fields they do not know are zero.
struct RulesetAttr {
  std::uint64_t handledAccessFs = 0;
  std::uint64_t handledAccessNet = 0;
  std::uint64_t scoped = 0;
};

struct [[gnu::packed]] PathBeneathAttr {
  std::uint64_t allowedAccess = 0;
  std::int32_t parentFd = -1;
};

struct NetPortAttr {
  std::uint64_t allowedAccess = 0;
  std::uint64_t port = 0;
};

// Every filesystem / network right / scope a kernel at `abi` handles.
std::uint64_t fsRightsOf(int abi);
std::uint64_t netRightsOf(int abi);
std::uint64_t scopesOf(int abi);

// The ABI this kernel offers: >= 1, or 0 when Landlock is absent or disabled.
int queryAbi() noexcept;

// Raw system calls; each returns -1 with errno like any syscall.
int createRuleset(const RulesetAttr* attr, unsigned long size, std::uint32_t flags) noexcept;
int addRule(int rulesetFd, int ruleType, const void* ruleAttr, std::uint32_t flags) noexcept;
int restrictSelf(int rulesetFd, std::uint32_t flags) noexcept;

}  // namespace lw::sandbox::landlock
