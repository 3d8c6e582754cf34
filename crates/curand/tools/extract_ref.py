"""Turns gpu_dump.cu's record files into the small text files of crates/curand/tests/data.

usage: extract_ref.py DUMP_DIR OUT_DIR

Each output line is one window of one record:
  <name> status=<s> esize=<bytes> count=<n> at=<index> <hex values...>
(a record that failed has one line without values). Values are the raw bit patterns of
the results (floats and doubles as their IEEE bits).
"""
import os
import sys

import refdump

FILES = ["xorwow", "mrg32k3a", "mtgp32", "mt19937", "philox", "quasi", "device"]


def windows(name, count):
    if count <= 48:
        return [(0, count)]
    w = [(0, 12)]
    for at in (4096, 8192, 65536, 81920):
        if at + 8 <= count:
            w.append((at - 3, 6))
    w.append((count - 4, 4))
    if "sample-at" in name or "/seq-" in name:
        w = [(0, 8)]
    if name.startswith("dev:sobol32/scrambled=0"):
        w = [(0, count)]
    elif name.startswith("dev:"):
        w = [(0, 32)]
    return w


def main():
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    for f in FILES:
        recs = refdump.read(os.path.join(src, f + ".bin"))
        with open(os.path.join(dst, f + ".txt"), "w") as out:
            for name, (st, es, n, b) in recs.items():
                if st != 0 or n == 0:
                    out.write(f"{name} status={st} esize={es} count={n}\n")
                    continue
                for at, k in windows(name, n):
                    vals = [int.from_bytes(b[(at + i) * es:(at + i + 1) * es], "little") for i in range(k)]
                    out.write(f"{name} status={st} esize={es} count={n} at={at} " + " ".join(f"{v:x}" for v in vals) + "\n")
    with open(os.path.join(src, "info.txt")) as i, open(os.path.join(dst, "info.txt"), "w") as o:
        o.write(i.read())
        o.write(open(os.path.join(src, "machine.txt")).read())


if __name__ == "__main__":
    main()
