#!/usr/bin/env bash
# The action's run step. Inputs arrive only through the environment (never
# interpolated into this script), so a crafted input cannot inject commands.
# Each input is checked here, where the message can name the input; the
# values then go to `loopwright run` as flags.
set -euo pipefail
lw="${LOOPWRIGHT_BIN:-$RUNNER_TEMP/loopwright-bin/loopwright}"

input_error() {  # input value expected
  echo "::error title=loopwright::input $1 must be $3, not '$2'"
  exit 2
}

publish="${LW_PUBLISH:-github}"
case "$publish" in github | none) ;; *) input_error publish "$publish" "github or none" ;; esac
case "${LW_DRY_RUN:-false}" in
  true) publish=none ;;
  false | "") ;;
  *) input_error dry-run "$LW_DRY_RUN" "true or false" ;;
esac
# Empty: the taskpack's publication.failOn decides (error unless it says otherwise).
fail_on="${LW_FAIL_ON:-}"
case "$fail_on" in error | warning | never | "") ;; *) input_error fail-on "$fail_on" "error, warning or never" ;; esac

# For pull requests loopwright reads the taskpack at this path from the base
# commit, never from the pull request's own tree.
args=(run --publish "$publish" --repo "${GITHUB_WORKSPACE:-.}"
  --taskpack-path "${LW_TASKPACK_PATH:-.loopwright/taskpack.yaml}")
if [ -n "$fail_on" ]; then args+=(--fail-on "$fail_on"); fi
if [ -n "${LW_SARIF:-}" ]; then args+=(--sarif "$LW_SARIF"); fi
exec "$lw" "${args[@]}"
