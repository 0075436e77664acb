#!/usr/bin/env bash
# `loopwright run` of examples/review end to end on one backend, checked from
# its run.json: the lint step's two findings (libgit2 verification passed,
# outputs accepted), the bridge-demo step's two tool calls over its bridge
# and its finding, the looper stopped with a BLOCKER (exit 4). The macos-14
# CI job runs it with macos-seatbelt; scripts/test.sh runs it with the
# portable build on Linux (direct-dedicated), so that every command the Mac
# job runs has run somewhere.
# The example's taskpack asks for linux-bwrap or linux-landlock: a copy of it
# asks for BACKEND instead (and, for direct-dedicated, which contains
# nothing, for no capability and the machine's network).
# Then `loopwright qualify --backend BACKEND` runs the backend's canaries
# (exit 0, each capability's status printed); processTreeCleanup must be
# enforced: both backends run on the POSIX launcher, whose canary daemon
# must have been seen to die.
# Usage: scripts/example-e2e.sh BIN_DIR BACKEND [WORK_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(cd "${1:?usage: example-e2e.sh BIN_DIR BACKEND [WORK_DIR]}" && pwd)"
backend="${2:?usage: example-e2e.sh BIN_DIR BACKEND [WORK_DIR]}"
work="${3:-$(mktemp -d "${TMPDIR:-/tmp}/lw-e2e.XXXXXX")}"
mkdir -p "$work"
work="$(cd "$work" && pwd -P)"  # macOS: /private/var, as the kernel reports it

example="$work/example"
rm -rf "$example"
cp -R "$root/examples/review" "$example"
taskpack="$example/.loopwright/taskpack.yaml"
policy="preferredBackends: [$backend]"
if [ "$backend" = direct-dedicated ]; then
  policy="$policy, networkMode: allow-outbound, requiredCapabilities: []"
fi
# The sandbox block of the example (five lines) becomes one line of policy.
awk -v policy="$policy" '
  /^  sandbox:$/ { print "  sandbox: {" policy ", deniedReadPaths: [~/.ssh, ~/.aws, ~/.config/gh]}"; skip = 1; next }
  skip && /^    / { next }
  { skip = 0; print }
' "$taskpack" >"$taskpack.new"
mv "$taskpack.new" "$taskpack"
grep -n "sandbox:" "$taskpack"

"$example/make-repo.sh" "$work/repo"
host_config="$work/host.yaml"
printf 'apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {allowDirectDedicated: true}\nstateDir: %s\n' \
  "$work/state" >"$host_config"
status=0
env -i PATH="/usr/bin:/bin:/usr/sbin:/sbin" HOME="$work" LOOPWRIGHT_HOST_CONFIG="$host_config" \
  "$bin/loopwright" run --repo "$work/repo" --event-name pull_request --event-path "$work/repo.event.json" \
  --out "$work/out" || status=$?
if [ "$status" -ne 4 ]; then
  echo "example-e2e: loopwright run exited $status, not 4 (the looper's BLOCKER)" >&2
  exit 1
fi
python3 - "$work/out/run.json" "$backend" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
steps = {s["step"]: s for st in run["stages"] for s in st["steps"]}
def expect(cond, what):
    if not cond:
        sys.exit("example-e2e: " + what + "\n" + json.dumps(steps, indent=1)[:4000])
lint, bridge, looper = steps["lint"], steps["bridge-demo"], steps["looper"]
for s in (lint, bridge, looper):
    expect(s["backend"] == sys.argv[2], s["step"] + " ran on " + str(s["backend"]))
expect(lint["outcome"] == "passed" and lint["verification"]["result"] == "passed", "lint did not pass verification")
expect(lint["outputsAccepted"] and len(lint["findings"]) == 2, "lint's two findings were not accepted")
expect(bridge["outcome"] == "passed" and bridge["toolCalls"] == 2, "bridge-demo did not make its two tool calls")
expect(bridge["findings"][0]["ruleId"] == "docs/readme", "bridge-demo's finding is missing")
expect(looper["outcome"] == "blocked", "the looper was not stopped")
print("example-e2e: lint, bridge-demo and looper as expected on " + sys.argv[2])
PY

status=0
env -i PATH="/usr/bin:/bin:/usr/sbin:/sbin" HOME="$work" LOOPWRIGHT_HOST_CONFIG="$host_config" \
  "$bin/loopwright" qualify --json --fresh --backend "$backend" >"$work/qualify.json" || status=$?
python3 - "$work/qualify.json" "$backend" <<'PY'
import json, sys
cleanup = None
for b in json.load(open(sys.argv[1])).get("backends", []):
    if b.get("backend") == sys.argv[2]:
        for cap, v in sorted(b.get("capabilities", {}).items()):
            print("example-e2e: qualify " + sys.argv[2] + " " + cap + ": " + str(v.get("status")))
            if cap == "processTreeCleanup":
                cleanup = v
if cleanup is None or cleanup.get("status") != "enforced":
    sys.exit("example-e2e: processTreeCleanup is not enforced: " + json.dumps(cleanup))
PY
if [ "$status" -ne 0 ]; then
  echo "example-e2e: loopwright qualify --backend $backend exited $status" >&2
  exit 1
fi
