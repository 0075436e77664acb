#!/usr/bin/env bash
# Installs what is missing, builds loopwright (Release), and runs the main job
# on the example in examples/review: validate the taskpack, show the effective
# policy of every step, then run the pipeline on a pull_request.opened event
# (a lint step, a step using its bridge, a looping step the guardrails stop).
# Then the built-in steps on examples/pr-review (builtin/security,
# builtin/lint with shellcheck, builtin/review), published to the test
# suite's local GitHub server, the review's model lane served by its local
# model server (a deterministic stand-in, not a model).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

lw_ensure_packages "${LW_BUILD_PACKAGES[@]}" shellcheck

build_dir="${LOOPWRIGHT_BUILD_DIR:-build/release}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPWRIGHT_TESTS=OFF >/dev/null
cmake --build "$build_dir" -j"$(nproc)" --target loopwright loopwright-dev-servers
lw="$build_dir/loopwright"
example=examples/review

section() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

section "loopwright validate $example/.loopwright/taskpack.yaml"
"$lw" validate --repo "$example"

section "loopwright explain --event-name pull_request.opened (this machine, no GITHUB_ACTIONS)"
env -u GITHUB_ACTIONS "$lw" explain --repo "$example" --event-name pull_request.opened

section "the same taskpack without spec.sandbox, as GitHub Actions would run it"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/.loopwright"
sed '/^  sandbox:/,/^    deniedReadPaths:/d' "$example/.loopwright/taskpack.yaml" >"$tmp/.loopwright/taskpack.yaml"
GITHUB_ACTIONS=true "$lw" explain --repo "$tmp" --json | python3 -c '
import json, sys
for s in json.load(sys.stdin)["steps"]:
    sb = s["sandbox"]
    print("%s/%s: backends=%s network=%s required=%s" % (s["stage"], s["step"],
          sb["preferredBackends"], sb["networkMode"], sb["requiredCapabilities"]))'

section "loopwright run: the review pipeline on a pull_request.opened event"
examples/review/make-repo.sh "$tmp/repo"
set +e
"$lw" run --repo "$tmp/repo" --event-name pull_request --event-path "$tmp/repo.event.json" \
  --out "$tmp/out"
status=$?
set -e
echo "exit status: $status (4: a step was stopped by a guardrail, as the looper is meant to be)"
echo "run.json steps:"
python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))
for stage in run["stages"]:
    for s in stage["steps"]:
        print("  %-12s %-8s backend=%s findings=%d toolCalls=%d blocker=%s" % (s["step"], s["outcome"],
              s["backend"], len(s["findings"]), s["toolCalls"], "yes" if s["blocker"] else "no"))' "$tmp/out/run.json"

section "a taskpack with mistakes: every problem at once, exit 2"
cat >"$tmp/bad.yaml" <<'YAML'
apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: Bad_Name}
spec:
  sandbox: {networkmode: none, preferredBackends: [linux-bwrap, linux-bwrap]}
  isolation: L9
  stages:
    - name: review
      on: [pull_request.opened]
      steps: [{name: a, run: [x], role: superuser}]
YAML
set +e
"$lw" validate "$tmp/bad.yaml"
echo "exit status: $?"
set -e

if "$lw" --help | grep -q '^  sandbox backends'; then
  section "loopwright sandbox backends (observed on this host)"
  "$lw" sandbox backends || true
fi

section "built-in steps: examples/pr-review, published to a local GitHub"
echo "uses: builtin/security, builtin/lint (shellcheck), builtin/review; the model lane is a local stand-in"
# The servers print their URLs, then take "pull N SHA DIFF" on their input
# (the URLs go into the repository's taskpack before its commits exist).
mkfifo "$tmp/servers.in"
"$build_dir/loopwright-dev-servers" "$tmp/posted.json" <"$tmp/servers.in" >"$tmp/servers.out" &
servers_pid=$!
exec 7>"$tmp/servers.in"
until [ "$(wc -l <"$tmp/servers.out")" -ge 2 ]; do sleep 0.05; done
github_url="$(sed -n 's/^GITHUB_API_URL=//p' "$tmp/servers.out")"
model_url="$(sed -n 's/^MODEL_URL=//p' "$tmp/servers.out")"
examples/pr-review/make-repo.sh "$tmp/pr" "$model_url"
git -C "$tmp/pr" diff HEAD~1 HEAD >"$tmp/pr.diff"
echo "pull 1 $(git -C "$tmp/pr" rev-parse HEAD) $tmp/pr.diff" >&7
set +e
env -u GITHUB_ACTIONS GITHUB_API_URL="$github_url" GITHUB_TOKEN=test-token \
  GITHUB_REPOSITORY=octo/hello OPENAI_API_KEY=demo-key GITHUB_STEP_SUMMARY="$tmp/summary.md" \
  "$lw" run --repo "$tmp/pr" --event-name pull_request --event-path "$tmp/pr.event.json" \
  --out "$tmp/pr-out" --publish github --sarif "$tmp/findings.sarif"
status=$?
set -e
exec 7>&-
wait "$servers_pid"
echo "exit status: $status (1: findings at the taskpack's failOn: error)"
echo "what the local GitHub received:"
python3 -c '
import json, sys
posted = json.load(open(sys.argv[1]))
for c in posted["reviewComments"]:
    first = c["body"].split("\n")[0]
    print("  inline %s:%s  %s" % (c["path"], c["line"], first))
for r in posted["checkRuns"]:
    print("  check run %r: %s" % (r["name"], r.get("conclusion")))
sarif = json.load(open(sys.argv[2]))
print("  SARIF for code scanning: %d results" % len(sarif["runs"][0]["results"]))' "$tmp/posted.json" "$tmp/findings.sarif"
