#!/usr/bin/env bash
# Build every ctests/*.cu with OUR nvcc (build/toolkit/bin/nvcc, crate nvcc: clang 19's CUDA
# passes, our headers, our libcudart) and run it on our libcuda.so.1 (CPU device), with no
# NVIDIA package in the environment: PATH is the system's, CUDA_HOME/CUDA_PATH unset,
# LD_LIBRARY_PATH only the driver directory (where libcuda.so.1 stands in for the system
# driver). One line per test, then "N passed, M failed, K skipped"; exits non-zero if
# anything failed.
#
# usage: scripts/run-ctests-own-nvcc.sh [DRIVER_DIR]   (default target/release)
# environment: CTEST_NAMES (tests to run), CTEST_TIMEOUT (seconds, default 120)
# Logs and programs: build/own-nvcc/<test>{,.build.log,.log}
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/ctest-common.sh
source scripts/ctest-common.sh

driver_dir="$(cd "${1:-${CUDA_DRIVER_DIR:-target/release}}" && pwd -P)"
nvcc="$ROOT/build/toolkit/bin/nvcc"
out="$ROOT/build/own-nvcc"
timeout_s="${CTEST_TIMEOUT:-120}"
[ -x "$nvcc" ] || { echo "run-ctests-own-nvcc: $nvcc not found (run scripts/build.sh)" >&2; exit 2; }
mkdir -p "$out"

# What our nvcc does not compile yet, with the reason (ARCHITECTURE.md, "nvcc").
declare -A unsupported=()

tests=()
if [ -n "${CTEST_NAMES:-}" ]; then
  read -r -a tests <<<"$CTEST_NAMES"
else
  for f in ctests/*.cu; do tests+=("$(basename "$f" .cu)"); done
fi

clean_env=(env -i "PATH=/usr/bin:/bin" "HOME=${HOME:-/tmp}" "TMPDIR=${TMPDIR:-/tmp}" "LANG=C.UTF-8")
build_one() {
  local t="$1"
  local extra
  mapfile -t extra < <(ctest_test_flags "$t")
  "${clean_env[@]}" "$nvcc" "${CTEST_COMMON_FLAGS[@]}" -gencode "$CTEST_GENCODE_SASS_PTX" "${extra[@]}" "ctests/$t.cu" -o "$out/$t" \
    >"$out/$t.build.log" 2>&1
}

passed=0 failed=0 skipped=0
pids=()
for t in "${tests[@]}"; do
  [ -n "${unsupported[$t]:-}" ] && continue
  rm -f "$out/$t"
  build_one "$t" &
  pids+=($!)
  if [ "${#pids[@]}" -ge "$(nproc)" ]; then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
wait

for t in "${tests[@]}"; do
  if [ -n "${unsupported[$t]:-}" ]; then
    echo "SKIP own-nvcc/$t (${unsupported[$t]})"
    skipped=$((skipped + 1))
    continue
  fi
  if [ ! -x "$out/$t" ]; then
    echo "FAIL own-nvcc/$t (build; log $out/$t.build.log)"
    sed 's/^/    /' "$out/$t.build.log" | head -n 20
    failed=$((failed + 1))
    continue
  fi
  # The program must carry our runtime (nvcc's default -cudart static: our
  # libcudart_static.a) or take our libcudart.so, nothing of NVIDIA's.
  cudart="$("${clean_env[@]}" "LD_LIBRARY_PATH=$driver_dir" ldd "$out/$t" | sed -n 's/.*libcudart[^ ]* => \([^ ]*\).*/\1/p')"
  if [ -z "$cudart" ]; then
    if ! nm "$out/$t" 2>/dev/null | grep ' T __cudaRegisterFatBinary$' >/dev/null; then
      echo "FAIL own-nvcc/$t (neither links a libcudart nor carries one)"
      failed=$((failed + 1))
      continue
    fi
  elif [ "$(cd "$(dirname "$cudart")" 2>/dev/null && pwd -P)" != "$driver_dir" ]; then
    echo "FAIL own-nvcc/$t (loads libcudart from '$cudart', not $driver_dir)"
    failed=$((failed + 1))
    continue
  fi
  start=$(date +%s%N)
  if (cd "$out" && "${clean_env[@]}" "LD_LIBRARY_PATH=$driver_dir" timeout "$timeout_s" "./$t") >"$out/$t.log" 2>&1; then
    ms=$((($(date +%s%N) - start) / 1000000))
    printf 'PASS own-nvcc/%s (%d.%01ds)\n' "$t" $((ms / 1000)) $((ms % 1000 / 100))
    passed=$((passed + 1))
  else
    echo "FAIL own-nvcc/$t (log $out/$t.log)"
    tail -n 5 "$out/$t.log" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
