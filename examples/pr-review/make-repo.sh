#!/usr/bin/env bash
# Turns this example into a git repository at DEST: a base commit (the
# taskpack, the review guidance, the README) and a pull-request commit
# (a Python module, an install script, a workflow, a new dependency, each
# with something for a built-in step to find), and writes DEST.event.json,
# a pull_request.opened payload whose base and head SHAs are those commits.
# With MODEL_URL, the taskpack's model lane points there instead of OpenAI's
# API (the demo and the tests give a local server).
# Usage: examples/pr-review/make-repo.sh DEST [MODEL_URL]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:?usage: make-repo.sh DEST [MODEL_URL]}"
model_url="${2:-https://api.openai.com/v1}"
rm -rf "$dest"
mkdir -p "$dest/.loopwright"
cd "$dest"
git() { command git -c user.name=example -c user.email=example@invalid -c init.defaultBranch=main "$@"; }
git init -q
cp -r "$here/base/." .
sed "s|https://api.openai.com/v1|$model_url|" "$here/.loopwright/taskpack.yaml" >.loopwright/taskpack.yaml
cp "$here/.loopwright/review.md" .loopwright/
git add -A
git commit -qm "base: taskpack and review guidance"
base="$(git rev-parse HEAD)"
git checkout -q -b feature
cp -r "$here/pr/." .
git add -A
git commit -qm "Add greet() and an install script"
head="$(git rev-parse HEAD)"
sed "s/BASE_SHA/$base/; s/HEAD_SHA/$head/" "$here/event.json" >"$dest.event.json"
