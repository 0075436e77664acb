#!/usr/bin/env bash
# Turns this example into a git repository at DEST with a base commit (the
# taskpack, the agents, the README) and a pull-request commit adding
# src/greet.py, and writes DEST.event.json: a pull_request.opened payload
# whose base and head SHAs are those commits.
# Usage: examples/review/make-repo.sh DEST
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:?usage: make-repo.sh DEST}"
rm -rf "$dest"
mkdir -p "$dest"
cp -r "$here/.loopwright" "$here/src" "$here/README.md" "$dest/"
cd "$dest"
git() { command git -c user.name=example -c user.email=example@invalid -c init.defaultBranch=main "$@"; }
git init -q
git add .loopwright README.md src/util.sh
git commit -qm "base: taskpack and agents"
base="$(git rev-parse HEAD)"
git checkout -q -b feature
git add src/greet.py
git commit -qm "Add greet()"
head="$(git rev-parse HEAD)"
sed "s/BASE_SHA/$base/; s/HEAD_SHA/$head/" "$here/event.json" >"$dest.event.json"
