# shellcheck shell=bash
# Installs the Debian packages loopwright needs to build and test, only those
# missing, so that the scripts are idempotent on a fresh Debian 12 machine.

# Debian 12's default Boost is 1.74; loopwright needs >= 1.81 (Boost.JSON,
# Process v2), which bookworm ships under versioned names. Newer releases
# (Ubuntu 24.04: 1.83) have it as the default.
if grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
  LW_BOOST_PACKAGES=(libboost1.81-dev libboost-json1.81-dev libboost-filesystem1.81-dev libboost-url1.81-dev)
else
  LW_BOOST_PACKAGES=(libboost-dev libboost-json-dev libboost-filesystem-dev libboost-url-dev)
fi
# The package arrays are read by the scripts that source this file.
# shellcheck disable=SC2034
LW_BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  "${LW_BOOST_PACKAGES[@]}"
  libyaml-cpp-dev libcurl4-openssl-dev libssl-dev libgit2-dev libseccomp-dev libcap-dev
  libcmark-gfm-dev libcmark-gfm-extensions-dev libvalijson-dev
  doctest-dev bubblewrap
)
# Test-only tools: clang for the fuzz harness (its compiler-rt is added by
# lw_ensure_fuzz_runtime) and, with shellcheck, for builtin/lint's tests (real
# SARIF, checkstyle and gcc-style output), iproute2 for network namespaces,
# procps for process assertions, python3-yaml for the action's simulated job (tests/action),
# clang-format and clang-tidy 14 for scripts/lint.sh (Debian 12's; another version
# formats and checks otherwise), etcd-server (its binary is `etcd`) for
# the etcd lease store's tests (tests/lease/etcd_*), runsc (gVisor) for the
# linux-gvisor backend's tests (tests/integration/sandbox/gvisor_*, L3), openssl for
# the test CA of the Kubernetes store's TLS tests (tests/support/test_ca.h), ccache so
# that the portable tree compiles what it shares with the main one once.
# shellcheck disable=SC2034
LW_TEST_PACKAGES=(clang clang-format-14 clang-tidy-14 shellcheck iproute2 procps python3 python3-yaml etcd-server runsc
  openssl ccache)

# macOS (the portable build, LOOPWRIGHT_LINUX_BACKENDS=OFF): Homebrew's
# names; GNU tar and coreutils for scripts/dist-pack.sh's reproducible archive.
# shellcheck disable=SC2034
LW_BREW_PACKAGES=(cmake ninja pkg-config boost yaml-cpp libgit2 openssl@3 doctest cmark-gfm valijson gnu-tar coreutils)
# What the darwin release's executables load (scripts/dist-check.sh checks
# that they load nothing else outside macOS); dist/install.sh installs them.
# shellcheck disable=SC2034
LW_BREW_RUNTIME_PACKAGES=(boost yaml-cpp libgit2 openssl@3 cmark-gfm)

# Installs those of the Homebrew packages named that are missing (macOS).
lw_ensure_brew_packages() {
  local missing=() p
  for p in "$@"; do
    brew list --versions "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "loopwright: installing ${missing[*]}" >&2
    brew install "${missing[@]}" >/dev/null
  fi
}

lw_sudo() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

lw_ensure_packages() {
  local missing=()
  local p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "loopwright: installing ${missing[*]}" >&2
    lw_sudo apt-get update -qq
    lw_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  fi
}

# libFuzzer ships in compiler-rt, packaged per clang major version.
lw_ensure_fuzz_runtime() {
  command -v clang++ >/dev/null 2>&1 || return 0
  local major
  major="$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)"
  [ -n "$major" ] && lw_ensure_packages "libclang-rt-${major}-dev"
}
