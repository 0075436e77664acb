#!/usr/bin/env bash
# Writes a CycloneDX 1.5 SBOM (JSON, on stdout) of release executables: the
# Debian packages of every archive they were linked with (from the build's
# own link commands: "static"), of the shared libraries they load (NEEDED:
# "shared"; a shared object on the link line that no executable needs is
# not part of the release), and of libcurl, which loopwright
# loads on first use ("dlopen"). Only dpkg, ninja and the compiler are asked;
# nothing is fetched.
# Usage: scripts/sbom.sh VERSION BUILD_DIR EXECUTABLE...
# (BUILD_DIR: the Ninja build the executables came from, or "-" for none.)
set -euo pipefail
version="$1" build="$2"
shift 2
dlopened=(libcurl.so.4)  # src/core/libcurl.cpp

# macOS (the darwin archive): the Homebrew formulae whose libraries the
# executables load (otool -L; a Cellar path names formula and version), as
# pkg:brew components. macOS's own libraries (/usr/lib, /System, libcurl
# loaded on first use among them) are the system's, not the release's.
darwin_sbom() {
  local exe lib real formula fversion sep="" refs="" entry
  local -a entries=()
  for exe in "$@"; do
    while read -r lib; do
      real="$(readlink -f "$lib" 2>/dev/null || echo "$lib")"
      [[ "$real" =~ /Cellar/([^/]+)/([^/]+)/ ]] || continue
      entries+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]} shared")
    done < <(otool -L "$exe" | awk 'NR > 1 { print $1 }')
  done
  printf '{\n  "bomFormat": "CycloneDX",\n  "specVersion": "1.5",\n'
  printf '  "serialNumber": "urn:uuid:%s",\n  "version": 1,\n' "$(uuidgen | tr '[:upper:]' '[:lower:]')"
  printf '  "metadata": {\n    "timestamp": "%s",\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  printf '    "tools": {"components": [{"type": "application", "name": "loopwright scripts/sbom.sh"}]},\n'
  printf '    "component": {"type": "application", "bom-ref": "loopwright", "name": "loopwright", "version": "%s",\n' "$version"
  printf '                  "properties": [{"name": "loopwright:architecture", "value": "darwin-%s"}]}\n  },\n' "$(uname -m)"
  printf '  "components": [\n'
  while read -r formula fversion linkage; do
    [ -n "$formula" ] || continue
    printf '%s    {"type": "library", "bom-ref": "pkg:brew/%s@%s", "name": "%s", "version": "%s", "purl": "pkg:brew/%s@%s",\n' \
      "$sep" "$formula" "$fversion" "$formula" "$fversion" "$formula" "$fversion"
    printf '     "properties": [{"name": "loopwright:linkage", "value": "%s"}]}' "$linkage"
    refs+="${sep:+, }\"pkg:brew/$formula@$fversion\""
    sep=$',\n'
  done < <(printf '%s\n' "${entries[@]}" | sort -u | awk '!seen[$1]++')
  printf '\n  ],\n  "dependencies": [{"ref": "loopwright", "dependsOn": [%s]}]\n}\n' "$refs"
}
if [ "$(uname -s)" = Darwin ]; then
  darwin_sbom "$@"
  exit 0
fi

# The archives each executable was linked with, one "static path" a line.
linked_files() {
  local target cmd word
  [ "$build" != "-" ] && [ -f "$build/build.ninja" ] || return 0
  for target in loopwright loopwright-engine loopwright-container-init; do
    cmd="$(ninja -C "$build" -t commands "$target" 2>/dev/null | tail -1)"
    for word in $cmd; do
      case "$word" in
        /*.a) echo "static $word" ;;
        -static-libstdc++) echo "static $(g++ -print-file-name=libstdc++.a)" ;;
        -static-libgcc) echo "static $(gcc -print-file-name=libgcc.a)" ;;
        -static) echo "static $(gcc -print-file-name=libc.a)" ;;
      esac
    done
  done
}

# The shared libraries the executables load, by the paths this machine has.
loaded_files() {
  local exe lib
  for exe in "$@"; do
    while read -r lib; do
      echo "shared $(gcc -print-file-name="$lib")"
    done < <(objdump -p "$exe" | awk '$1 == "NEEDED" { print $2 }')
  done
  for lib in "${dlopened[@]}"; do echo "dlopen $(gcc -print-file-name="$lib")"; done
}

# "package linkage" for a file dpkg knows (merged /usr: try both spellings).
package_of() {
  local path="$2" real owner
  real="$(readlink -f "$path" 2>/dev/null || echo "$path")"
  for p in "$real" "${real#/usr}" "$path"; do
    owner="$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1)" || true
    if [ -n "$owner" ]; then
      echo "$owner $1"
      return 0
    fi
  done
}

purl_version() { sed 's/%/%25/g; s/:/%3A/g; s/+/%2B/g' <<<"$1"; }

component() { # package linkage
  local v src arch distro
  v="$(dpkg-query -W -f='${Version}' "$1")"
  src="$(dpkg-query -W -f='${source:Package}' "$1")"
  arch="$(dpkg-query -W -f='${Architecture}' "$1")"
  distro="$(. /etc/os-release && echo "$ID-$VERSION_ID")"
  printf '    {"type": "library", "bom-ref": "pkg:deb/debian/%s@%s?arch=%s", "name": "%s", "version": "%s",\n' \
    "$1" "$(purl_version "$v")" "$arch" "$1" "$v"
  printf '     "purl": "pkg:deb/debian/%s@%s?arch=%s&distro=%s",\n' "$1" "$(purl_version "$v")" "$arch" "$distro"
  printf '     "properties": [{"name": "loopwright:linkage", "value": "%s"}, {"name": "debian:source", "value": "%s"}]}' \
    "$2" "$src"
}

mapfile -t packages < <({ linked_files; loaded_files "$@"; } | while read -r linkage path; do
  package_of "$linkage" "$path"
done | sort -u | awk '!seen[$1]++')

arch="$(dpkg --print-architecture)"
printf '{\n  "bomFormat": "CycloneDX",\n  "specVersion": "1.5",\n'
printf '  "serialNumber": "urn:uuid:%s",\n  "version": 1,\n' "$(cat /proc/sys/kernel/random/uuid)"
printf '  "metadata": {\n    "timestamp": "%s",\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
printf '    "tools": {"components": [{"type": "application", "name": "loopwright scripts/sbom.sh"}]},\n'
printf '    "component": {"type": "application", "bom-ref": "loopwright", "name": "loopwright", "version": "%s",\n' "$version"
printf '                  "properties": [{"name": "loopwright:architecture", "value": "%s"}]}\n  },\n' "$arch"
printf '  "components": [\n'
sep=""
for entry in "${packages[@]}"; do
  printf '%s' "$sep"
  # shellcheck disable=SC2086  # "package linkage"
  component $entry
  sep=$',\n'
done
printf '\n  ],\n  "dependencies": [{"ref": "loopwright", "dependsOn": ['
sep=""
for entry in "${packages[@]}"; do
  set -- $entry
  v="$(dpkg-query -W -f='${Version}' "$1")"
  printf '%s"pkg:deb/debian/%s@%s?arch=%s"' "$sep" "$1" "$(purl_version "$v")" "$(dpkg-query -W -f='${Architecture}' "$1")"
  sep=", "
done
printf ']}]\n}\n'
