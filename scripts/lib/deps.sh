# shellcheck shell=bash
# Installs the Debian packages loopwright needs to build and test, only those
# missing, so that the scripts are idempotent on a fresh Debian 12 machine.

LW_BUILD_PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  libboost1.81-dev libboost-json1.81-dev libboost-filesystem1.81-dev
  libyaml-cpp-dev libcurl4-openssl-dev libgit2-dev libseccomp-dev libcap-dev
  doctest-dev bubblewrap
)
# Test-only tools: clang + compiler-rt for the fuzz harness, iproute2 for
# loopback in network namespaces, procps for process assertions.
LW_TEST_PACKAGES=(clang libclang-rt-14-dev iproute2 procps python3)

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
