#!/usr/bin/env bash
# Fuzz the PTX parser + lowering (issue 3): `scripts/fuzz-ptx.sh [SECONDS]` (default 1800).
# The corpus is seeded from the test suite's PTX files; crashes land in
# crates/compiler-core/fuzz/artifacts/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT/crates/compiler-core/fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
mkdir -p corpus/compile_ptx
for f in ../tests/ptx/*.ptx ../../cpu-backend/tests/data/*.ptx; do
  cp -n "$f" "corpus/compile_ptx/seed-$(basename "$f")" 2>/dev/null || true
done
export LLVM_SYS_191_PREFIX=/usr/lib/llvm-19
exec cargo +nightly fuzz run compile_ptx -- -max_total_time="${1:-1800}" -max_len=65536 -rss_limit_mb=4096
