#!/usr/bin/env python3
"""Check the scalar video rules of hardware-check.md ("Video family" sections) against what
an NVIDIA GPU returned, with a second implementation of those rules written here in
Python (independent of `families/video.rs` and compiler-core's `lower/video.rs`).

usage: video_rules.py EXPORT_DIR RUN_DIR [DUMP_DIR]

EXPORT_DIR: what `scripts/conformance-hw-export.sh video` wrote (inputs and expectations);
RUN_DIR: the `hw/check.py` output holding results.json; DUMP_DIR (default RUN_DIR/dump):
the `CHECK_DUMP=1` files `<case id>_x.npz` of the disagreeing cases (or `caseN.npz` with a
`names.txt` whose lines read `caseN <case id> ...`). The hardware's output of a case is
its expectation where check.py found no disagreement, else the dump's `got`. Prints, for
every scalar case (not SIMD, not vmad), how many outputs the rules below miss.
"""
import json
import lzma
import os
import re
import sys

import numpy as np

M32 = 0xFFFFFFFF


def ext(v, off, w, signed):
    x = (v >> off) & ((1 << w) - 1)
    return x - (1 << w) if signed and x >> (w - 1) else x


def part(sel):
    if not sel:
        return 0, 32
    return (8 * int(sel[1]), 8) if sel[0] == "b" else (16 * int(sel[1]), 16)


def parse(instr):
    m = re.match(r"v(\w+?)\.(\S+) %x(?:\.(\w+))?, %a(?:\.(\w+))?, %b(?:\.(\w+))?(?:, %c)?;", instr)
    op, mods, dsel, asel, bsel = m.groups()
    mods = mods.split(".")
    ty = [t == "s32" for t in mods if t in ("s32", "u32")]
    ty = [False] + ty if op == "set" else ty  # vset has no .dtype
    if op in ("shl", "shr"):
        ty[2] = False  # the shift amount is unsigned
    mode = next((x for x in mods if x in ("clamp", "wrap", "eq", "ne", "lt", "le", "gt", "ge")), "")
    secop = next((x for x in mods if x in ("add", "min", "max")), "")
    return op, ty, "sat" in mods, mode, secop, dsel or "", asel or "", bsel or ""


def primary(op, mode, a, b):
    if op in ("shl", "shr"):
        n = b & 31 if mode == "wrap" else min(b, 32)
        return a << n if op == "shl" else a >> n
    if op == "set":
        return int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[mode])
    return {"add": a + b, "sub": a - b, "absdiff": abs(a - b), "min": min(a, b), "max": max(a, b)}[op]


def clamp(t, w, signed):
    return max(-(1 << (w - 1)), min(t, (1 << (w - 1)) - 1)) if signed else max(0, min(t, (1 << w) - 1))


def scalar(form, a, b, c):
    """One scalar video instruction as the H200 computes it (rules 1-4, 7, 9, 10)."""
    op, ty, sat, mode, secop, dsel, asel, bsel = form
    (ao, aw), (bo, bw), (do, dw) = part(asel), part(bsel), part(dsel)
    t = primary(op, mode, ext(a, ao, aw, ty[1]), ext(b, bo, bw, ty[2]))
    if sat:
        if op in ("shl", "shr"):  # rules 7, 10: 34 bits, then the word's range
            t = clamp(ext(t % (1 << 34), 0, 34, True) if op == "shl" else t, 32, ty[0])
        elif dsel:  # rule 2: negative gives the field's maximum
            hi = clamp(1 << 64, dw, ty[0])
            t = hi if t < 0 else min(t, hi)
        elif not ty[0]:  # rule 1: negative gives 0, above 0xffffffff wraps
            t = 0 if t < 0 else t & M32
        else:
            t = clamp(t, 32, True)
    if secop in ("min", "max"):  # rule 9
        key = ext(t & M32, 0, 32, True) if op in ("add", "sub") else ext(t % (1 << 64), 0, 64, True)
        if ty[1] if op == "set" else ty[0]:
            key, cv = key, ext(c, 0, 32, True)
        else:
            key, cv = key % (1 << 64), c
        wins = key >= cv if secop == "max" else key <= cv
        return t & M32 if wins else c
    if secop == "add":
        return (t + c) & M32
    if dsel:  # rule 4: .h1 takes bits 16-31 in place
        fm = ((1 << dw) - 1) << do
        v = t & fm if dsel == "h1" else (t << do) & fm
        return (c & ~fm | v) & M32
    return t & M32


def main():
    export, run = sys.argv[1], sys.argv[2]
    dumps = sys.argv[3] if len(sys.argv) > 3 else os.path.join(run, "dump")
    manifest = json.load(open(os.path.join(export, "manifest.json")))
    path = os.path.join(export, "data.bin")
    raw = open(path, "rb").read() if os.path.exists(path) else lzma.open(path + ".xz").read()
    status = {r["id"]: r["status"] for r in json.load(open(os.path.join(run, "results.json")))["results"]}
    renamed = {}
    if os.path.exists(os.path.join(dumps, "names.txt")):
        for line in open(os.path.join(dumps, "names.txt")):
            w = line.split()
            if len(w) > 1 and w[0].startswith("case"):
                renamed[w[1]] = os.path.join(dumps, w[0] + ".npz")

    def arr(spec):
        off, n, width = spec
        return np.frombuffer(raw[off:off + n * width], dtype=np.uint32)

    total = missed = 0
    for case in manifest["cases"]:
        name = case["instruction"].split()[0].split(".")[0]
        if name[-1] in "24" or name == "vmad" or case["id"] not in status:
            continue
        ins = [arr(i["data"]) for i in case["inputs"]]
        hw = arr(case["outputs"][0]["data"])
        if status[case["id"]] != "pass":
            f = renamed.get(case["id"], os.path.join(dumps, case["id"] + "_x.npz"))
            if not os.path.exists(f):
                print(f"{case['id']}: disagreed, no dump")
                continue
            hw = np.load(f)["got"]
        form = parse(case["instruction"])
        c = ins[2] if len(ins) > 2 else np.zeros_like(ins[0])
        bad = sum(scalar(form, int(x), int(y), int(z)) != int(h) for x, y, z, h in zip(ins[0], ins[1], c, hw))
        total += len(hw)
        missed += bad
        if bad:
            print(f"{case['id']}: the rules miss {bad} of {len(hw)} outputs")
    print(f"scalar video cases: the rules miss {missed} of {total} hardware outputs")


if __name__ == "__main__":
    main()
