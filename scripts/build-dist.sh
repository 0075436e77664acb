#!/usr/bin/env bash
# Builds the release executables for this machine's OS/arch into
# dist/bin/<os>-<arch>/ (loopwright, loopwright-engine it hands most commands
# to, and loopwright-container-init for docker steps) and records their
# SHA-256 in dist/SHA256SUMS, which dist/install.sh checks before using them.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh
lw_ensure_packages "${LW_BUILD_PACKAGES[@]}"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
build=build/dist
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPWRIGHT_TESTS=OFF >/dev/null
cmake --build "$build" --target loopwright -j"$(nproc)"
mkdir -p "dist/bin/$os-$arch"
touch dist/SHA256SUMS
grep -v " bin/$os-$arch/" dist/SHA256SUMS >dist/SHA256SUMS.new || true
for exe in loopwright loopwright-engine loopwright-container-init; do
  install -m 0755 -s "$build/$exe" "dist/bin/$os-$arch/$exe"
  (cd dist && sha256sum "bin/$os-$arch/$exe") >>dist/SHA256SUMS.new
done
sort -k2 dist/SHA256SUMS.new >dist/SHA256SUMS
rm dist/SHA256SUMS.new
echo "dist/bin/$os-$arch: loopwright $(cat VERSION)"
