#!/usr/bin/env bash
# Installs loopwright's executables for the action, side by side: on Linux
# loopwright, loopwright-engine and loopwright-container-init; on macOS
# (RUNNER_OS=macOS, the darwin-arm64 archive) the first two, the portable
# build (README.md, "macOS runners").
#
#   install.sh fetch   the release archive of the action's own version:
#                      downloaded with the job's token, checked against the
#                      digest the action's own tree pins in dist/SHA256SUMS
#                      (never against a file of the release, whose assets can
#                      be replaced together), unpacked into the tool cache.
#                      A copy already in the tool cache is re-hashed against
#                      the same pins on every start. When the tree pins no
#                      archive for this machine, or no release holds one, it
#                      says why in one line and asks for a source build.
#   install.sh build   the source build, in $LOOPWRIGHT_BUILD_DIR (restored by
#                      actions/cache; a directory configured for another
#                      source tree is started afresh).
#
# Both write step outputs: bin (the directory of the executables) and
# source-build (true|false); fetch, when it asks for a source build, also
# cache-key (the build directory's key: the action's version, ref and a hash
# of its sources, because actions/cache's hashFiles() sees only the
# workspace, never the action's own files) and cache-restore-key (any
# earlier build directory for this architecture). Hashing the sources takes
# longer than the whole start from the tool cache, hence only then.
#
# Environment: GITHUB_ACTION_PATH, LW_ACTION_REF and LW_ACTION_REPOSITORY
# (github.action_ref / action_repository, used when the path does not name
# them), LW_TOKEN, GITHUB_API_URL (GHES), RUNNER_OS (Linux or macOS; uname
# when unset), RUNNER_TOOL_CACHE, RUNNER_TEMP, GITHUB_OUTPUT.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${GITHUB_ACTION_PATH:-$here/..}" && pwd)"
version="$(tr -d '[:space:]' <"$root/VERSION")"

# The release's name for this runner's system: RUNNER_OS as Actions sets it,
# else the kernel's name.
release_os() {
  case "${RUNNER_OS:-$(uname -s)}" in
    macOS | Darwin) echo darwin ;;
    *) echo linux ;;
  esac
}
os="$(release_os)"
if [ "$os" = darwin ]; then
  # The portable build: no docker backend, so no container entrypoint.
  executables=(loopwright loopwright-engine)
else
  executables=(loopwright loopwright-engine loopwright-container-init)
fi
# Written by the release into the commit it tags (scripts/dist-pin.sh,
# docs/CONTRIBUTING.md#releasing): what a workflow pins by commit or tag is
# also what it trusts a release archive to be.
pins_file="$root/dist/SHA256SUMS"
declare -A pinned=()  # executable -> pinned digest, set by read_pins

say() { echo "loopwright $version: $*"; }
fail() {
  echo "::error title=loopwright install::$*"
  exit 1
}
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >>"$GITHUB_OUTPUT"; fi; }

# Sets `ref` and `repository` to where the runner downloaded the action from:
# its path is <runner>/_actions/OWNER/REPO/REF. github.action_ref is empty in
# some composite contexts and the outer action's in a nested one
# (actions/runner#2473), so the path is asked first.
action_origin() {
  local rel="${root#*/_actions/}"
  if [ "$rel" != "$root" ] && [[ "$rel" =~ ^([^/]+)/([^/]+)/([^/]+)$ ]]; then
    repository="${BASH_REMATCH[1]}/${BASH_REMATCH[2]}"
    ref="${BASH_REMATCH[3]}"
  else
    repository="${LW_ACTION_REPOSITORY:-loopwright/action}"
    ref="${LW_ACTION_REF:-}"
  fi
}

machine_arch() {
  case "$(uname -m)" in
    x86_64 | amd64) echo x64 ;;
    aarch64 | arm64) echo arm64 ;;
    *) uname -m ;;
  esac
}

# The release whose archive matches this action's code, from its VERSION and
# the ref the workflow named: sets `tag`, or leaves it empty and sets
# `no_asset` to the reason when the code is not a release's; fails when the
# ref names another version.
release_tag() {
  local ref="$1" major="${version%%.*}" minor="${version%.*}"
  tag=""
  if [ -z "$ref" ]; then
    no_asset="the action runs from a local path, whose code no release holds"
  elif [ "$ref" = "v$version" ] || [ "$ref" = "v$major" ] || [ "$ref" = "v$minor" ]; then
    tag="v$version"
  elif [[ "$ref" =~ ^[0-9a-f]{40}$ ]]; then
    tag="v$version"  # a commit pin: the release of the VERSION that commit holds
  elif [[ "$ref" =~ ^v[0-9]+(\.[0-9]+){0,2}$ ]]; then
    fail "the action's ref $ref is not a tag of its VERSION $version (expected v$version, v$minor or v$major)"
  else
    no_asset="the action's ref '$ref' is a branch, not a release"
  fi
}

# What the source build depends on: the action's version, the ref the
# workflow named (a moving tag or a branch changes under the same name) and
# the sources themselves.
cache_key() {
  local ref="$1" arch="$2" sources
  sources="$(cd "$root" && find CMakeLists.txt VERSION src -type f -print0 2>/dev/null |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
  echo "loopwright-build-$os-$arch-$version-${ref//[^A-Za-z0-9._-]/_}-$sources"
}

# GET with the job's token; the body goes to $2, the HTTP status to stdout.
api_get() {
  local url="$1" out="$2" accept="${3:-application/vnd.github+json}"
  local auth=()
  if [ -n "${LW_TOKEN:-}" ]; then auth=(-H "Authorization: Bearer $LW_TOKEN"); fi
  curl -sS -L --retry 3 --retry-delay 1 --connect-timeout 10 --max-time 120 \
    "${auth[@]}" -H "Accept: $accept" -H "X-GitHub-Api-Version: 2022-11-28" \
    -o "$out" -w '%{http_code}' "$url" || echo 000
}

# The API address of the release asset named $1 in the release JSON $2.
asset_url() {
  if command -v jq >/dev/null 2>&1; then
    jq -r --arg n "$1" '.assets[]? | select(.name == $n) | .url' "$2" | head -1
  else
    python3 -c 'import json,sys
for a in json.load(open(sys.argv[2])).get("assets", []):
    if a.get("name") == sys.argv[1]:
        print(a.get("url", "")); break' "$1" "$2"
  fi
}

# Reads the digests the action's tree pins for $os-$1 from dist/SHA256SUMS
# (`sha256sum` lines): sets `pinned_archive` and `pinned` (executable ->
# digest), or leaves `pinned_archive` empty and sets `no_asset` to the reason
# unless the archive and every executable are pinned.
read_pins() {
  local prefix="loopwright-$version-$os-$1" digest name exe
  pinned_archive=""
  pinned=()
  if [ -f "$pins_file" ]; then
    while read -r digest name; do
      [[ "$digest" =~ ^[0-9a-f]{64}$ ]] || continue
      name="${name#\*}"
      case "$name" in
        "$prefix.tar.gz") pinned_archive="$digest" ;;
        "$prefix/"*) pinned["${name#"$prefix/"}"]="$digest" ;;
      esac
    done <"$pins_file"
  fi
  for exe in "${executables[@]}"; do [ -n "${pinned[$exe]:-}" ] || pinned_archive=""; done
  if [ -z "$pinned_archive" ]; then
    no_asset="the action's dist/SHA256SUMS pins no $prefix.tar.gz and its executables, so no release archive is trusted (a release commit pins them)"
  fi
}

# Prints the SHA-256 of each file named, one a line, in order. openssl's
# uses the CPU's SHA extensions (3x coreutils' sha256sum here), which keeps the
# re-hash of the executables on every start within 20 ms (README.md).
sha256_of() {
  local out line
  if command -v openssl >/dev/null 2>&1; then
    out="$(openssl dgst -sha256 -r "$@")" || return 1
  else
    out="$(sha256sum "$@")" || return 1
  fi
  while read -r line; do echo "${line%% *}"; done <<<"$out"
}

# True when directory $1 holds exactly the pinned executables: regular
# files, each re-hashed. Nothing in the directory vouches for itself.
holds_pinned_executables() {
  local dir="$1" exe files=() want="" have
  for exe in "${executables[@]}"; do
    [ -f "$dir/$exe" ] && [ -x "$dir/$exe" ] && [ ! -L "$dir/$exe" ] || return 1
    files+=("$dir/$exe")
    want+="${pinned[$exe]}"$'\n'
  done
  have="$(sha256_of "${files[@]}")" || return 1
  [ "$have"$'\n' = "$want" ]
}

# Unpacks the verified archive $1 into $2 (the tool cache entry) atomically:
# a half-unpacked entry is never seen as installed.
unpack() {
  local archive="$1" dest="$2" staging
  mkdir -p "$(dirname "$dest")"
  staging="$(mktemp -d "$dest.XXXXXX")"
  tar -xzf "$archive" -C "$staging" --no-same-owner
  for exe in "${executables[@]}"; do
    [ -x "$staging/$exe" ] || fail "the release archive has no executable $exe"
  done
  # The archive matched its pin, so a mismatch here is a release made wrong.
  holds_pinned_executables "$staging" ||
    fail "the executables in $(basename "$archive") do not match the digests in the action's dist/SHA256SUMS"
  rm -rf "$dest"
  mv "$staging" "$dest"
}

# Downloads the archive of release $1 for $2, checks it against the pinned
# digest and unpacks it into the tool cache entry $3. When the release has no
# such archive it sets `no_asset` to the reason; any other failure, a digest
# mismatch above all, is fatal.
fetch_release() {
  local tag="$1" arch="$2" dest="$3" repo="$repository"
  local name="loopwright-$version-$os-$arch.tar.gz" api="${GITHUB_API_URL:-https://api.github.com}"
  local work status url have
  work="$(mktemp -d "${RUNNER_TEMP:-/tmp}/loopwright-fetch.XXXXXX")"
  status="$(api_get "$api/repos/$repo/releases/tags/$tag" "$work/release.json")"
  if [ "$status" = 404 ]; then
    no_asset="$repo has no release $tag"
    return 0
  fi
  [ "$status" = 200 ] || fail "GET $api/repos/$repo/releases/tags/$tag answered HTTP $status"
  url="$(asset_url "$name" "$work/release.json")"
  if [ -z "$url" ]; then
    no_asset="release $tag of $repo has no $name"
    return 0
  fi
  status="$(api_get "$url" "$work/$name" application/octet-stream)"
  [ "$status" = 200 ] || fail "downloading $name of release $tag answered HTTP $status"
  have="$(sha256_of "$work/$name")"
  [ "$have" = "$pinned_archive" ] ||
    fail "$name of release $tag does not match the digest in the action's dist/SHA256SUMS (expected $pinned_archive, got $have): the release's assets are not those this commit was released with"
  unpack "$work/$name" "$dest"
  rm -rf "$work"
}

# Installs release $1's executables for $2 into the tool cache, or reuses
# the copy there when it still matches the pins; sets `no_asset` when the
# release has none.
install_release() {
  local tag="$1" arch="$2" dest
  dest="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}/loopwright-tools}/loopwright/$version/$arch"
  if holds_pinned_executables "$dest"; then
    say "release $tag executables for $os-$arch from the tool cache, re-hashed against the action's dist/SHA256SUMS"
  else
    if [ -e "$dest" ]; then
      echo "::warning title=loopwright install::the tool cache's $dest does not hold the executables the action pins in dist/SHA256SUMS; it is not run, and the release is installed afresh"
    fi
    fetch_release "$tag" "$arch" "$dest"
    [ -n "$no_asset" ] || say "release $tag executables for $os-$arch, verified against the action's dist/SHA256SUMS"
  fi
  [ -n "$no_asset" ] || output bin "$dest"
}

fetch_main() {
  local arch
  action_origin
  arch="$(machine_arch)"
  no_asset=""
  release_tag "$ref"
  [ -z "$tag" ] || read_pins "$arch"
  [ -z "$tag" ] || [ -z "$pinned_archive" ] || install_release "$tag" "$arch"
  if [ -z "$no_asset" ]; then
    if [ "$os" = darwin ]; then
      # The darwin executables load Homebrew's libraries (README.md, "macOS runners").
      # shellcheck source=scripts/lib/deps.sh
      source "$root/scripts/lib/deps.sh"
      lw_ensure_brew_packages "${LW_BREW_RUNTIME_PACKAGES[@]}"
    fi
    output source-build false
    return 0
  fi
  say "building from source: $no_asset"
  output source-build true
  output cache-key "$(cache_key "$ref" "$arch")"
  output cache-restore-key "loopwright-build-$os-$arch-"
}

# The build directory actions/cache restored was configured for this source
# tree and this directory, or it is removed (CMake refuses a cache made for
# another source directory, as after an upgrade moved the action's path).
reuse_or_clear() {
  local build="$1" home cachedir
  [ -f "$build/CMakeCache.txt" ] || return 0
  home="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")"
  cachedir="$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$build/CMakeCache.txt")"
  if [ "$home" != "$root" ] || [ "$cachedir" != "$(cd "$build" && pwd)" ]; then
    say "the restored build directory was configured for $home; starting it afresh"
    rm -rf "$build"
  fi
}

build_main() {
  local build="${LOOPWRIGHT_BUILD_DIR:-$root/build/action}" dest="${RUNNER_TEMP:-/tmp}/loopwright-bin"
  # shellcheck source=scripts/lib/deps.sh
  source "$root/scripts/lib/deps.sh"
  if [ "$os" = darwin ]; then
    lw_ensure_brew_packages "${LW_BREW_PACKAGES[@]}"
  else
    lw_ensure_packages "${LW_BUILD_PACKAGES[@]}"
  fi
  reuse_or_clear "$build"
  local configure=(cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPWRIGHT_TESTS=OFF)
  if [ "$os" = darwin ]; then
    configure+=(-DLOOPWRIGHT_LINUX_BACKENDS=OFF -DOPENSSL_ROOT_DIR="$(brew --prefix openssl@3)")
  fi
  if [ ! -f "$build/CMakeCache.txt" ]; then
    "${configure[@]}" >/dev/null
  elif ! "${configure[@]}" >"${RUNNER_TEMP:-/tmp}/loopwright-configure.log" 2>&1; then
    # Whatever else a restored directory holds that CMake cannot reuse.
    say "configuring the restored build directory failed; starting it afresh"
    rm -rf "$build"
    "${configure[@]}" >/dev/null
  fi
  cmake --build "$build" --target loopwright -j"$(getconf _NPROCESSORS_ONLN)"
  mkdir -p "$dest"
  for exe in "${executables[@]}"; do install -m 0755 "$build/$exe" "$dest/$exe"; done
  output bin "$dest"
  say "built from source"
}

case "${1:-}" in
  fetch) fetch_main ;;
  build) build_main ;;
  *)
    echo "usage: install.sh fetch|build" >&2
    exit 2
    ;;
esac
