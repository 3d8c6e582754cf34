#!/usr/bin/env python3
"""Generates the function declarations of include/cublas_api.h from the exports in
crates/cublas/src/exports/*.rs, so that the header and the library cannot drift.

usage: crates/cublas/tools/gen_header.py [--check]
Rewrites the part of include/cublas_api.h between the BEGIN/END GENERATED markers;
--check exits 1 (and says so) when the header is not up to date."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]
SRC = ROOT / "crates/cublas/src/exports"
HEADER = ROOT / "include/cublas_api.h"
V2_HEADER = ROOT / "include/cublas_v2.h"
BEGIN, END = "/* BEGIN GENERATED DECLARATIONS */", "/* END GENERATED DECLARATIONS */"

ELEM = {"f32": ("float", "float"), "f64": ("double", "double"), "C32": ("cuComplex", "float"), "C64": ("cuDoubleComplex", "double")}
# Parameter names that carry an enum rather than an int.
ENUMS = {"transa": "cublasOperation_t", "transb": "cublasOperation_t", "trans": "cublasOperation_t",
         "uplo": "cublasFillMode_t", "side": "cublasSideMode_t", "diag": "cublasDiagType_t",
         "atype": "cudaDataType", "btype": "cudaDataType", "ctype": "cudaDataType",
         "compute": "cublasComputeType_t", "_algo": "cublasGemmAlgo_t", "kind": "libraryPropertyType",
         "alpha_type": "cudaDataType", "xtype": "cudaDataType", "ytype": "cudaDataType", "rtype": "cudaDataType",
         "cs_type": "cudaDataType", "exec": "cudaDataType"}
MODES = {"cublasSetPointerMode_v2": "cublasPointerMode_t", "cublasGetPointerMode_v2": "cublasPointerMode_t",
         "cublasSetAtomicsMode": "cublasAtomicsMode_t", "cublasGetAtomicsMode": "cublasAtomicsMode_t",
         "cublasSetMathMode": "cublasMath_t", "cublasGetMathMode": "cublasMath_t"}


def c_type(rust, fn, param, elem):
    t = rust.strip()
    t = t.replace("<T as crate::ops::Elem>::Real", "R").replace("<T as Elem>::Real", "R").replace("std::ffi::c_void", "c_void")
    ptrs = []
    while True:
        m = re.match(r"\*(const|mut)\s+(.*)", t)
        if not m:
            break
        ptrs.append(m.group(1))
        t = m.group(2).strip()
    base = {"c_int": "int", "i64": "long long int", "usize": "size_t", "c_void": "void", "f32": "float",
            "u16": "__half", "Handle": "cublasHandle_t", "C32": "cuComplex", "C64": "cuDoubleComplex",
            "T": elem[0] if elem else None, "R": elem[1] if elem else None}[t]
    if t == "c_int" and not ptrs:
        base = MODES.get(fn, ENUMS.get(param, "int")) if param in ("mode", *ENUMS) else "int"
    if t == "c_int" and ptrs and param == "mode":
        base = MODES[fn]
    if t == "c_int" and ptrs and param in ("transa", "transb"):
        base = "cublasOperation_t"
    if t == "c_void" and param == "stream" and len(ptrs) == 1:
        return "cudaStream_t"
    if t == "c_void" and param == "stream" and len(ptrs) == 2:
        return "cudaStream_t*"
    out = base
    # Rust `*const *mut T` is C `T* const*`; the outermost Rust pointer is the last C star.
    for i, q in enumerate(reversed(ptrs)):
        if i == 0:
            out = ("const " if q == "const" else "") + out + "*"
        else:
            out = out + (" const*" if q == "const" else "*")
    return out


def params(sig):
    parts = [p.strip() for p in sig.split(",") if p.strip()]
    return [tuple(x.strip() for x in p.split(":", 1)) for p in parts]


def declarations():
    decls = []
    for f in sorted(SRC.glob("*.rs")):
        text = f.read_text()
        for m in re.finditer(r"typed! \{\s*\[([^\]]*)\]\s*fn\((.*?)\) \{", text, re.S):
            for entry in m.group(1).split(","):
                if not entry.strip():
                    continue
                name, ty = (x.strip() for x in entry.split(":"))
                ps = [f"{c_type(t, name, n, ELEM[ty])} {n.lstrip('_')}" for n, t in params(m.group(2))]
                decls.append((name, "cublasStatus_t", ps))
        for m in re.finditer(r"^\s+fn (cublas\w+)\((.*?)\) \{", text, re.M | re.S):
            name = m.group(1)
            ps = [f"{c_type(t, name, n, None)} {n.lstrip('_')}" for n, t in params(m.group(2))]
            decls.append((name, "cublasStatus_t", ps))
    return sorted(decls)


def render():
    lines = [BEGIN]
    for name, ret, ps in declarations():
        lines.append(f"CUBLASAPI {ret} CUBLASWINAPI {name}({', '.join(ps) or 'void'});")
    lines.append(END)
    return "\n".join(lines)


def render_macros():
    """cublas_v2.h's plain names for the `_v2` symbols."""
    lines = ["/* BEGIN GENERATED MACROS */"]
    for name, _, _ in declarations():
        if name.endswith("_v2"):
            lines.append(f"#define {name[:-3]} {name}")
    lines.append("/* END GENERATED MACROS */")
    return "\n".join(lines)


def replace_between(path, begin, end, body):
    text = path.read_text()
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return text, head + body + tail


def main():
    stale = []
    for path, begin, end, body in [(HEADER, BEGIN, END, render()),
                                   (V2_HEADER, "/* BEGIN GENERATED MACROS */", "/* END GENERATED MACROS */", render_macros())]:
        old, new = replace_between(path, begin, end, body)
        if new != old:
            stale.append(path)
            if "--check" not in sys.argv:
                path.write_text(new)
    if stale and "--check" in sys.argv:
        print(f"out of date: {', '.join(map(str, stale))}: run {sys.argv[0]}")
        sys.exit(1)


if __name__ == "__main__":
    main()
