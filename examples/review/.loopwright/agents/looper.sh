#!/bin/sh
# A deliberately looping agent: it asks for the same thing again and again.
# The bridge's loop detector warns at 3 identical calls and stops the step at
# 5 (LOOP_DETECTED); the step is killed and the run records a BLOCKER.
set -eu
i=0
while [ "$i" -lt 100 ]; do
  i=$((i + 1))
  printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"github.event","arguments":{}}}\n' "$i" |
    "$LOOPWRIGHT_BIN" bridge stdio >>"$LOOPWRIGHT_OUT/looper.log" || true
done
echo "looper: never stopped"
