#!/usr/bin/env bash
# Pins a release's archives in the action's own tree: writes dist/SHA256SUMS
# (beside this script's tree) from the .digests files scripts/dist-pack.sh
# left in each OUT_DIR, one per system and architecture: each archive's digest and each
# of its executables' (as loopwright-<version>-<os>-<arch>/<executable>),
# this VERSION's lines only, sorted. Each archive is checked against its line
# first. dist/install.sh trusts a release archive only when it matches these
# lines in the commit a workflow pins, so the release commits this file and
# tags that commit before it uploads anything (docs/CONTRIBUTING.md#releasing).
# Usage: scripts/dist-pin.sh OUT_DIR...
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(tr -d '[:space:]' <"$root/VERSION")"
[ "$#" -gt 0 ] || { echo "usage: scripts/dist-pin.sh OUT_DIR..." >&2; exit 2; }

lines=()
for out in "$@"; do
  digests=("$out"/loopwright-"$version"-*-*.digests)
  [ -f "${digests[0]}" ] || { echo "dist-pin: $out has no loopwright-$version-<os>-<arch>.digests (scripts/dist-pack.sh)" >&2; exit 1; }
  for f in "${digests[@]}"; do
    archive_line="$(grep '\.tar\.gz$' "$f")"
    (cd "$out" && sha256sum --quiet --strict -c <<<"$archive_line") ||
      { echo "dist-pin: $f does not match the archive beside it" >&2; exit 1; }
    mapfile -t -O "${#lines[@]}" lines <"$f"
  done
done
printf '%s\n' "${lines[@]}" | LC_ALL=C sort -k2 -u >"$root/dist/SHA256SUMS"
echo "dist-pin: $root/dist/SHA256SUMS pins $(grep -c '\.tar\.gz$' "$root/dist/SHA256SUMS") archives of $version"
