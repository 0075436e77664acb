#!/usr/bin/env bash
# Puts the loopwright binary at $RUNNER_TEMP/loopwright-bin/loopwright:
# a prebuilt binary from dist/bin/<os>-<arch>/ when its SHA-256 matches
# dist/SHA256SUMS, otherwise a build from source (installing the Ubuntu
# packages), reusing $LOOPWRIGHT_BUILD_DIR when actions/cache restored it.
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
prebuilt="$here/bin/$os-$arch/loopwright"
if [ -f "$prebuilt" ] && [ -f "$here/SHA256SUMS" ]; then
  want="$(awk -v f="bin/$os-$arch/loopwright" '$2 == f { print $1 }' "$here/SHA256SUMS")"
  have="$(sha256sum "$prebuilt" | awk '{ print $1 }')"
  if [ -n "$want" ] && [ "$want" = "$have" ]; then
    install -m 0755 "$prebuilt" "$dest/loopwright"
    echo "loopwright $version: prebuilt $os-$arch binary (sha256 $have)"
    exit 0
  fi
  echo "::warning title=loopwright::prebuilt binary checksum mismatch; building from source"
fi

# shellcheck source=scripts/lib/deps.sh
source "$root/scripts/lib/deps.sh"
lw_ensure_packages "${LW_BUILD_PACKAGES[@]}"
build="${LOOPWRIGHT_BUILD_DIR:-$root/build/action}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPWRIGHT_TESTS=OFF >/dev/null
cmake --build "$build" --target loopwright -j"$(nproc)"
install -m 0755 "$build/loopwright" "$dest/loopwright"
echo "loopwright $version: built from source"
