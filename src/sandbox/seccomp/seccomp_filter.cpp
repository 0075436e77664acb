#include "sandbox/seccomp/seccomp_filter.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

namespace lw::sandbox::seccomp {
namespace {

Error failure(std::string what, int err, std::string hint = {}) {
  return makeError(ErrorCode::SandboxLaunchFailed,
                   "seccomp: " + what + (err ? std::string(": ") + std::strerror(err) : ""), std::move(hint),
                   "seccomp");
}

scmp_compare toLibseccomp(ArgCondition::Op op) {
  switch (op) {
    case ArgCondition::Op::Eq: return SCMP_CMP_EQ;
    case ArgCondition::Op::Ne: return SCMP_CMP_NE;
    case ArgCondition::Op::Ge: return SCMP_CMP_GE;
    case ArgCondition::Op::MaskedEq: return SCMP_CMP_MASKED_EQ;
  }
  return SCMP_CMP_EQ;
}

struct CtxDeleter {
  void operator()(void* ctx) const { seccomp_release(ctx); }
};
using Ctx = std::unique_ptr<void, CtxDeleter>;

Status addRule(scmp_filter_ctx ctx, const Rule& rule) {
  int nr = seccomp_syscall_resolve_name(rule.syscall.c_str());
  // An unknown name, or a known name without a number in this libseccomp's table.
  if (nr < 0 && rule.number > 0) nr = rule.number;
  if (nr == __NR_SCMP_ERROR)
    return failure("libseccomp does not know system call '" + rule.syscall + "'", 0,
                   "libseccomp " + std::to_string(SCMP_VER_MAJOR) + "." + std::to_string(SCMP_VER_MINOR) +
                       " is too old for this policy; install 2.5 or newer");
  std::vector<scmp_arg_cmp> cmps;
  for (const ArgCondition& c : rule.when) {
    if (c.op == ArgCondition::Op::MaskedEq)
      cmps.push_back(scmp_arg_cmp{c.arg, SCMP_CMP_MASKED_EQ, c.mask, c.value});
    else
      cmps.push_back(scmp_arg_cmp{c.arg, toLibseccomp(c.op), c.value, 0});
  }
  int rc = seccomp_rule_add_exact_array(ctx, SCMP_ACT_ERRNO(static_cast<uint16_t>(rule.errnoValue)), nr,
                                        static_cast<unsigned>(cmps.size()), cmps.data());
  if (rc < 0) return failure("adding the rule for '" + rule.syscall + "'", -rc);
  return Ok{};
}

Result<std::vector<sock_filter>> exportBpf(scmp_filter_ctx ctx) {
  int fd = memfd_create("lw-seccomp-export", MFD_CLOEXEC);
  if (fd < 0) return failure("memfd_create", errno);
  std::vector<sock_filter> code;
  int rc = seccomp_export_bpf(ctx, fd);
  if (rc < 0) {
    close(fd);
    return failure("exporting the BPF program", -rc);
  }
  off_t size = lseek(fd, 0, SEEK_END);
  if (size <= 0 || size % static_cast<off_t>(sizeof(sock_filter)) != 0) {
    close(fd);
    return failure("libseccomp exported a program of " + std::to_string(size) + " bytes", 0);
  }
  code.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
  ssize_t n = pread(fd, code.data(), static_cast<std::size_t>(size), 0);
  int err = errno;
  close(fd);
  if (n != size) return failure("reading the exported program back", n < 0 ? err : EIO);
  return code;
}

}  // namespace

int BpfProgram::installOnCurrentThread() const noexcept {
  sock_fprog prog{static_cast<unsigned short>(code_.size()), const_cast<sock_filter*>(code_.data())};
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) return errno;
  return 0;
}

Result<int> BpfProgram::toSealedMemfd() const {
  int fd = memfd_create("lw-seccomp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return failure("memfd_create", errno);
  const auto* bytes = reinterpret_cast<const char*>(code_.data());
  std::size_t left = code_.size() * sizeof(sock_filter);
  while (left > 0) {
    ssize_t n = write(fd, bytes, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = n < 0 ? errno : EIO;
      close(fd);
      return failure("writing the program to a memfd", err);
    }
    bytes += n;
    left -= static_cast<std::size_t>(n);
  }
  // Sealed so that nothing holding the descriptor can swap the program.
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0 ||
      lseek(fd, 0, SEEK_SET) != 0) {
    int err = errno;
    close(fd);
    return failure("sealing the program memfd", err);
  }
  return fd;
}

Result<BpfProgram> compile(const Policy& policy) {
  Ctx ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) return failure("seccomp_init", ENOMEM);
  if (policy.killOtherArchitectures) {
    int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    if (rc < 0) return failure("setting the bad-architecture action", -rc);
  }
  for (const Rule& rule : policy.rules) {
    if (rule.when.size() > 6) return failure("rule for '" + rule.syscall + "' has >6 conditions", 0);
    Status st = addRule(ctx.get(), rule);
    if (!st) return st.error();
  }
  auto code = exportBpf(ctx.get());
  if (!code) return std::move(code).error();
  if (code->size() > BPF_MAXINSNS) return failure("the program exceeds BPF_MAXINSNS", 0);
  return BpfProgram(std::move(code).value());
}

Result<std::shared_ptr<const BpfProgram>> FilterCache::get(const Options& options) {
  std::lock_guard lock(mu_);
  const Options& key = options;
  if (auto it = compiled_.find(key); it != compiled_.end()) return it->second;
  auto program = compile(buildPolicy(options));
  if (!program) return std::move(program).error();
  auto shared = std::make_shared<const BpfProgram>(std::move(program).value());
  compiled_.emplace(key, shared);
  return shared;
}

}  // namespace lw::sandbox::seccomp
