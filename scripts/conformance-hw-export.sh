#!/usr/bin/env bash
# Prepare the hardware check of the PTX conformance suite: export every case into
# crates/ptx-conformance/export (git-ignored), check the PTX with ptxas when one is at
# hand, and compress the data. Arguments name families to export (all when none), e.g.
# `scripts/conformance-hw-export.sh video int-arith`. Then run on an NVIDIA machine, from
# the repository root
# (the export directory travels as an ignored path, e.g. the device tool's `carry`):
#   cd crates/ptx-conformance && python3 hw/check.py export OUT_DIR
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIR=crates/ptx-conformance/export
rm -rf "$DIR"
cargo run --release -q -p ptx-conformance -- export "$DIR" "$@"
PTXAS="$(command -v ptxas || ls .venv/lib/python3*/site-packages/nvidia/cu*/bin/ptxas 2>/dev/null | head -1 || true)"
if [ -n "$PTXAS" ]; then
  for f in "$DIR"/m*.ptx; do "$PTXAS" -arch=sm_90 "$f" -o /dev/null; done
  echo "ptxas accepted every module"
fi
xz -T2 -6 "$DIR/data.bin"
du -sh "$DIR"
