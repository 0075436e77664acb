#!/bin/sh
# A lint step: flags TODO comments and trailing whitespace in the files the
# repository tracks, and writes them as findings.json to LOOPWRIGHT_OUT.
# It needs nothing but the read-only workspace.
set -eu
out="$LOOPWRIGHT_OUT/findings.json"
first=1
printf '{"findings":[' >"$out"
emit() { # path line rule severity message
  [ "$first" -eq 1 ] || printf ',' >>"$out"
  first=0
  printf '{"ruleId":"%s","severity":"%s","message":"%s","path":"%s","line":%s}' \
    "$3" "$4" "$5" "$1" "$2" >>"$out"
}
for f in $(find src -type f | sort); do
  grep -n 'TODO' "$f" | while IFS=: read -r line _; do echo "$f $line todo"; done
  grep -n '[[:space:]]$' "$f" | while IFS=: read -r line _; do echo "$f $line ws"; done
done >"$LOOPWRIGHT_OUT/hits.txt"
while read -r path line kind; do
  if [ "$kind" = todo ]; then
    emit "$path" "$line" "lint/todo" "notice" "TODO left in the code"
  else
    emit "$path" "$line" "lint/trailing-whitespace" "warning" "trailing whitespace"
  fi
done <"$LOOPWRIGHT_OUT/hits.txt"
printf ']}\n' >>"$out"
echo "lint: $(wc -l <"$LOOPWRIGHT_OUT/hits.txt") findings"
