#!/usr/bin/env bash
# Builds the release binary for this machine's OS/arch into
# dist/bin/<os>-<arch>/loopwright and records its SHA-256 in dist/SHA256SUMS,
# which dist/install.sh checks before using it.
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
install -m 0755 -s "$build/loopwright" "dist/bin/$os-$arch/loopwright"
touch dist/SHA256SUMS
grep -v " bin/$os-$arch/loopwright\$" dist/SHA256SUMS >dist/SHA256SUMS.new || true
(cd dist && sha256sum "bin/$os-$arch/loopwright") >>dist/SHA256SUMS.new
sort -k2 dist/SHA256SUMS.new >dist/SHA256SUMS
rm dist/SHA256SUMS.new
echo "dist/bin/$os-$arch/loopwright: $(cat VERSION)"
