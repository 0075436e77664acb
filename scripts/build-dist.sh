#!/usr/bin/env bash
# Builds the release of this machine's architecture (linux-x64 or
# linux-arm64; darwin-arm64 on macOS, see build_darwin) into OUT_DIR
# (default build/dist-out): the Release executables
# with the C++ runtime and libraries linked from their archives, checked to
# run on every supported runner (scripts/dist-check.sh), then packed with
# their SBOM and checksums (scripts/dist-pack.sh). The release workflow runs
# it in a Debian 12 container, the oldest distribution with the Boost
# loopwright needs; scripts/dist/arc4random_compat.c keeps that build on
# Ubuntu 22.04's glibc.
# Usage: scripts/build-dist.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/dist-out}"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

# macOS: the portable build (LOOPWRIGHT_LINUX_BACKENDS=OFF), linked to
# Homebrew's libraries (LW_BREW_RUNTIME_PACKAGES: dist/install.sh installs
# them on the runner), checked to load nothing else, then packed the same way.
build_darwin() {
  lw_ensure_brew_packages "${LW_BREW_PACKAGES[@]}"
  local build=build/dist
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPWRIGHT_TESTS=OFF \
    -DLOOPWRIGHT_LINUX_BACKENDS=OFF -DOPENSSL_ROOT_DIR="$(brew --prefix openssl@3)" >/dev/null
  cmake --build "$build" --target loopwright -j"$(getconf _NPROCESSORS_ONLN)"
  scripts/dist-check.sh "$build/loopwright" "$build/loopwright-engine"
  scripts/dist-pack.sh "$build" "$out" "$build"
}
if [ "$(uname -s)" = Darwin ]; then
  build_darwin
  exit 0
fi
lw_ensure_packages "${LW_BUILD_PACKAGES[@]}"
build=build/dist
mkdir -p "$build"
cc -O2 -Wall -Wextra -c scripts/dist/arc4random_compat.c -o "$build/arc4random_compat.o"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPWRIGHT_TESTS=OFF \
  -DLOOPWRIGHT_STATIC_DEPS=ON -DCMAKE_EXE_LINKER_FLAGS="$PWD/$build/arc4random_compat.o" >/dev/null
cmake --build "$build" --target loopwright -j"$(nproc)"
scripts/dist-check.sh "$build/loopwright" "$build/loopwright-engine" "$build/loopwright-container-init"
scripts/dist-pack.sh "$build" "$out" "$build"
