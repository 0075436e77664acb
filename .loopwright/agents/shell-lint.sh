#!/bin/sh
# Reports shell scripts without `set -e` (or `set -eu…`) as warnings.
set -eu
out="$LOOPWRIGHT_OUT/findings.json"
printf '{"findings":[' >"$out"
first=1
for f in $(find scripts dist examples -name '*.sh' -type f | sort); do
  if ! grep -q '^set -e' "$f"; then
    [ "$first" -eq 1 ] || printf ',' >>"$out"
    first=0
    printf '{"ruleId":"shell/set-e","severity":"warning","message":"%s has no set -e","path":"%s","line":1}' "$f" "$f" >>"$out"
  fi
done
printf ']}\n' >>"$out"
