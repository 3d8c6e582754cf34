#!/usr/bin/env bash
# Run the ctests that load libcudart dynamically (variants shared-* and cu12-*, built by
# scripts/build-ctests.sh) with OUR libcudart (crate cudart-abi) over our libcuda.so.1,
# both from CUDA_DRIVER_DIR, instead of NVIDIA's cudart from the wheels.  Ends with
# run-ctests' "N passed, M failed" line; exits non-zero if anything failed.
#
# usage: scripts/run-ctests-own-cudart.sh [CUDA_DRIVER_DIR]   (default target/release)
# environment: CTEST_TIMEOUT, CTEST_NAMES, CTEST_VARIANTS as for run-ctests.sh.
#
# Before running, it proves which libraries a program loads: for one program of each
# variant, ld.so's own trace (LD_DEBUG=libs) must show libcudart.so.1x and libcuda.so.1
# initialized from CUDA_DRIVER_DIR, and NVIDIA's cudart from the wheels not at all.
# Logs: build/cudart-tests/logs/<variant>/<test>.log
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/ctest-common.sh
source scripts/ctest-common.sh

driver_dir="${1:-${CUDA_DRIVER_DIR:-target/release}}"
case "$driver_dir" in
  /*) ;;
  *) driver_dir="$ROOT/$driver_dir" ;;
esac
driver_dir="$(cd "$driver_dir" && pwd -P)"
for lib in libcuda.so.1 libcudart.so.13 libcudart.so.12; do
  if [ ! -e "$driver_dir/$lib" ]; then
    echo "run-ctests-own-cudart: $driver_dir/$lib not found (run scripts/build.sh)" >&2
    exit 2
  fi
done

variants=()
if [ -n "${CTEST_VARIANTS:-}" ]; then
  read -r -a variants <<<"$CTEST_VARIANTS"
else
  for v in "${CTEST_ALL_VARIANTS[@]}"; do
    [ "$(ctest_variant_cudart "$v")" = static ] || variants+=("$v")
  done
fi

# Which libraries does a program really load? ld.so says, as it runs each initializer.
proof_failed=0
for v in "${variants[@]}"; do
  dir="$CTEST_BUILD_DIR/$v"
  [ -d "$dir" ] || continue
  bin="$(find "$dir" -maxdepth 1 -type f -perm -u+x ! -name '*.tmp' | sort | head -n1)"
  [ -n "$bin" ] || continue
  want="libcudart.so.$(ctest_variant_cudart "$v")"
  trace="$(env ${CTEST_PRELOAD:+LD_PRELOAD="$CTEST_PRELOAD"} LD_LIBRARY_PATH="$driver_dir" LD_DEBUG=libs timeout -k 10 120 "$bin" 2>&1 >/dev/null </dev/null)"
  inits="$(sed -n 's/.*calling init: //p' <<<"$trace" | sort -u)"
  cudart_from="$(grep "/$want\$" <<<"$inits" || true)"
  driver_from="$(grep '/libcuda\.so\.1$' <<<"$inits" || true)"
  if [ "$cudart_from" = "$driver_dir/$want" ] && [ "$driver_from" = "$driver_dir/libcuda.so.1" ] &&
    ! grep -q 'site-packages/nvidia' <<<"$inits"; then
    echo "loaded by $v/$(basename "$bin"): $cudart_from, $driver_from"
  else
    echo "run-ctests-own-cudart: $v/$(basename "$bin") did not load our libraries; ld.so initialized:" >&2
    sed 's/^/    /' <<<"$inits" >&2
    proof_failed=1
  fi
done
[ "$proof_failed" = 0 ] || exit 1

CTEST_CUDART=ours CTEST_VARIANTS="${variants[*]}" CTEST_LOG_DIR="${CTEST_LOG_DIR:-build/cudart-tests/logs}" \
  exec scripts/run-ctests.sh "$driver_dir"
