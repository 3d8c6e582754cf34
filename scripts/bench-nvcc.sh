#!/usr/bin/env bash
# Compile speed: our nvcc (build/toolkit/bin/nvcc) against NVIDIA's (the wheel's, from
# scripts/cuda-env.sh), side by side in one run, on the ctests/*.cu files: each file is
# compiled to an object (-c, one PTX architecture, -O2) by both, alternating, REPS times;
# the best time of each is kept. Prints a line per file and the ratio of the totals
# (ours / NVIDIA's: below 1 means ours is faster). Run on a quiet machine.
#
# usage: scripts/bench-nvcc.sh [REPS]   (default 3)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source scripts/cuda-env.sh >/dev/null
reps="${1:-3}"
ours="$ROOT/build/toolkit/bin/nvcc"
[ -x "$ours" ] || { echo "bench-nvcc: $ours not found (run scripts/build.sh)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
flags=(-O2 -std=c++17 -gencode arch=compute_80,code=compute_80 -c)
ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1 || return 1; echo $((($(date +%s%N) - s) / 1000000)); }
best() { # best CMD...: the fastest of $reps runs, in ms
  local b=999999 t i
  for ((i = 0; i < reps; i++)); do t=$(ms "$@") || { echo fail; return; }; [ "$t" -lt "$b" ] && b=$t; done
  echo "$b"
}
total_ours=0 total_nv=0
printf '%-24s %10s %10s %7s\n' file "ours ms" "NVIDIA ms" ratio
for f in ctests/*.cu; do
  n=$(basename "$f" .cu)
  case "$n" in separate_compilation | managed_variables) continue ;; esac
  a=$(best "$ours" "${flags[@]}" "$f" -o "$tmp/o.o")
  b=$(best "$NVCC" "${flags[@]}" "$f" -o "$tmp/n.o")
  if [ "$a" = fail ] || [ "$b" = fail ]; then
    printf '%-24s %10s %10s\n' "$n" "$a" "$b"
    continue
  fi
  total_ours=$((total_ours + a)) total_nv=$((total_nv + b))
  printf '%-24s %10d %10d %7.2f\n' "$n" "$a" "$b" "$(awk "BEGIN{print $a/$b}")"
done
printf '%-24s %10d %10d %7.2f\n' TOTAL "$total_ours" "$total_nv" "$(awk "BEGIN{print $total_ours/$total_nv}")"
