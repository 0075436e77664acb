#!/usr/bin/env bash
# The action's step for the writing half of the fork split
# (docs/fork-pull-requests.md): publishes the run directory a pull_request
# job uploaded, in a workflow_run job. The directory is only read as data by
# `loopwright publish --from-artifact`; nothing in it is run or sourced.
set -euo pipefail
lw="${LOOPWRIGHT_BIN:-$RUNNER_TEMP/loopwright-bin/loopwright}"

if [ "${GITHUB_EVENT_NAME:-}" != "workflow_run" ]; then
  echo "::error title=loopwright::input from-artifact is for a workflow_run job, not '${GITHUB_EVENT_NAME:-}' (docs/fork-pull-requests.md)"
  exit 2
fi
case "${LW_PUBLISH:-github}" in
  github) ;;
  *)
    echo "::error title=loopwright::input from-artifact publishes; publish must be github, not '${LW_PUBLISH}'"
    exit 2
    ;;
esac
# What the artifact may carry, and how it is published, is the taskpack's at
# this path in the pull request's base commit, read through the API.
exec "$lw" publish --from-artifact "$LW_FROM_ARTIFACT" --taskpack-path "${LW_TASKPACK_PATH:-.loopwright/taskpack.yaml}"
