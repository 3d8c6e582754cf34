#!/usr/bin/env bash
# Valgrind's leak check of the leak harness (crates/nvrtc-abi/tests/leaks.rs: modules
# compiled and loaded, contexts, streams, events, libraries, link states and NVRTC
# programs created and destroyed, here with small counts) and, when it has been built
# (scripts/build-ctests.sh -v static-ptx vector_add), of an nvcc-built one-kernel program
# on our libcuda.so.1. Fails unless every run passes and ends with
# "definitely lost: 0 bytes".
#
# usage: scripts/valgrind-leaks.sh
# environment:
#   LEAKS_COMPILES, LEAKS_CYCLES, LEAKS_NVRTC   the harness's counts (default 20, 50, 10)
#   VALGRIND_LEAKS_LOGS                         where the logs go (default build/valgrind-leaks)
#
# Suppressed: only the dynamic loader's reports listed (and explained) in
# scripts/valgrind-leaks.supp. What remains "possibly lost" is printed, not judged.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
LOGS="${VALGRIND_LEAKS_LOGS:-$ROOT/build/valgrind-leaks}"
command -v valgrind >/dev/null || { echo "valgrind-leaks.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
mkdir -p "$LOGS"

harness="$(cargo test --release -p nvrtc-abi --test leaks --no-run --message-format=json |
  sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n1)"
[ -x "$harness" ] || { echo "valgrind-leaks.sh: building the leak harness failed (cargo test -p nvrtc-abi --test leaks --no-run)" >&2; exit 1; }
cargo build --release -p cuda-abi
ln -sf libcuda.so "$TARGET_DIR/release/libcuda.so.1"

cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
vg=(valgrind --leak-check=full --num-callers=40 --suppressions="$ROOT/scripts/valgrind-leaks.supp")
failed=0

# check NAME LOG STATUS: the run passed and lost nothing definitely.
check() {
  local name="$1" log="$2" status="$3" summary
  summary="$(sed -n 's/^==[0-9]*== *\(definitely lost\|indirectly lost\|possibly lost\|suppressed\): /\1: /p' "$log")"
  echo "$name: exit status $status; $(tr '\n' ';' <<<"$summary" | sed 's/;$//; s/;/; /g')"
  if [ "$status" -ne 0 ]; then
    echo "  FAILED: the program failed (log: $log)"
    failed=1
  elif grep -q 'All heap blocks were freed -- no leaks are possible' "$log"; then
    :
  elif ! grep -q '^definitely lost: 0 bytes' <<<"$summary"; then
    echo "  FAILED: memory definitely lost (log: $log)"
    failed=1
  fi
}

status=0
LEAKS_UNDER_VALGRIND=1 LEAKS_COMPILES="${LEAKS_COMPILES:-20}" LEAKS_CYCLES="${LEAKS_CYCLES:-50}" LEAKS_NVRTC="${LEAKS_NVRTC:-10}" \
  "${vg[@]}" "$harness" --nocapture >"$LOGS/harness.log" 2>&1 || status=$?
check "leak harness" "$LOGS/harness.log" "$status"

program="$ROOT/build/ctests/static-ptx/vector_add"
if [ -x "$program" ]; then
  status=0
  CUDA_CACHE_PATH="$cache" LD_LIBRARY_PATH="$TARGET_DIR/release" "${vg[@]}" "$program" >"$LOGS/vector_add.log" 2>&1 || status=$?
  check "vector_add (nvcc, static cudart, PTX only)" "$LOGS/vector_add.log" "$status"
else
  echo "vector_add: skipped ($program not built: scripts/build-ctests.sh -v static-ptx vector_add)"
fi

[ "$failed" -eq 0 ] && echo "valgrind-leaks: PASS" || echo "valgrind-leaks: FAIL"
exit "$failed"
