#!/usr/bin/env python3
"""Compares the ABI facts of our include/cuda.h with another cuda.h (NVIDIA's, from a
wheel, read only as a reference on a developer machine; never shipped, never in CI).

Facts compared, for everything our header declares:
  - functions: present in the other header, same parameter count, same canonical
    parameter and return types (typedefs resolved by clang);
  - enumerators: same value;
  - structures and unions: same sizeof, alignof, and the offsetof and canonical type of
    every field, nested members included;
  - integer-valued CU_*/CUDA_* macros: same value.
Each is checked in the three ways a program can include the header: plain,
CUDA_API_PER_THREAD_DEFAULT_STREAM and __CUDA_API_VERSION_INTERNAL. Enumerators, layouts
and macros come from one small C program compiled against each header and run; the two
outputs are diffed. Functions come from clang's AST of each header.

usage: crates/cuda-abi/tools/compare_cuda_h.py PATH/TO/OTHER/include/cuda.h [--cc clang-19]
Exit status 1 when any difference is found (besides EXPECTED)."""
import argparse
import json
import re
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[3]
OURS = ROOT / "include"
MODES = {"plain": [], "ptds": ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"], "legacy": ["-D__CUDA_API_VERSION_INTERNAL"]}
# Differences that are deliberate: our header describes CUDA 13.0, the version our
# driver reports.
EXPECTED = {"macro CUDA_VERSION"}


def ast(include_dir, flags, clang):
    src = '#include <cuda.h>\n'
    out = subprocess.run([clang, "-x", "c", "-std=c11", "-fsyntax-only", "-I", str(include_dir), *flags,
                          "-Xclang", "-ast-dump=json", "-"], input=src, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def from_cuda_h(node):
    loc = node.get("loc", {})
    f = loc.get("file") or loc.get("expansionLoc", {}).get("file") or loc.get("spellingLoc", {}).get("file")
    return f


def canon(t):
    return t.get("desugaredQualType", t["qualType"])


def collect(tu):
    """Functions, enumerators and record typedefs declared in cuda.h."""
    fns, enums, records = {}, [], []
    current = None
    for n in tu["inner"]:
        # clang records a file name only when it changes; carry it forward.
        current = from_cuda_h(n) or current
        if not current or not current.endswith("cuda.h"):
            continue
        kind = n.get("kind")
        if kind == "FunctionDecl" and n["name"].startswith("cu") and "inner" not in [k for k in n if k == "body"]:
            params = [canon(p["type"]) for p in n.get("inner", []) if p.get("kind") == "ParmVarDecl"]
            fns[n["name"]] = (canon(n["type"]).split("(")[0].strip(), params)
        elif kind == "EnumDecl":
            enums += [c["name"] for c in n.get("inner", []) if c.get("kind") == "EnumConstantDecl"]
        elif kind == "TypedefDecl" and n.get("name") not in ("cuuint32_t", "cuuint64_t"):
            records.append(n["name"])
    return fns, enums, records


def designators(tu, typedef_names):
    """`(typedef, None)` for each typedef of a structure or union, then `(typedef, member)`
    for every field reachable from it: fields of anonymous members directly, fields of
    named nested records through their path (`res.array.hArray`)."""
    by_id, by_tag = {}, {}

    def index(n):
        if n.get("kind") == "RecordDecl" and n.get("completeDefinition"):
            by_id[n["id"]] = n
            if n.get("name"):
                by_tag[n["name"]] = n
        for c in n.get("inner", []):
            index(c)
    for n in tu["inner"]:
        index(n)

    def record_of(t):
        """The record a type names, or None (pointers, functions, scalars)."""
        kind = t.get("kind")
        if kind in ("PointerType", "FunctionProtoType", "ConstantArrayType"):
            return None
        if kind == "ElaboratedType" and t.get("ownedTagDecl", {}).get("id") in by_id:
            return by_id[t["ownedTagDecl"]["id"]]
        if kind == "RecordType":
            d = t["decl"]
            return by_id.get(d["id"]) or by_tag.get(d.get("name"))
        for c in t.get("inner", []):
            r = record_of(c)
            if r is not None or c.get("kind") in ("PointerType", "FunctionProtoType", "ConstantArrayType"):
                return r
        return None

    def members(rec, prefix):
        inner = rec.get("inner", [])
        for i, c in enumerate(inner):
            if c.get("kind") != "FieldDecl":
                continue
            name = c.get("name")
            qt = c["type"]["qualType"]
            # A record defined in place precedes its field in the AST.
            nested = inner[i - 1] if i > 0 and inner[i - 1].get("kind") == "RecordDecl" and "[" not in qt else None
            if not name:
                if nested is not None:
                    yield from members(nested, prefix)
                continue
            path = prefix + [name]
            yield ".".join(path), field_type(c)
            if nested is not None and ("unnamed" in qt or "anonymous" in qt):
                yield from members(nested, path)

    out = []
    for n in tu["inner"]:
        if n.get("kind") != "TypedefDecl" or n["name"] not in typedef_names:
            continue
        rec = record_of(n["inner"][0]) if n.get("inner") else None
        if rec is None:
            continue
        out.append((n["name"], None, None))
        out += [(n["name"], d, t) for d, t in members(rec, [])]
    return out


def field_type(field):
    """The field's canonical type, with the places of unnamed records left out."""
    return re.sub(r"\((unnamed|anonymous)[^)]*\)", "(unnamed)", canon(field["type"]))


def program(enums, layout, macros):
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <cuda.h>", "int main(void) {"]
    for e in enums:
        lines.append(f'  printf("enum {e} %lld\\n", (long long){e});')
    for t, d, _ in layout:
        if d is None:
            lines.append(f'  printf("size {t} %zu align %zu\\n", sizeof({t}), _Alignof({t}));')
        else:
            lines.append(f'  printf("offset {t}.{d} %zu\\n", offsetof({t}, {d}));')
    for m in macros:
        lines.append(f'#ifdef {m}\n  printf("macro {m} %lld\\n", (long long)(size_t)({m}));\n#else\n  printf("macro {m} undefined\\n");\n#endif')
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def int_macros(include_dir, flags, cc):
    out = subprocess.run([cc, "-x", "c", "-E", "-dM", "-I", str(include_dir), *flags, "-"], input="#include <cuda.h>\n",
                         capture_output=True, text=True, check=True).stdout
    names = []
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and "(" not in parts[1] and parts[1].startswith(("CU_", "CUDA_")) and not parts[1].endswith("_H"):
            names.append(parts[1])
    return names


def run_program(src, include_dir, flags, cc, tmp, tag):
    c = pathlib.Path(tmp) / f"{tag}.c"
    exe = pathlib.Path(tmp) / tag
    c.write_text(src)
    subprocess.run([cc, "-std=c11", "-w", "-I", str(include_dir), *flags, str(c), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("other", help="the other cuda.h")
    ap.add_argument("--cc", default="clang-19")
    a = ap.parse_args()
    other = pathlib.Path(a.other).resolve().parent
    problems, notes = [], []
    counts = {}
    other_legacy, _, _ = collect(ast(other, MODES["legacy"], a.cc))
    with tempfile.TemporaryDirectory() as tmp:
        for mode, flags in MODES.items():
            ours_tu, other_tu = ast(OURS, flags, a.cc), ast(other, flags, a.cc)
            ofns, oenums, orecs = collect(ours_tu)
            tfns, _, _ = collect(other_tu)
            for name, (ret, params) in sorted(ofns.items()):
                if name not in tfns:
                    # Bound to an older symbol where libcuda lacks the newer one: the other
                    # header declares it only in its legacy form, which must then agree.
                    if other_legacy.get(name) == (ret, params):
                        notes.append(f"[{mode}] function {name}: the other header binds a newer symbol; ours the older one, same signature")
                    else:
                        problems.append(f"[{mode}] function {name}: not declared by the other header")
                    continue
                tret, tparams = tfns[name]
                if len(params) != len(tparams):
                    problems.append(f"[{mode}] function {name}: {len(params)} parameters, other {len(tparams)}")
                elif params != tparams or ret != tret:
                    problems.append(f"[{mode}] function {name}: ({ret}; {', '.join(params)}) vs ({tret}; {', '.join(tparams)})")
            only_other = sorted(set(tfns) - set(ofns))
            notes.append(f"[{mode}] {len(only_other)} functions only in the other header (not exported by libcuda): {' '.join(only_other)}")
            layout = designators(ours_tu, set(orecs))
            other_types = {(t, d): ft for t, d, ft in designators(other_tu, set(orecs))}
            for t, d, ft in layout:
                if d is not None and other_types.get((t, d), ft) != ft:
                    problems.append(f"[{mode}] field {t}.{d}: {ft} vs {other_types[(t, d)]}")
            macros = int_macros(OURS, flags, a.cc)
            src = program(oenums, layout, macros)
            mine = run_program(src, OURS, flags, a.cc, tmp, f"ours_{mode}")
            theirs = run_program(src, other, flags, a.cc, tmp, f"other_{mode}")
            for x, y in zip(mine, theirs):
                if x != y:
                    key = " ".join(x.split()[:2])
                    if key not in EXPECTED:
                        problems.append(f"[{mode}] ours: {x} | other: {y}")
            counts[mode] = (len(ofns), len(oenums), sum(1 for _, d, _ in layout if d is None), sum(1 for _, d, _ in layout if d), len(macros))
    for mode, (f, e, r, o, m) in counts.items():
        print(f"{mode}: {f} functions, {e} enumerators, {r} structures/unions ({o} fields), {m} macros compared")
    for n in notes:
        print("note:", n)
    for p in problems:
        print(p)
    print(f"{len(problems)} differences")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
