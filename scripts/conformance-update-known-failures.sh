#!/usr/bin/env bash
# Rewrite crates/ptx-conformance/known_failures.txt from a run of the conformance suite on
# the CPU device: every failing case with a one-line reason. Review the diff before
# committing: a line that disappears is a fix, a new line is a regression.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LOG="$(mktemp)"
PTX_CONFORMANCE_LIST=1 cargo test --release -p ptx-conformance --test conformance -- --nocapture >"$LOG" 2>&1 || true
python3 - "$LOG" crates/ptx-conformance/known_failures.txt <<'PY'
import re, sys
log, out = sys.argv[1], sys.argv[2]
lines = []
for l in open(log):
    if " | " not in l or not re.match(r"^\S+ \| ", l):
        continue
    cid, rest = l.rstrip("\n").split(" | ", 1)
    m = re.match(r"^\S+ \[(.*?)\]: (.*)$", rest)
    msg = m.group(2) if m else rest
    if "crashed the process" in msg:
        reason = "crash: " + re.sub(r"\s*\(in a batch of known crashes\)", "", msg.split("crashed the process: ", 1)[1])[:120]
    elif msg.startswith("does not compile"):
        reason = "does not compile: " + re.sub(r"ptx:\d+:\d+: ", "", msg[len("does not compile: "):])[:160]
    elif msg.startswith("launch failed"):
        reason = msg[:160]
    else:
        mm = re.match(r"(\d+ of \d+ outputs differ), e\.g\.\s+(.*?)(\s{3,}|$)", msg)
        reason = (mm.group(1) + "; e.g. " + mm.group(2)) if mm else msg[:200]
    lines.append(f"{cid} | {reason.strip()}")
head = [l for l in open(out) if l.startswith("#")]
open(out, "w").write("".join(head) + "\n".join(lines) + "\n")
print(f"{len(lines)} known failures written to {out}")
PY
rm -f "$LOG"
