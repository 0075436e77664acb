#!/bin/sh
# The house format for C sources: no trailing blanks, indentation in spaces
# (each leading tab becomes four). Deterministic, POSIX tools only, so it runs
# in every sandbox; it changes nothing outside src/.
set -eu
tab="$(printf '\t')"
find src -type f \( -name '*.c' -o -name '*.h' \) | sort | while IFS= read -r f; do
  sed -i -e "s/[ $tab]*\$//" -e ":indent" -e "s/^\\( *\\)$tab/\\1    /" -e "t indent" "$f"
done
