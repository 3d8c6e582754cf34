#!/usr/bin/env bash
# Run every built ctest (build/ctests/<variant>/<test>, see build-ctests.sh)
# against our libcuda.so.1, one line per (variant, test), then a final line
# "N passed, M failed".  Exits non-zero if anything failed or nothing ran.
#
# usage: scripts/run-ctests.sh [CUDA_DRIVER_DIR]
#   CUDA_DRIVER_DIR  directory holding the libcuda.so.1 to test (argument or
#                    environment variable; default: target/release)
# environment:
#   CTEST_TIMEOUT    seconds per program (default 120)
#   CTEST_VARIANTS   space-separated variants to run (default: all built)
#   CTEST_NAMES      space-separated tests to run (default: all built)
#   CTEST_SKIP       space-separated tests not to run
#   CUDA13_CUDART_DIR, CUDA12_CUDART_DIR
#                    where libcudart.so.13 / libcudart.so.12 are (default:
#                    from scripts/cuda-env.sh, i.e. the .venv wheels)
#   CTEST_CUDART     "nvidia" (default) or "ours": with "ours", the programs that load
#                    libcudart dynamically (shared-*, cu12-*) get ours, from
#                    CUDA_DRIVER_DIR (crate cudart-abi), instead of NVIDIA's; the
#                    static variants (NVIDIA's cudart linked in) and the Python
#                    programs are skipped. See scripts/run-ctests-own-cudart.sh.
#   CTEST_LOG_DIR    where logs go (default build/ctests-logs)
#   CTEST_BUILD_DIR  where the programs are (default build/ctests)
#   CTEST_PRELOAD    a library to preload into each program (LD_PRELOAD), e.g. the
#                    sanitizer runtime that an instrumented libcuda.so.1 needs
#                    (scripts/sanitizers.sh)
#
# Each program runs with LD_LIBRARY_PATH=CUDA_DRIVER_DIR, so NVIDIA's cudart
# (static, or the shared libcudart.so.13 / libcudart.so.12, placed before it
# on the path) loads our libcuda.so.1.  Logs: build/ctests-logs/<variant>/<test>.log
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/ctest-common.sh
source scripts/ctest-common.sh

driver_dir="${1:-${CUDA_DRIVER_DIR:-target/release}}"
timeout_s="${CTEST_TIMEOUT:-120}"
cudart="${CTEST_CUDART:-nvidia}"
log_root="${CTEST_LOG_DIR:-build/ctests-logs}"
case "$cudart" in
  nvidia | ours) ;;
  *) echo "run-ctests: CTEST_CUDART must be nvidia or ours, not '$cudart'" >&2; exit 2 ;;
esac
case "$driver_dir" in
  /*) ;;
  *) driver_dir="$ROOT/$driver_dir" ;;
esac
if [ ! -e "$driver_dir/libcuda.so.1" ]; then
  echo "run-ctests: $driver_dir/libcuda.so.1 not found (build it with 'cargo build --release', or pass the directory holding libcuda.so.1)" >&2
  exit 2
fi

if [ -z "${CUDA13_CUDART_DIR:-}" ] || [ -z "${CUDA12_CUDART_DIR:-}" ]; then
  # shellcheck source=scripts/cuda-env.sh
  source scripts/cuda-env.sh || exit 2
fi

if [ -n "${CTEST_VARIANTS:-}" ]; then
  read -r -a variants <<<"$CTEST_VARIANTS"
else
  variants=("${CTEST_ALL_VARIANTS[@]}")
fi

# NVIDIA's runtimes are searched before CUDA_DRIVER_DIR, which also holds our
# libcudart.so.13/.12 (scripts/build.sh) that would otherwise win. CUDA 12's directory
# holds only the runtime (and CuPy finds the headers next to it); CUDA 13's also holds
# NVIDIA's NVRTC, so its runtime gets a directory of its own.
nvidia13="$ROOT/build/cudart-tests/nvidia-cudart-13"
mkdir -p "$nvidia13"
ln -sfn "$CUDA13_CUDART_DIR/libcudart.so.13" "$nvidia13/libcudart.so.13"

passed=0
failed=0
echo "run-ctests: libcuda.so.1 from $driver_dir, ${cudart} libcudart, timeout ${timeout_s}s"
for v in "${variants[@]}"; do
  dir="$CTEST_BUILD_DIR/$v"
  [ -d "$dir" ] || continue
  case "$cudart:$(ctest_variant_cudart "$v")" in
    nvidia:static) libpath="$driver_dir" ;;
    nvidia:13) libpath="$nvidia13:$driver_dir:$CUDA13_CUDART_DIR" ;;
    nvidia:12) libpath="$CUDA12_CUDART_DIR:$driver_dir" ;;
    # Ours: libcudart.so.13 / libcudart.so.12 (links to one library) next to libcuda.so.1.
    ours:13 | ours:12) libpath="$driver_dir" ;;
    ours:static) continue ;;
    *) echo "run-ctests: unknown variant directory $dir" >&2; continue ;;
  esac
  logdir="$log_root/$v"
  mkdir -p "$logdir"
  for bin in "$dir"/*; do
    [ -f "$bin" ] && [ -x "$bin" ] || continue
    case "$bin" in *.tmp) continue ;; esac
    t="$(basename "$bin")"
    if [ -n "${CTEST_NAMES:-}" ] && [[ " $CTEST_NAMES " != *" $t "* ]]; then
      continue
    fi
    [[ " ${CTEST_SKIP:-} " == *" $t "* ]] && continue
    log="$logdir/$t.log"
    start=$(date +%s.%N)
    env ${CTEST_PRELOAD:+LD_PRELOAD="$CTEST_PRELOAD"} LD_LIBRARY_PATH="$libpath" \
      timeout -k 10 "$timeout_s" "$bin" >"$log" 2>&1 </dev/null
    rc=$?
    secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    if [ "$rc" -eq 0 ] && grep -qx "PASS $t" "$log"; then
      passed=$((passed + 1))
      echo "PASS $v/$t (${secs}s)"
    else
      failed=$((failed + 1))
      why="exit $rc"
      [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && why="timed out after ${timeout_s}s"
      [ "$rc" -eq 0 ] && why="exit 0 without 'PASS $t'"
      [ "$rc" -gt 128 ] && [ "$rc" -ne 137 ] && why="killed by signal $((rc - 128))"
      echo "FAIL $v/$t ($why, ${secs}s; log $log)"
      tail -n 8 "$log" | sed 's/^/    | /'
    fi
  done
done

# Python programs (ctests/python): real NVRTC clients (CuPy, from .venv-clients) and ctypes
# checks of driver calls against codes NVIDIA's driver returned, on our stack alone: our
# libcuda.so.1, libcudart.so.12, libnvrtc.so.12 and math libraries (the driver directory),
# and our headers (CUDA_PATH is this checkout, whose include/ CuPy adds to its compiles;
# without it CuPy would derive a toolkit root from the loaded libcudart's path, which
# for NVIDIA's wheel means NVIDIA's headers). A fresh kernel cache each run, so
# every kernel goes through our NVRTC. CuPy's default accelerators stay on: its CUB module
# (22 MB of PTX, for compute_100 only) loads lazily, a kernel at a time.
if [ -z "${CTEST_VARIANTS:-}" ] && [ "$cudart" = nvidia ] && [ -x .venv-clients/bin/python ]; then
  logdir="$log_root/python"
  mkdir -p "$logdir"
  for py in ctests/python/*.py; do
    [ -f "$py" ] || continue
    t="$(basename "$py" .py)"
    if [ -n "${CTEST_NAMES:-}" ] && [[ " $CTEST_NAMES " != *" $t "* ]]; then
      continue
    fi
    log="$logdir/$t.log"
    cache="build/ctests-python-cache/$t"
    rm -rf "$cache"
    mkdir -p "$cache"
    start=$(date +%s.%N)
    # Without NVIDIA's toolkit on PATH (cuda-env.sh put nvcc there) or in the environment.
    env -u CUDA_HOME CUDA_PATH="$ROOT" PATH=/usr/bin:/bin ${CTEST_PRELOAD:+LD_PRELOAD="$CTEST_PRELOAD"} \
      LD_LIBRARY_PATH="$driver_dir" CUPY_CACHE_DIR="$ROOT/$cache" \
      timeout -k 10 "$timeout_s" .venv-clients/bin/python "$py" >"$log" 2>&1 </dev/null
    rc=$?
    secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
    if [ "$rc" -eq 0 ] && grep -qx "PASS $t" "$log"; then
      passed=$((passed + 1))
      echo "PASS python/$t (${secs}s)"
    else
      failed=$((failed + 1))
      echo "FAIL python/$t (exit $rc, ${secs}s; log $log)"
      tail -n 12 "$log" | sed 's/^/    | /'
    fi
  done
fi

if [ $((passed + failed)) -eq 0 ]; then
  echo "run-ctests: no ctests found under $CTEST_BUILD_DIR (run scripts/build-ctests.sh)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
