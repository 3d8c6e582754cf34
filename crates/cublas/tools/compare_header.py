#!/usr/bin/env python3
"""Compares our include/cublas_api.h with another cublas_api.h (NVIDIA's, from a wheel,
used only as a reference on a developer machine): for every function both declare,
the parameter counts and the pointer depth of each parameter must agree.

usage: crates/cublas/tools/compare_header.py PATH/TO/OTHER/cublas_api.h"""
import pathlib
import re
import sys

OURS = pathlib.Path(__file__).resolve().parents[3] / "include/cublas_api.h"


def prototypes(text):
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    out = {}
    for m in re.finditer(r"\b(cublas\w+)\s*\(([^;{}]*?)\)\s*;", text, re.S):
        params = [p.strip() for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
        out[m.group(1)] = [p.count("*") + p.count("[]") for p in params]
    return out


def main():
    ours, theirs = prototypes(OURS.read_text()), prototypes(pathlib.Path(sys.argv[1]).read_text())
    bad = 0
    for name in sorted(ours):
        if name in theirs and ours[name] != theirs[name]:
            bad += 1
            print(f"{name}: ours {ours[name]} other {theirs[name]}")
    missing = [n for n in ours if n not in theirs]
    print(f"{len(ours)} declared, {len(ours) - len(missing)} compared, {bad} differ; not in the other header: {missing}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
