#!/usr/bin/env bash
# Puts loopwright's executables in $RUNNER_TEMP/loopwright-bin/ (loopwright,
# loopwright-engine and loopwright-container-init, which must stay side by
# side): the prebuilt ones from dist/bin/<os>-<arch>/ when every SHA-256
# matches dist/SHA256SUMS, otherwise a build from source (installing the
# Ubuntu packages), reusing $LOOPWRIGHT_BUILD_DIR when actions/cache restored it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
dest="${RUNNER_TEMP:-/tmp}/loopwright-bin"
mkdir -p "$dest"
version="$(cat "$root/VERSION")"

os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) arch="$(uname -m)" ;;
esac
executables="loopwright loopwright-engine loopwright-container-init"
prebuilt="$here/bin/$os-$arch"
if [ -f "$prebuilt/loopwright" ] && [ -f "$here/SHA256SUMS" ]; then
  verified=yes
  for exe in $executables; do
    want="$(awk -v f="bin/$os-$arch/$exe" '$2 == f { print $1 }' "$here/SHA256SUMS")"
    have="$(sha256sum "$prebuilt/$exe" 2>/dev/null | awk '{ print $1 }')"
    if [ -z "$want" ] || [ "$want" != "$have" ]; then verified=no; fi
  done
  if [ "$verified" = yes ]; then
    for exe in $executables; do install -m 0755 "$prebuilt/$exe" "$dest/$exe"; done
    echo "loopwright $version: prebuilt $os-$arch executables"
    exit 0
  fi
  echo "::warning title=loopwright::prebuilt executables fail their checksums; building from source"
fi

# shellcheck source=scripts/lib/deps.sh
source "$root/scripts/lib/deps.sh"
lw_ensure_packages "${LW_BUILD_PACKAGES[@]}"
build="${LOOPWRIGHT_BUILD_DIR:-$root/build/action}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPWRIGHT_TESTS=OFF >/dev/null
cmake --build "$build" --target loopwright -j"$(nproc)"
for exe in $executables; do install -m 0755 "$build/$exe" "$dest/$exe"; done
echo "loopwright $version: built from source"
