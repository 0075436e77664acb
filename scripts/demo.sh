#!/usr/bin/env bash
# Installs what is missing, builds loopwright (Release), and runs the main job
# on the example in examples/review: validate the taskpack, show the effective
# policy of every step, then run the pipeline on a pull_request.opened event
# (a lint step, a step using its bridge, a looping step the guardrails stop).
# Then the built-in steps on examples/pr-review (builtin/security,
# builtin/lint with shellcheck, builtin/review), published to the test
# suite's local GitHub server, the review's model lane served by its local
# model server (a deterministic stand-in, not a model). Last, an author step
# on examples/author-fix: its formatter fix proposed as review suggestions,
# then pushed as a branch to a bare origin (publication.patches: branch). Then issue
# triage on examples/triage: builtin/triage and builtin/reproduce on its example issues
# (a bug, a fixed one, and hostile reproductions: the runner's token, the network, a fork bomb).
# Between them, `loopwright eval` prints the precision, recall, cost and time of the review taskpack
# on examples/evals.
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
# (the URLs go into the repository's taskpack before its commits exist); when
# their input closes they write what was posted to the file named $1.
start_dev_servers() {
  rm -f "$tmp/servers.in" "$tmp/servers.out"
  mkfifo "$tmp/servers.in"
  "$build_dir/loopwright-dev-servers" "$1" <"$tmp/servers.in" >"$tmp/servers.out" &
  servers_pid=$!
  exec 7>"$tmp/servers.in"
  until [ "$(wc -l <"$tmp/servers.out")" -ge 2 ]; do sleep 0.05; done
  github_url="$(sed -n 's/^GITHUB_API_URL=//p' "$tmp/servers.out")"
  model_url="$(sed -n 's/^MODEL_URL=//p' "$tmp/servers.out")"
}
# The repository $1's head commit as pull request 1.
serve_pull() {
  git -C "$1" diff HEAD~1 HEAD >"$1.diff"
  echo "pull 1 $(git -C "$1" rev-parse HEAD) $1.diff" >&7
}
stop_dev_servers() {
  exec 7>&-
  wait "$servers_pid"
}
start_dev_servers "$tmp/posted.json"
examples/pr-review/make-repo.sh "$tmp/pr" "$model_url"
serve_pull "$tmp/pr"
set +e
env -u GITHUB_ACTIONS GITHUB_API_URL="$github_url" GITHUB_TOKEN=test-token \
  GITHUB_REPOSITORY=octo/hello OPENAI_API_KEY=demo-key GITHUB_STEP_SUMMARY="$tmp/summary.md" \
  "$lw" run --repo "$tmp/pr" --event-name pull_request --event-path "$tmp/pr.event.json" \
  --out "$tmp/pr-out" --publish github --sarif "$tmp/findings.sarif"
status=$?
set -e
stop_dev_servers
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

section "loopwright eval: the same taskpack measured on examples/evals (22 cases with known answers)"
echo "planted bugs for each step, clean changes and hostile text; the review lane is the stand-in again"
start_dev_servers "$tmp/eval.posted.json"
examples/pr-review/make-repo.sh "$tmp/eval-repo" "$model_url"
git -C "$tmp/eval-repo" checkout -q main
set +e
env -u GITHUB_ACTIONS -u GITHUB_STEP_SUMMARY OPENAI_API_KEY=demo-key \
  "$lw" eval --repo "$tmp/eval-repo" --cases examples/evals --out "$tmp/eval-out" 2>"$tmp/eval.log"
status=$?
set -e
stop_dev_servers
echo "exit status: $status (8 would be a regression against --baseline; see docs/evals.md)"

# examples/author-fix at $1 (with the taskpack $2, else the example's), run
# with --publish github against fresh dev servers, its state in $1.state.
run_author_fix() {
  start_dev_servers "$1.posted.json"
  examples/author-fix/make-repo.sh "$1" ${2:+"$2"}
  [ -z "${3:-}" ] || { git init -q --bare "$3" && git -C "$1" remote add origin "$3" && git -C "$1" push -q origin main feature; }
  serve_pull "$1"
  set +e
  env -u GITHUB_ACTIONS GITHUB_API_URL="$github_url" GITHUB_TOKEN=test-token GITHUB_REPOSITORY=octo/hello \
    RUNNER_TEMP="$1.state" "$lw" run --repo "$1" --event-name pull_request --event-path "$1.event.json" \
    --out "$1.out" --publish github >"$1.log" 2>&1
  status=$?
  set -e
  stop_dev_servers
  sed -n '/^stage format (/,/^run record/p' "$1.log" | sed "s|$tmp/||g"
  echo "exit status: $status"
}

section "an author step: examples/author-fix, its fix proposed as review suggestions"
echo "fix-format reformats the pull request's C sources in its own worktree and sandbox;"
echo "its change is accepted only if .loopwright/check-format.sh passes on it"
run_author_fix "$tmp/fix"
echo "the one review the local GitHub received:"
python3 -c '
import json, sys
posted = json.load(open(sys.argv[1]))
for c in sorted(posted["reviewComments"], key=lambda c: c["line"]):
    lines = "lines %s-%s" % (c["start_line"], c["line"]) if "start_line" in c else "line %s" % c["line"]
    block = c["body"].split("```suggestion\n")[1].split("```")[0]
    print("  suggestion on %s %s:" % (c["path"], lines))
    for l in block.splitlines(): print("    | " + l)
body = posted["reviews"][0]["body"]
patch = body.split("```diff\n")[1].split("```")[0]
print("  in its body, as a patch: " + ", ".join(l[6:] for l in patch.splitlines() if l.startswith("+++ b/")))' "$tmp/fix.posted.json"

section "the same step with publication.patches: branch, pushed to a bare origin"
sed 's/patches: suggestions/patches: branch/' examples/author-fix/.loopwright/taskpack.yaml >"$tmp/branch.yaml"
run_author_fix "$tmp/branch" "$tmp/branch.yaml" "$tmp/remote/octo/hello.git"
echo "the bare origin's new branch:"
git -C "$tmp/remote/octo/hello.git" log -1 --format='  %D: %h "%s" (parent %p)' --decorate-refs='refs/heads/loopwright/*' \
  --branches='loopwright/*' --stat=60 | sed -e '/^$/d' -e 's/^ \([^ ]\)/    \1/'
python3 -c '
import json, re, sys
for c in json.load(open(sys.argv[1]))["issueComments"]:
    print("  pull request comment: " + re.sub(r"\]\([^)]*\)", "]", c["body"].split("\n")[3]))' "$tmp/branch.posted.json"

section "issue triage: builtin/triage and builtin/reproduce on examples/triage's issues"
echo "builtin/reproduce runs the shell, Python or JavaScript block under an issue's"
echo "'Steps to reproduce' against the example project (greeter.py), with no network."
# The example as written asks for L3 (another kernel): where no backend gives it, the step
# is refused, never run lower.
make_triage_repo() {
  rm -rf "$1" && mkdir -p "$1" && cp -r examples/triage/. "$1/" && rm -rf "$1/issues"
  [ -z "${2:-}" ] || cp "$2" "$1/.loopwright/taskpack.yaml"
  git -C "$1" init -q -b main && git -C "$1" add -A && git -C "$1" -c user.name=demo -c user.email=demo@invalid commit -qm greeter
}
# Issue $2 (a file of examples/triage/issues) on the repository $1, served by fresh dev
# servers; {{HOST_PORT}} in it becomes the local GitHub's port, a service of the host.
run_triage_issue() {
  local number="${2%%-*}"
  start_dev_servers "$1.posted.json"
  python3 - "$number" "examples/triage/issues/$2" "$1.issue.json" "$1.event.json" "${github_url##*:}" <<'PY'
import json, sys
number, body_file, issue_file, event_file, port = sys.argv[1:]
issue = {"number": int(number), "title": body_file.rsplit("/", 1)[1][3:-3].replace("-", " "),
         "body": open(body_file).read().replace("{{HOST_PORT}}", port.split("/")[0]), "state": "open", "user": {"login": "mona"},
         "author_association": "NONE", "labels": [], "comments": 0}
json.dump(issue, open(issue_file, "w"))
json.dump({"action": "opened", "issue": issue, "sender": {"login": "mona"},
           "repository": {"name": "hello", "full_name": "octo/hello", "owner": {"login": "octo"}}},
          open(event_file, "w"))
PY
  echo "issue $number $1.issue.json" >&7
  set +e
  env -u GITHUB_ACTIONS GITHUB_API_URL="$github_url" GITHUB_TOKEN=test-token GITHUB_REPOSITORY=octo/hello \
    RUNNER_TEMP="$1.state" "$lw" run --repo "$1" --event-name issues --event-path "$1.event.json" \
    --out "$1.out.$number" --publish github >"$1.log.$number" 2>&1
  status=$?
  set -e
  stop_dev_servers
}
# What issue $2, run on the repository $1, got.
report_issue() {
  python3 - "$2" "$status" "$1.posted.json" "$tmp" <<'PY'
import json, os, sys
issue, status, posted, tmp = sys.argv[1:]
state = json.load(open(posted))
body = state["issueComments"][-1]["body"] if state["issueComments"] else ""
verdict = next((l for l in body.splitlines() if l.startswith("**Reproduction:**")), "(no reproduction line)")
def cmdline(pid):
    try:
        return open("/proc/%s/cmdline" % pid, "rb").read()
    except OSError:
        return b""
left = sum(1 for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid() and tmp.encode() in cmdline(p))
print("  #%s exit %s, labels %s\n    %s" % (issue[:-3], status, state["issueLabels"], verdict))
if "token" in issue:
    lines = [l for l in body.splitlines() if "TOKEN" in l or "environ" in l]
    print("    its output: " + " | ".join(lines))
if "network" in issue:
    print("    its output: " + " | ".join(l for l in body.splitlines() if "reach" in l or "resolve" in l))
if "fork" in issue:
    print("    processes of this run still running afterwards: %d" % left)
PY
}
# Runs the example's issues after the first on the repository $1 and says what each got.
triage_other_issues() {
  for issue in 22-shout-crash.md 23-reads-token.md 24-network.md 25-fork-bomb.md; do
    run_triage_issue "$1" "$issue"
    report_issue "$1" "$issue"
  done
}
make_triage_repo "$tmp/triage"
run_triage_issue "$tmp/triage" 21-initials-crash.md
if grep -q 'BLOCKER: no sandbox backend gives step triage/reproduce' "$tmp/triage.log.21"; then
  echo "as written (isolation: L3), exit status $status:"
  grep -m1 -o 'BLOCKER: no sandbox backend gives step triage/reproduce[^.]*' "$tmp/triage.log.21" | sed 's/^/  /' || true
  # Only on a host without L3 (no gVisor): the demo lowers the step's own
  # isolation, as a runner that is a throwaway VM may.
  sed -e 's/isolation: L3/isolation: L1   # lowered for this demo/' \
    -e 's/sandbox: {networkMode: none}/sandbox: {preferredBackends: [linux-bwrap, linux-landlock], networkMode: none}/' \
    examples/triage/.loopwright/taskpack.yaml >"$tmp/triage-l1.yaml"
  make_triage_repo "$tmp/triage-l1" "$tmp/triage-l1.yaml"
  echo "this host gives no L3 (no gVisor), so for this demo only the step's own isolation is lowered to L1"
  echo "(linux-bwrap, networkMode none):"
  run_triage_issue "$tmp/triage-l1" 21-initials-crash.md
  report_issue "$tmp/triage-l1" 21-initials-crash.md
  triage_other_issues "$tmp/triage-l1"
else
  backend=$(python3 -c 'import json,sys; print(next(s["backend"] for st in json.load(open(sys.argv[1]))["stages"] for s in st["steps"] if s["step"] == "reproduce"))' "$tmp/triage.out.21/run.json")
  echo "as written (isolation: L3, networkMode none), on $backend:"
  report_issue "$tmp/triage" 21-initials-crash.md
  triage_other_issues "$tmp/triage"
fi
