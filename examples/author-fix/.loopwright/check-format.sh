#!/bin/sh
# Fails (exit 1), naming each offending line, when a C source under src/ has
# a trailing blank or a tab; the author step's change must make it pass.
set -u
tab="$(printf '\t')"
if grep -rn --include='*.c' --include='*.h' -e "[ $tab]\$" -e "$tab" src; then
  echo "check-format: trailing blanks or tabs above" >&2
  exit 1
fi
echo "check-format: src/ is clean"
