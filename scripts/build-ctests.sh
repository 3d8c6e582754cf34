#!/usr/bin/env bash
# Build the CUDA test programs in ctests/ with the CUDA 13 nvcc from the PyPI
# wheels, into build/ctests/<variant>/<test> (variants: scripts/ctest-common.sh).
#
# usage: scripts/build-ctests.sh [-v VARIANT]... [-j JOBS] [TEST]...
#   -v VARIANT   build only this variant (repeatable; default: all)
#   -j JOBS      parallel nvcc jobs (default: number of CPUs)
#   TEST         build only these tests (names without .cu; default: all)
# environment: CTEST_BUILD_DIR (default build/ctests), see ctest-common.sh
#
# A program is rebuilt only when it is missing, older than its source,
# ctests/*.h or ctests/rdc/*, or its recorded nvcc command line differs.  Each fresh build is
# checked: SASS/PTX contents of the fatbinary (cuobjdump) and which
# libcudart it needs (readelf).  Needs scripts/bootstrap.sh to have run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/cuda-env.sh
source scripts/cuda-env.sh
# shellcheck source=scripts/ctest-common.sh
source scripts/ctest-common.sh

variants=()
tests=()
jobs="$(nproc 2>/dev/null || echo 2)"
while [ $# -gt 0 ]; do
  case "$1" in
    -v) variants+=("$2"); shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "build-ctests.sh: unknown option $1" >&2; exit 2 ;;
    *) tests+=("${1%.cu}"); shift ;;
  esac
done
[ ${#variants[@]} -gt 0 ] || variants=("${CTEST_ALL_VARIANTS[@]}")
if [ ${#tests[@]} -eq 0 ]; then
  for f in ctests/*.cu; do tests+=("$(basename "$f" .cu)"); done
fi
for v in "${variants[@]}"; do ctest_variant_flags "$v" >/dev/null; done
for t in "${tests[@]}"; do
  [ -f "ctests/$t.cu" ] || { echo "build-ctests.sh: no such test: ctests/$t.cu" >&2; exit 2; }
done

nvcc_version="$("$NVCC" --version | tail -n1)"

# CUDA 12's runtime under the name the linker looks for with -cudart shared (the
# cu12 variants of -rdc=true tests, see ctest_variant_flags).
mkdir -p build/cuda12-link
ln -sfn "${CUDA12_CUDART_DIR:?CUDA12_CUDART_DIR not set}/libcudart.so.12" build/cuda12-link/libcudart.so

# check_binary VARIANT TEST FILE: inspect a fresh build; prints problems.
check_binary() {
  local v="$1" t="$2" f="$3" elf ptx needed all=()
  # -rdc=true keeps each unit's fatbin (PTX included) in __nv_relfatbin, which
  # cuobjdump lists only with -all; a PTX-only build also links the device
  # runtime library's fatbin, with SASS for every architecture, so SASS is not
  # checked there.
  if ctest_test_flags "$t" | grep -qx -- -rdc=true; then all=(-all); fi
  if [ -x "$CUOBJDUMP" ]; then
    elf="$("$CUOBJDUMP" "${all[@]}" -lelf "$f" 2>/dev/null || true)"
    ptx="$("$CUOBJDUMP" "${all[@]}" -lptx "$f" 2>/dev/null || true)"
    if ! grep -q 'sm_80\.ptx' <<<"$ptx"; then
      echo "$v/$t: no compute_80 PTX in the fatbinary"
    fi
    if ctest_variant_has_sass "$v"; then
      grep -q 'sm_80\.cubin' <<<"$elf" || echo "$v/$t: no sm_80 SASS in the fatbinary"
    elif [ ${#all[@]} -eq 0 ]; then
      [ -z "$elf" ] || echo "$v/$t: unexpected SASS in a PTX-only build: $elf"
    fi
  fi
  needed="$(readelf -dW "$f" | sed -n 's/.*Shared library: \[\(libcudart[^]]*\)\].*/\1/p')"
  case "$(ctest_variant_cudart "$v")" in
    static) [ -z "$needed" ] || echo "$v/$t: static build needs $needed" ;;
    13) [ "$needed" = libcudart.so.13 ] || echo "$v/$t: needs '$needed', want libcudart.so.13" ;;
    12) [ "$needed" = libcudart.so.12 ] || echo "$v/$t: needs '$needed', want libcudart.so.12" ;;
  esac
}

# build_one VARIANT TEST: (re)build if needed.  Exit status 0 = up to date or
# built, 1 = failed.  Prints "built ..." for fresh builds.
build_one() {
  local v="$1" t="$2"
  local dir="$CTEST_BUILD_DIR/$v" src="ctests/$t.cu"
  local out="$dir/$t" stamp="$dir/.$t.cmd" log="$dir/.$t.log"
  local -a flags extra cmd
  mapfile -t flags < <(ctest_variant_flags "$v" "$t")
  mapfile -t extra < <(ctest_test_flags "$t")
  cmd=("$NVCC" "${CTEST_COMMON_FLAGS[@]}" "${flags[@]}" "${extra[@]}" "$src" -o "$out.tmp")
  local want_stamp
  want_stamp="$(printf '%s\n' "$nvcc_version" "${cmd[@]}")"
  if [ -x "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ]; then
    local stale=0 dep
    for dep in "$src" ctests/*.h ctests/rdc/*; do
      [ "$dep" -nt "$out" ] && stale=1
    done
    [ "$stale" = 0 ] && return 0
  fi
  mkdir -p "$dir"
  rm -f "$out" "$stamp"
  if ! "${cmd[@]}" >"$log" 2>&1; then
    echo "FAILED to build $v/$t:"
    sed 's/^/    /' "$log"
    return 1
  fi
  local problems
  problems="$(check_binary "$v" "$t" "$out.tmp")"
  if [ -n "$problems" ]; then
    echo "FAILED check of $v/$t:"
    sed 's/^/    /' <<<"$problems"
    return 1
  fi
  if [ -s "$log" ]; then
    echo "warnings building $v/$t:"
    sed 's/^/    /' "$log"
  fi
  mv -f "$out.tmp" "$out"
  printf '%s\n' "$want_stamp" >"$stamp"
  echo "built $v/$t"
}

failed=0
total=0
running=0
for v in "${variants[@]}"; do
  for t in "${tests[@]}"; do
    ctest_variant_skips "$v" "$t" && continue
    total=$((total + 1))
    build_one "$v" "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
      wait -n || failed=$((failed + 1))
      running=$((running - 1))
    fi
  done
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=$((failed + 1))
  running=$((running - 1))
done

if [ "$failed" -ne 0 ]; then
  echo "build-ctests: $failed of $total builds failed" >&2
  exit 1
fi
echo "build-ctests: $total programs up to date in $CTEST_BUILD_DIR ($nvcc_version)"
