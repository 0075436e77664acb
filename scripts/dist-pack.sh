#!/usr/bin/env bash
# Packs release executables as the release publishes them, into OUT_DIR:
#   loopwright-<version>-linux-<arch>.tar.gz   loopwright, loopwright-engine and
#                                              loopwright-container-init, stripped
#                                              (darwin-<arch> on macOS: the first two)
#   loopwright-<version>-linux-<arch>.cdx.json the CycloneDX SBOM (scripts/sbom.sh)
#   SHA256SUMS                                 this architecture's lines replaced
#   loopwright-<version>-linux-<arch>.digests  the archive's and each executable's
#                                              digest (as <name>/<executable>), for
#                                              the action's own dist/SHA256SUMS
#                                              (scripts/dist-pin.sh); not uploaded
# The archive is reproducible: sorted names, fixed owner, the commit's time.
# Usage: scripts/dist-pack.sh BIN_DIR OUT_DIR [BUILD_DIR]
set -euo pipefail
scripts="$(cd "$(dirname "$0")" && pwd)"
bin="$1" out="$2" build="${3:--}"
version="$(tr -d '[:space:]' <"$scripts/../VERSION")"
case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
if [ "$(uname -s)" = Darwin ]; then
  os=darwin
  executables=(loopwright loopwright-engine)  # the portable build: no docker entrypoint
else
  os=linux
  executables=(loopwright loopwright-engine loopwright-container-init)
fi
name="loopwright-$version-$os-$arch"
# GNU tar (gtar from Homebrew on macOS) for the reproducible archive; any
# sha256sum-compatible tool for the digests.
tar_cmd=tar
if command -v gtar >/dev/null 2>&1; then tar_cmd=gtar; fi
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}
epoch="${SOURCE_DATE_EPOCH:-$(git -C "$scripts/.." log -1 --format=%ct 2>/dev/null || echo 0)}"

mkdir -p "$out"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
for exe in "${executables[@]}"; do install -m 0755 -s "$bin/$exe" "$staging/$exe"; done
"$tar_cmd" -C "$staging" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
  -cf - "${executables[@]}" | gzip -n >"$out/$name.tar.gz"
"$scripts/sbom.sh" "$version" "$build" "${executables[@]/#/$bin/}" >"$out/$name.cdx.json"

touch "$out/SHA256SUMS"
{
  grep -v -e " $name.tar.gz\$" -e " $name.cdx.json\$" "$out/SHA256SUMS" || true
  (cd "$out" && sha256 "$name.tar.gz" "$name.cdx.json")
} | sort -k2 >"$out/SHA256SUMS.new"
mv "$out/SHA256SUMS.new" "$out/SHA256SUMS"
{
  (cd "$out" && sha256 "$name.tar.gz")
  (cd "$staging" && sha256 "${executables[@]}") | sed "s|  |  $name/|"
} >"$out/$name.digests"
echo "dist-pack: $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1)), $name.cdx.json, SHA256SUMS, $name.digests"
