#!/usr/bin/env bash
# A private Docker engine for loopwright's docker tests: its own socket, data
# root and exec root, no iptables and no bridge (so no container can reach any
# network), and a busybox image imported from a local tarball (no registry is
# reachable from CI). Idempotent.
#
# Usage: scripts/docker-test-env.sh start   # install if missing, start, import the image
#        scripts/docker-test-env.sh env     # print the exports the tests read
#        scripts/docker-test-env.sh stop    # stop the daemon (by its pidfile)
#        scripts/docker-test-env.sh runtime-image BINARY
#                                           # an image where BINARY's shared libraries
#                                           # exist; prints its ID (sha256:…)
#
# The tests read DOCKER_HOST and LOOPWRIGHT_TEST_DOCKER_IMAGE (a local image
# ID, sha256:<64 hex>): eval "$(scripts/docker-test-env.sh env)".
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

run_dir="${LW_DOCKER_RUN_DIR:-/run/loopwright-test}"
data_root="${LW_DOCKER_DATA_ROOT:-/var/lib/loopwright-test-docker}"
socket="$run_dir/docker.sock"
pidfile="$run_dir/dockerd.pid"
log="$run_dir/dockerd.log"
image_tag="loopwright-test/busybox:local"
# dockerd and containerd are not fast to start on a busy 2-core machine.
start_timeout="${LW_DOCKER_START_TIMEOUT:-60}"

say() { echo "docker-test-env: $*" >&2; }

docker_cli() { lw_sudo docker --host "unix://$socket" "$@"; }

pinging() {
  [ -S "$socket" ] || return 1
  if command -v curl >/dev/null 2>&1; then
    [ "$(lw_sudo curl -s --max-time 2 --unix-socket "$socket" http://docker/_ping 2>/dev/null)" = "OK" ]
  else
    docker_cli version >/dev/null 2>&1
  fi
}

daemon_pid() {
  [ -f "$pidfile" ] || return 1
  local pid
  pid="$(lw_sudo cat "$pidfile" 2>/dev/null)" || return 1
  [ -n "$pid" ] && lw_sudo kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# Starts dockerd with the given extra arguments; true once it answers /_ping.
# Its seccomp profile allows every system call: loopwright's container init
# installs loopwright's own filter whatever the engine's profile is, and with
# the engine's default profile underneath, a blocked escape in the tests could
# not say which of the two filters blocked it.
launch_daemon() {
  lw_sudo mkdir -p "$run_dir/exec" "$data_root"
  lw_sudo rm -f "$socket"
  echo '{"defaultAction": "SCMP_ACT_ALLOW"}' | lw_sudo tee "$run_dir/seccomp-allow-all.json" >/dev/null
  # setsid + nohup: the daemon must outlive this script (and its session).
  lw_sudo setsid nohup dockerd \
    --host "unix://$socket" \
    --data-root "$data_root" \
    --exec-root "$run_dir/exec" \
    --pidfile "$pidfile" \
    --iptables=false --ip6tables=false --bridge=none \
    --seccomp-profile "$run_dir/seccomp-allow-all.json" \
    "$@" </dev/null >>"$log" 2>&1 &
  local waited=0
  while [ "$waited" -lt "$start_timeout" ]; do
    if pinging; then return 0; fi
    sleep 1
    waited=$((waited + 1))
  done
  return 1
}

stop_daemon() {
  local pid waited=0
  if pid="$(daemon_pid)"; then
    lw_sudo kill -TERM "$pid"
    while lw_sudo kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 30 ]; do
      sleep 1
      waited=$((waited + 1))
    done
    if lw_sudo kill -0 "$pid" 2>/dev/null; then
      say "dockerd ($pid) did not stop in 30 s; killing it"
      lw_sudo kill -KILL "$pid" || true
    fi
  fi
  # dockerd stops the containerd it started; a SIGKILLed one cannot.
  local cpidfile="$run_dir/exec/containerd/containerd.pid"
  if [ -f "$cpidfile" ]; then
    pid="$(lw_sudo cat "$cpidfile" 2>/dev/null || true)"
    if [ -n "$pid" ] && lw_sudo kill -0 "$pid" 2>/dev/null; then lw_sudo kill -TERM "$pid" || true; fi
  fi
  lw_sudo rm -f "$pidfile" "$socket"
}

# A minimal root filesystem: static busybox, one symlink per applet, a
# nobody user and a world-writable /tmp.
build_rootfs_tar() {
  local out="$1" root busybox
  busybox="$(command -v busybox || true)"
  [ -n "$busybox" ] || busybox=/bin/busybox
  if ! file -L "$busybox" 2>/dev/null | grep -q 'statically linked'; then
    if ldd "$busybox" >/dev/null 2>&1; then
      say "$busybox is dynamically linked; install busybox-static"
      return 1
    fi
  fi
  root="$(mktemp -d)"
  mkdir -p "$root/bin" "$root/etc" "$root/tmp"
  cp "$busybox" "$root/bin/busybox"
  local applet
  for applet in $("$busybox" --list); do
    [ "$applet" = busybox ] || ln -sf busybox "$root/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
  chmod 1777 "$root/tmp"
  tar -C "$root" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf "$out" .
  rm -rf "$root"
}

ensure_image() {
  if docker_cli image inspect "$image_tag" >/dev/null 2>&1; then return 0; fi
  local tarball
  tarball="$(mktemp --suffix=.tar)"
  build_rootfs_tar "$tarball"
  docker_cli import "$tarball" "$image_tag" >/dev/null
  rm -f "$tarball"
  say "imported $image_tag"
}

image_id() { docker_cli image inspect --format '{{.Id}}' "$image_tag"; }

# An image in which a host-built, dynamically linked program runs: the busybox
# root plus the program's shared libraries (its ldd closure) at their host
# paths. The escape suite's hostile programs are such a binary. Tagged by a
# hash of the library list, so it is built once per set of libraries.
cmd_runtime_image() {
  local binary="$1" libs hash tag root tarball
  if [ -z "$binary" ] || [ ! -x "$binary" ]; then
    say "runtime-image needs an executable (got '${binary}')"
    exit 2
  fi
  pinging || { say "no engine on $socket: run '$0 start' first"; exit 1; }
  libs="$(ldd "$binary" | awk '/=> \// {print $3} /^[ \t]*\/.*ld-linux/ {print $1}' | sort -u)"
  hash="$(printf '%s\n' "$libs" | xargs -r sha256sum | sha256sum | cut -c1-16)"
  tag="loopwright-test/runtime:$hash"
  if ! docker_cli image inspect "$tag" >/dev/null 2>&1; then
    root="$(mktemp -d)"
    tarball="$(mktemp --suffix=.tar)"
    build_rootfs_tar "$tarball"
    tar -C "$root" -xf "$tarball"
    local lib
    for lib in $libs; do
      mkdir -p "$root$(dirname "$lib")"
      cp -L "$lib" "$root$lib"
    done
    # Debian's /lib and /lib64 are symlinks into /usr: keep the loader's path.
    [ -e /lib64 ] && [ ! -e "$root/lib64" ] && ln -s usr/lib64 "$root/lib64" 2>/dev/null || true
    tar -C "$root" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf "$tarball" .
    docker_cli import "$tarball" "$tag" >/dev/null
    rm -rf "$root" "$tarball"
    say "imported $tag ($(printf '%s\n' "$libs" | wc -l) libraries)"
  fi
  docker_cli image inspect --format '{{.Id}}' "$tag"
}

cmd_start() {
  lw_ensure_packages docker.io busybox-static file
  lw_sudo mkdir -p "$run_dir"
  if daemon_pid >/dev/null && pinging; then
    say "dockerd already running on $socket"
  else
    stop_daemon
    if ! launch_daemon; then
      # overlayfs is not available everywhere (nested overlay, some kernels):
      # the vfs driver always works, only slower and larger.
      say "dockerd did not answer with the default storage driver; retrying with vfs (log: $log)"
      stop_daemon
      if ! launch_daemon --storage-driver vfs; then
        say "dockerd did not start; last lines of $log:"
        lw_sudo tail -n 30 "$log" >&2 || true
        stop_daemon
        exit 1
      fi
    fi
    say "dockerd is up on $socket ($(docker_cli info --format '{{.Driver}}') storage driver)"
  fi
  ensure_image
}

cmd_env() {
  if ! pinging; then
    say "no engine on $socket: run '$0 start' first"
    exit 1
  fi
  echo "export DOCKER_HOST=unix://$socket"
  echo "export LOOPWRIGHT_TEST_DOCKER_IMAGE=$(image_id)"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) stop_daemon; say "stopped" ;;
  env) cmd_env ;;
  runtime-image) cmd_runtime_image "${2:-}" ;;
  *)
    echo "usage: $0 start|stop|env|runtime-image BINARY" >&2
    exit 2
    ;;
esac
