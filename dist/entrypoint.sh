#!/usr/bin/env bash
# The action's run step. Inputs arrive only through the environment (never
# interpolated into this script), so a crafted input cannot inject commands.
set -euo pipefail
lw="${LOOPWRIGHT_BIN:-$RUNNER_TEMP/loopwright-bin/loopwright}"
publish="${LW_PUBLISH:-github}"
if [ "${LW_DRY_RUN:-false}" = "true" ]; then publish=none; fi
case "$publish" in github | none) ;; *)
  echo "::error title=loopwright::input publish must be github or none, not '$publish'"
  exit 2
  ;;
esac
# For pull requests loopwright reads the taskpack at this path from the base
# commit, never from the pull request's own tree.
args=(run --publish "$publish" --repo "${GITHUB_WORKSPACE:-.}"
  --taskpack-path "${LW_TASKPACK_PATH:-.loopwright/taskpack.yaml}")
set +e
"$lw" "${args[@]}"
status=$?
set -e
# fail-on: the taskpack's publication.failOn decides findings; "never" here
# keeps the job green for findings (status 1) but not for guardrail stops,
# refusals or verification violations.
if [ "$status" -eq 1 ] && [ "${LW_FAIL_ON:-error}" = "never" ]; then status=0; fi
exit "$status"
