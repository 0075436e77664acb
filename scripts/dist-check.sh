#!/usr/bin/env bash
# Checks that release executables run on every supported runner: the shared
# libraries they still load are in an allow-list of what each supported
# runner has, and no symbol needs a glibc newer than the oldest supported one
# (Ubuntu 22.04: glibc 2.35). Fails naming the executable and what it needs.
# Usage: scripts/dist-check.sh EXECUTABLE...
set -euo pipefail

# macOS: every library an executable loads is the system's (/usr/lib,
# /System) or one of Homebrew's formulae that dist/install.sh installs
# (LW_BREW_RUNTIME_PACKAGES); `otool -L` lists them.
if [ "$(uname -s)" = Darwin ]; then
  # shellcheck source=scripts/lib/deps.sh
  source "$(dirname "$0")/lib/deps.sh"
  status=0
  for exe in "$@"; do
    while read -r lib; do
      case "$lib" in /usr/lib/* | /System/*) continue ;; esac
      real="$(readlink -f "$lib" 2>/dev/null || echo "$lib")"
      formula=""
      [[ "$real" =~ /Cellar/([^/]+)/ ]] && formula="${BASH_REMATCH[1]}"
      ok=no
      for f in "${LW_BREW_RUNTIME_PACKAGES[@]}"; do [ "$formula" = "$f" ] && ok=yes; done
      if [ "$ok" = no ]; then
        echo "dist-check: $exe loads $lib, which is neither macOS's nor a formula dist/install.sh installs" >&2
        status=1
      fi
    done < <(otool -L "$exe" | awk 'NR > 1 { print $1 }')
  done
  exit "$status"
fi
max_glibc="${LW_MAX_GLIBC:-2.35}"
# glibc's own libraries; libcrypto (libssl3) and GSSAPI (libgssapi-krb5-2)
# come with libcurl4, which curl needs and which loopwright loads for HTTP
# (dist/install.sh itself runs curl); zlib is in every Ubuntu image.
allowed=(libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1 libresolv.so.2
  ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 libcrypto.so.3 libgssapi_krb5.so.2 libz.so.1)

newer() { # true when version $1 > $2
  [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -1)" = "$1" ]
}

status=0
for exe in "$@"; do
  [ -f "$exe" ] || { echo "dist-check: $exe: no such file" >&2; exit 2; }
  before="$status"
  while read -r lib; do
    ok=no
    for a in "${allowed[@]}"; do [ "$lib" = "$a" ] && ok=yes; done
    if [ "$ok" = no ]; then
      echo "dist-check: $exe needs $lib, which not every supported runner has (link it statically)" >&2
      status=1
    fi
  done < <(objdump -p "$exe" | awk '$1 == "NEEDED" { print $2 }')
  need="$(objdump -T "$exe" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1 || true)"
  if [ -n "$need" ] && newer "$need" "$max_glibc"; then
    syms="$(objdump -T "$exe" | awk -v v="GLIBC_$need" '$0 ~ "\\(" v "\\)" { print $NF }' | sort -u | tr '\n' ' ')"
    echo "dist-check: $exe needs glibc $need (for ${syms% }); the oldest supported runner has $max_glibc" >&2
    status=1
  fi
  if [ "$status" = "$before" ]; then
    echo "dist-check: $exe: portable (glibc ${need:-not linked}; shared:$(objdump -p "$exe" | awk '$1 == "NEEDED" { printf " %s", $2 }'))"
  fi
done
exit "$status"
