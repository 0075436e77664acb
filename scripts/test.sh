#!/usr/bin/env bash
# Installs what is missing, builds loopwright with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs the whole test suite with ctest.
# Usage: scripts/test.sh [ctest arguments…]   (e.g. -L unit, -R bwrap)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/deps.sh
source scripts/lib/deps.sh

lw_ensure_packages "${LW_BUILD_PACKAGES[@]}" "${LW_TEST_PACKAGES[@]}"
lw_ensure_fuzz_runtime

build_dir="${LOOPWRIGHT_BUILD_DIR:-build/test}"
jobs="$(nproc)"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DLOOPWRIGHT_SANITIZE=ON -DLOOPWRIGHT_WERROR=ON >/dev/null
cmake --build "$build_dir" -j"$jobs"

# The fuzz harness needs clang's libFuzzer; it gets its own small build tree.
fuzz_status=0
if command -v clang++ >/dev/null 2>&1; then
  fuzz_dir="${build_dir}-fuzz"
  CXX=clang++ cmake -S . -B "$fuzz_dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DLOOPWRIGHT_FUZZ=ON -DLOOPWRIGHT_TESTS=OFF \
    -DLOOPWRIGHT_FUZZ_SECONDS="${LOOPWRIGHT_FUZZ_SECONDS:-60}" >/dev/null
  cmake --build "$fuzz_dir" -j"$jobs" --target fuzz_taskpack fuzz_host_config fuzz_step_outputs \
    fuzz_secret_scanner fuzz_bridge_message
else
  echo "[SKIPPED] fuzz harness: clang++ is not installed" >&2
fi

# The portable build (LOOPWRIGHT_LINUX_BACKENDS=OFF, as on macOS): a tree of
# its own, niced, with the main tree's flags so that ccache answers for every
# source the two share; its executables run the portable tests (the POSIX
# launcher, `loopwright run` end to end with direct-dedicated) and the
# example the macos-14 job runs under Seatbelt (scripts/example-e2e.sh).
portable_status=0
portable_dir="${build_dir}-portable"
nice -n 10 cmake -S . -B "$portable_dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLOOPWRIGHT_SANITIZE=ON \
  -DLOOPWRIGHT_LINUX_BACKENDS=OFF -DLOOPWRIGHT_WERROR=ON >/dev/null
nice -n 10 cmake --build "$portable_dir" -j"$jobs"

# A private Docker engine (own socket, no network, local busybox image) for
# the docker backend's tests; stopped again whatever the tests do.
if scripts/docker-test-env.sh start; then
  trap 'scripts/docker-test-env.sh stop || true' EXIT
  eval "$(scripts/docker-test-env.sh env)"
else
  echo "[SKIPPED] docker tests: the private Docker engine did not start" >&2
fi

# Node.js runs the official MCP SDK client against `loopwright bridge stdio`.
if ! command -v node >/dev/null 2>&1; then
  lw_ensure_packages nodejs npm
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" "$@" || status=$?
if [ -n "${fuzz_dir:-}" ]; then
  ctest --test-dir "$fuzz_dir" --output-on-failure -j"$jobs" -L fuzz || fuzz_status=$?
fi
ctest --test-dir "$portable_dir" --output-on-failure -j"$jobs" -L portable || portable_status=$?
scripts/example-e2e.sh "$portable_dir" direct-dedicated || portable_status=$?
for s in "${status:-0}" "$fuzz_status" "$portable_status"; do
  [ "$s" -ne 0 ] && exit "$s"
done
exit 0
