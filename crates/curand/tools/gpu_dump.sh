#!/usr/bin/env bash
# Run on a machine with an NVIDIA GPU, NVIDIA's toolkit and libcurand: records NVIDIA
# cuRAND's outputs as gpu_dump.cu describes, plus Joe and Kuo's direction numbers as
# SciPy ships them (joe_kuo.txt), packed into $OUT/ref.tar.gz.part-* (15 MB pieces; join
# with cat). crates/curand/tools/extract_ref.py turns them into tests/data.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-$PWD/curand-out}"
work=/tmp/curand-ref
mkdir -p "$out" "$work"
{ nvidia-smi -L; nvcc --version | tail -n 2; } >"$work/machine.txt" 2>&1 || true
nvcc -O2 -arch=sm_90 -o /tmp/gpu_dump "$here/gpu_dump.cu" -lcurand
( time /tmp/gpu_dump "$work" ) 2>&1 | tee "$work/run.log"
python3 - "$work/joe_kuo.txt" <<'PY' || echo "no scipy: joe_kuo.txt not written"
import sys, os, numpy as np, scipy.stats
p = os.path.join(os.path.dirname(scipy.stats.__file__), "_sobol_direction_numbers.npz")
d = np.load(p)
poly, vinit = d["poly"], d["vinit"]
with open(sys.argv[1], "w") as f:
    for i in range(len(poly)):
        f.write(" ".join(str(int(x)) for x in [poly[i]] + list(vinit[i])) + "\n")
PY
ls -la "$work"
tar -C "$work" -czf - . | split -b 15M - "$out/ref.tar.gz.part-"
ls -la "$out"
