#!/usr/bin/env bash
# Turns this example into a git repository at DEST: a base commit (the
# taskpack, its format fixer and check, a small C program with one trailing
# blank the pull request does not touch) and a pull-request commit (new
# functions indented with tabs, one line with a trailing blank), and writes
# DEST.event.json, a pull_request.opened payload whose base and head SHAs are
# those commits. With TASKPACK, that file is the base commit's taskpack
# instead of the example's (the tests' variants).
# Usage: examples/author-fix/make-repo.sh DEST [TASKPACK]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:?usage: make-repo.sh DEST [TASKPACK]}"
taskpack="${2:-$here/.loopwright/taskpack.yaml}"
rm -rf "$dest"
mkdir -p "$dest/.loopwright"
cp "$taskpack" "$dest/.loopwright/taskpack.yaml"
cd "$dest"
git() { command git -c user.name=example -c user.email=example@invalid -c init.defaultBranch=main "$@"; }
git init -q
cp -r "$here/base/." .
cp "$here/.loopwright/fix-format.sh" "$here/.loopwright/check-format.sh" .loopwright/
git add -A
git commit -qm "base: the greeter, its taskpack and format check"
base="$(git rev-parse HEAD)"
git checkout -q -b feature
cp -r "$here/pr/." .
git add -A
git commit -qm "Greet a list of names, and say goodbye"
head="$(git rev-parse HEAD)"
sed "s/BASE_SHA/$base/; s/HEAD_SHA/$head/" "$here/event.json" >"$dest.event.json"
