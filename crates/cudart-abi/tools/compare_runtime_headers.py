#!/usr/bin/env python3
"""Compares the ABI facts of our CUDA runtime headers with another set (NVIDIA's toolkit).

A developer tool, not run in CI (NVIDIA's headers are not there). For each header set it
parses <cuda_runtime_api.h> with clang's JSON AST dump (C++ mode) and, for the types and
functions the runtime header and its type headers declare, collects:
  - every function: parameter count, canonical parameter and return types, which
    parameters have a C++ default argument;
  - every enum constant: its value;
  - every struct/union: sizeof, alignof, and offsetof of every (nested) field;
then compiles one small C++ program per header set that prints the values, sizes and
offsets (the compiler, not this script, computes them), and diffs the two.

Everything we declare must match the other set exactly; what only the other set declares
is listed as "not declared by us" (informational: we declare what we implement).

usage: compare_runtime_headers.py [--ours include] [--theirs DIR] [--verbose]
  --theirs defaults to NVIDIA's CUDA 13 headers in .venv (nvidia/cu13/include).
exit status: 0 when nothing we declare differs, 1 otherwise.
"""
import argparse
import re
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
# The headers whose declarations are compared (the runtime API and the type headers it
# pulls in); declarations from other files (libc, vector_types.h's make_*) are ignored.
FILES = ("cuda_runtime_api.h", "driver_types.h", "surface_types.h", "texture_types.h", "channel_descriptor.h")
# NVIDIA declares the calls of nvcc's generated code (__cudaRegisterFunction, ...) only in
# crt/ headers that need nvcc's internal macros; ours declares them in cuda_runtime_api.h.
# They are listed, not compared.
INTERNAL_PREFIX = "__cuda"
CLANG = os.environ.get("CLANG", "clang++-19" if subprocess.call(["which", "clang++-19"], stdout=subprocess.DEVNULL) == 0 else "clang++")
CXX = os.environ.get("CXX", "g++")


def default_theirs():
    hits = sorted(glob.glob(os.path.join(ROOT, ".venv/lib/python3*/site-packages/nvidia/cu13/include")))
    return hits[0] if hits else None


def ast(include_dir, extra="", defines=()):
    src = "#include <cuda_runtime_api.h>\n#include <channel_descriptor.h>\n" + extra
    out = subprocess.run(
        [CLANG, "-x", "c++", "-std=c++17", "-fsyntax-only", "-w", *defines, "-I", include_dir, "-Xclang", "-ast-dump=json", "-"],
        input=src, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"clang failed on {include_dir}:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout)


def canon(t):
    return t.get("desugaredQualType", t["qualType"])


class Facts:
    def __init__(self):
        self.functions = {}  # name -> (return, [param types], [has default])
        self.constants = []  # enum constant names
        self.records = {}  # spelled type -> [field paths] (None entries: bit-fields)


def collect(root):
    facts = Facts()
    state = {"file": None}

    def in_scope():
        return state["file"] is not None and os.path.basename(state["file"]) in FILES

    def track(node):
        for key in ("loc", "range"):
            loc = node.get(key, {})
            if key == "range":
                loc = loc.get("begin", {})
            loc = loc.get("expansionLoc", loc)
            if "file" in loc:
                state["file"] = loc["file"]

    def fields(record, prefix, out):
        pending = None
        for c in record.get("inner", []):
            if c.get("kind") in ("RecordDecl", "CXXRecordDecl") and c.get("completeDefinition"):
                pending = c
            elif c.get("kind") == "FieldDecl":
                name = c.get("name")
                qt = c["type"]["qualType"]
                if c.get("isBitfield"):
                    continue
                if not name:  # anonymous struct/union member: its fields are the parent's
                    if pending is not None:
                        fields(pending, prefix, out)
                    pending = None
                    continue
                path = prefix + name
                out.append(path)
                if pending is not None and ("unnamed" in qt or "anonymous" in qt) and "[" not in qt:
                    fields(pending, path + ".", out)
                pending = None

    def walk(node, depth):
        track(node)
        kind = node.get("kind")
        if kind == "LinkageSpecDecl" or kind == "TranslationUnitDecl":
            for c in node.get("inner", []):
                walk(c, depth)
            return
        if not in_scope() or node.get("isImplicit"):
            return
        if kind == "FunctionDecl" and node.get("name", "").startswith(("cuda", "__cuda")) and not node["name"].startswith("__cudart"):
            params = [c for c in node.get("inner", []) if c.get("kind") == "ParmVarDecl"]
            ret = canon(node["type"]).split("(")[0].strip()
            defaults = [bool(p.get("init")) for p in params]
            old = facts.functions.get(node["name"])
            if old is not None and len(old[2]) == len(defaults):
                # A default argument is written once; redeclarations keep it.
                defaults = [a or b for a, b in zip(old[2], defaults)]
            facts.functions[node["name"]] = (ret, [canon(p["type"]) for p in params], defaults)
        elif kind == "EnumDecl":
            for c in node.get("inner", []):
                if c.get("kind") == "EnumConstantDecl":
                    facts.constants.append(c["name"])
        elif kind in ("RecordDecl", "CXXRecordDecl") and node.get("completeDefinition") and node.get("name"):
            out = []
            fields(node, "", out)
            facts.records[f"{node['tagUsed']} {node['name']}"] = out
        elif kind == "TypedefDecl":
            # typedef struct { ... } name; : the record is anonymous, the typedef names it.
            inner = node.get("inner", [])
            owned = [c for c in inner if c.get("kind") == "ElaboratedType" and c.get("ownedTagDecl")]
            if owned and not owned[0]["ownedTagDecl"].get("name"):
                rid = owned[0]["ownedTagDecl"]["id"]
                rec = anon_records.get(rid)
                if rec is not None:
                    out = []
                    fields(rec, "", out)
                    facts.records[node["name"]] = out
        if kind in ("RecordDecl", "CXXRecordDecl") and not node.get("name"):
            anon_records[node["id"]] = node

    anon_records = {}
    walk(root, 0)
    return facts


def int_macros(include_dir):
    """The integer-valued cuda*/CUDA* macros the headers define (flag values, versions)."""
    out = subprocess.run([CXX, "-x", "c++", "-E", "-dM", "-I", include_dir, "-"],
                         input="#include <cuda_runtime_api.h>\n", capture_output=True, text=True, check=True)
    found = {}
    for line in out.stdout.splitlines():
        m = re.match(r"#define ((?:cuda|CUDA)\w*) (.+)$", line)
        if m and re.fullmatch(r"[\s()\-]*(\(int\))?[\s()\-]*(0x[0-9A-Fa-f]+|[0-9]+)[\s()]*", m.group(2)):
            found[m.group(1)] = m.group(2)
    return found


def measure(include_dir, facts_ours, facts_theirs, names):
    """Compiles a program against include_dir printing what both sets declare."""
    consts = [c for c in facts_ours.constants if c in names["constants"]]
    lines = ["#include <cuda_runtime_api.h>", "#include <channel_descriptor.h>", "#include <cstdio>", "#include <cstddef>",
             "int main() {"]
    for c in consts:
        lines.append(f'  std::printf("const {c} %lld\\n", (long long){c});')
    for m in sorted(names["macros"]):
        lines.append(f'  std::printf("macro {m} %lld\\n", (long long)({m}));')
    for rec in sorted(names["records"]):
        t = rec.split()[-1]
        lines.append(f'  std::printf("size {t} %zu %zu\\n", sizeof({rec}), alignof({rec}));')
        both = set(facts_theirs.records[rec])
        for path in facts_ours.records[rec]:
            if path in both:
                lines.append(f'  std::printf("offset {t}.{path} %zu\\n", (size_t)__builtin_offsetof({t}, {path}));')
    lines += ["  return 0;", "}"]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "facts.cpp")
        exe = os.path.join(tmp, "facts")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        cc = subprocess.run([CXX, "-std=c++17", "-w", "-I", include_dir, src, "-o", exe], capture_output=True, text=True)
        if cc.returncode != 0:
            sys.exit(f"{CXX} failed against {include_dir}:\n{cc.stderr[-4000:]}")
        run = subprocess.run([exe], capture_output=True, text=True, check=True)
    values = {}
    for line in run.stdout.splitlines():
        kind, key, *rest = line.split()
        values[(kind, key)] = " ".join(rest)
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", default=os.path.join(ROOT, "include"))
    ap.add_argument("--theirs", default=default_theirs())
    ap.add_argument("--verbose", action="store_true", help="also list what only the other set declares")
    args = ap.parse_args()
    if not args.theirs or not os.path.isdir(args.theirs):
        sys.exit("no header set to compare with (--theirs DIR; NVIDIA's is in .venv after scripts/bootstrap.sh)")

    ours, theirs = collect(ast(args.ours)), collect(ast(args.theirs))
    # The per-thread default-stream entry points are declared only under this macro.
    ptds = ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]
    for facts, more in ((ours, collect(ast(args.ours, "", ptds))), (theirs, collect(ast(args.theirs, "", ptds)))):
        for name, (ret, params, defaults) in more.functions.items():
            old = facts.functions.get(name)
            if old is not None and len(old[2]) == len(defaults):
                defaults = [a or b for a, b in zip(old[2], defaults)]
            facts.functions[name] = (ret, params, defaults)
    problems, missing = [], []

    internal = sorted(n for n in ours.functions if n.startswith(INTERNAL_PREFIX))
    for name, (ret, params, defaults) in sorted(ours.functions.items()):
        if name.startswith(INTERNAL_PREFIX):
            continue
        if name not in theirs.functions:
            missing.append(f"function {name}: not in the other set")
            continue
        tret, tparams, tdefaults = theirs.functions[name]
        if len(params) != len(tparams):
            problems.append(f"function {name}: {len(params)} parameters, theirs {len(tparams)}")
            continue
        if ret != tret:
            problems.append(f"function {name}: returns {ret}, theirs {tret}")
        for i, (a, b) in enumerate(zip(params, tparams)):
            if a != b:
                problems.append(f"function {name}: parameter {i + 1} is {a}, theirs {b}")
        if defaults != tdefaults:
            problems.append(f"function {name}: default arguments {defaults}, theirs {tdefaults}")
    names = {
        "constants": set(ours.constants) & set(theirs.constants),
        "records": set(ours.records) & set(theirs.records),
        "macros": set(int_macros(args.ours)) & set(int_macros(args.theirs)),
    }
    for m in sorted(set(int_macros(args.ours)) - names["macros"]):
        missing.append(f"macro {m}: not in the other set")
    for c in ours.constants:
        if c not in theirs.constants:
            missing.append(f"enum constant {c}: not in the other set")
    for r in ours.records:
        if r not in theirs.records:
            missing.append(f"type {r}: not in the other set")
        else:
            for path in ours.records[r]:
                if path not in theirs.records[r]:
                    problems.append(f"type {r}: field {path} not in the other set")
            for path in theirs.records[r]:
                if path not in ours.records[r]:
                    problems.append(f"type {r}: lacks the other set's field {path}")

    mine = measure(args.ours, ours, theirs, names)
    other = measure(args.theirs, ours, theirs, names)
    for key in sorted(mine):
        if mine[key] != other.get(key):
            problems.append(f"{key[0]} {key[1]}: ours {mine[key]}, theirs {other.get(key)}")

    only_theirs_f = sorted(set(theirs.functions) - set(ours.functions))
    only_theirs_c = [c for c in theirs.constants if c not in set(ours.constants)]
    only_theirs_r = sorted(set(theirs.records) - set(ours.records))
    print(f"ours:   {len(ours.functions)} functions, {len(ours.constants)} enum constants, {len(ours.records)} structs/unions")
    print(f"theirs: {len(theirs.functions)} functions, {len(theirs.constants)} enum constants, {len(theirs.records)} structs/unions")
    print(f"compared: {len(mine)} values, sizes and offsets; {len(ours.functions)} signatures")
    print(f"compiler-internal, not compared: {' '.join(internal)}")
    print(f"not declared by us: {len(only_theirs_f)} functions, {len(only_theirs_c)} enum constants, {len(only_theirs_r)} structs/unions")
    if args.verbose:
        for x in only_theirs_f + only_theirs_c + only_theirs_r:
            print(f"  only theirs: {x}")
    for m in missing:
        print(f"ONLY OURS  {m}")
    for p in problems:
        print(f"DIFFERENT  {p}")
    if not problems and not missing:
        print("no differences in what we declare")
    return 1 if problems or missing else 0


if __name__ == "__main__":
    sys.exit(main())
