#!/usr/bin/env python3
"""Run the exported conformance cases on an NVIDIA GPU through NVIDIA's driver (libcuda via
ctypes) and compare the results with the expectations computed in Rust.

usage: check.py EXPORT_DIR OUT_DIR

EXPORT_DIR is what `ptx-conformance export` wrote (data.bin may be compressed as
data.bin.xz or data.bin.gz). Writes OUT_DIR/summary.txt (counts per family, every disagreement with a few
examples) and OUT_DIR/results.json (one record per case).
"""
import ctypes
import gzip
import json
import lzma
import os
import sys
import time

import numpy as np

EXPORT, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)
# CHECK_DUMP=1 also writes OUT/dump/case<index>_<reg>.npz (all inputs, expected and actual
# outputs) for every disagreeing case.
DUMP = os.path.join(OUT, "dump") if os.environ.get("CHECK_DUMP") else None
if DUMP:
    os.makedirs(DUMP, exist_ok=True)

cu = ctypes.CDLL("libcuda.so.1")
CUdeviceptr = ctypes.c_uint64


def ck(r, what):
    if r != 0:
        s = ctypes.c_char_p()
        cu.cuGetErrorString(r, ctypes.byref(s))
        raise RuntimeError(f"{what}: {r} {s.value.decode() if s.value else ''}")


ck(cu.cuInit(0), "cuInit")
dev = ctypes.c_int()
ck(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
name = ctypes.create_string_buffer(256)
cu.cuDeviceGetName(name, 256, dev)
DEVICE = name.value.decode()
drv = ctypes.c_int()
cu.cuDriverGetVersion(ctypes.byref(drv))
ctx = ctypes.c_void_p()


def new_context():
    """The device's primary context, reset first if we had one (after a sticky error)."""
    if ctx.value:
        cu.cuDevicePrimaryCtxRelease_v2(dev)
        cu.cuDevicePrimaryCtxReset_v2(dev)
    ck(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    ck(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")


new_context()

man = json.load(open(os.path.join(EXPORT, "manifest.json")))
path = os.path.join(EXPORT, "data.bin")
if os.path.exists(path + ".xz"):
    raw = lzma.open(path + ".xz").read()
elif os.path.exists(path + ".gz"):
    raw = gzip.open(path + ".gz").read()
else:
    raw = open(path, "rb").read()
DATA = np.frombuffer(raw, dtype=np.uint8)
DT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def arr(spec):
    off, n, w = spec
    return DATA[off:off + n * w].view(DT[w]).copy()


modules = {}  # file -> handle or None
mod_err = {}


def load_ptx(text):
    """Returns (module handle or None, error log)."""
    opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
    log = ctypes.create_string_buffer(8192)
    vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(8192))
    m = ctypes.c_void_p()
    r = cu.cuModuleLoadDataEx(ctypes.byref(m), ctypes.c_char_p(text.encode() + b"\0"), 2, opts, vals)
    if r != 0:
        return None, f"error {r}: " + log.value.decode(errors="replace").strip()
    return m, ""


def get_function(case):
    """The CUfunction of a case, loading its module (or, if that fails, its entry alone)."""
    f = case["module"]
    if f not in modules:
        text = open(os.path.join(EXPORT, f)).read()
        modules[f], mod_err[f] = load_ptx(text)
        modules[f + ":text"] = text
    m = modules[f]
    kname = case["kernel"]
    if m is None:
        key = f + ":" + kname
        if key not in modules:
            lines = modules[f + ":text"].split("\n")
            a, b = case["lines"]
            entry = "\n".join(lines[a - 1:b])
            modules[key], mod_err[key] = load_ptx(man["header"] + "\n" + entry + "\n")
        m = modules[key]
        if m is None:
            return None, mod_err[key]
    fn = ctypes.c_void_p()
    r = cu.cuModuleGetFunction(ctypes.byref(fn), m, kname.encode())
    if r != 0:
        return None, f"cuModuleGetFunction {r}"
    return fn, ""


FLOATS = {"f16": [(0, 16, 5)], "bf16": [(0, 16, 8)], "f16x2": [(0, 16, 5), (16, 16, 5)],
          "bf16x2": [(0, 16, 8), (16, 16, 8)], "f32": [(0, 32, 8)], "f64": [(0, 64, 11)]}


def decode(bits, w, e):
    if w == 64:
        return bits.astype(np.uint64).view(np.float64)
    if w == 32:
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    if e == 5:
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)


def compare(ty, check, want, got):
    """Boolean array: element matches; plus the count of NaN-payload-only differences."""
    ok = want == got
    if check == "exact" or ty not in FLOATS:
        return ok, 0
    lanes_ok = np.ones_like(ok)
    nan_only = np.zeros_like(ok)
    for sh, w, e in FLOATS[ty]:
        m = np.uint64((1 << w) - 1) if w < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
        a = (want.astype(np.uint64) >> np.uint64(sh)) & m
        b = (got.astype(np.uint64) >> np.uint64(sh)) & m
        mant = w - 1 - e
        emask = np.uint64((1 << e) - 1)
        fmask = np.uint64((1 << mant) - 1)
        na = (((a >> np.uint64(mant)) & emask) == emask) & ((a & fmask) != 0)
        nb = (((b >> np.uint64(mant)) & emask) == emask) & ((b & fmask) != 0)
        eq = a == b
        if check == "float":
            lane = eq | (na & nb)
        elif check[0] == "ulp":
            sign = np.uint64(1 << (w - 1))
            def ordv(v):
                mag = (v & ~sign & m).astype(np.int64) if w < 64 else (v & ~sign).astype(np.float64)
                return np.where((v & sign) != 0, -mag, mag)
            d = np.abs(ordv(a) - ordv(b))
            lane = eq | (na & nb) | (~na & ~nb & (d <= check[1]))
        else:  # abs
            x, y = decode(a, w, e), decode(b, w, e)
            inf = np.isinf(x) | np.isinf(y)
            with np.errstate(invalid="ignore"):
                close = np.abs(x - y) <= check[1]
            sign = np.uint64(1 << (w - 1))
            oa = np.where((a & sign) != 0, -(a & ~sign & m).astype(np.int64), (a & m).astype(np.int64))
            ob = np.where((b & sign) != 0, -(b & ~sign & m).astype(np.int64), (b & m).astype(np.int64))
            close |= np.abs(oa - ob) <= 1  # or one ULP: the final rounding of a large result
            lane = eq | (na & nb) | (~na & ~nb & np.where(inf, x == y, close))
        lanes_ok &= lane
        nan_only |= (~eq) & na & nb
    return lanes_ok, int(nan_only.sum())


def run_case(case):
    fn, err = get_function(case)
    if fn is None:
        return {"status": "compile", "detail": err[:2000]}
    n = case["n"]
    ptrs = [0] * 7
    allocs = []

    def upload(a):
        p = CUdeviceptr()
        ck(cu.cuMemAlloc_v2(ctypes.byref(p), max(a.nbytes, 8)), "alloc")
        ck(cu.cuMemcpyHtoD_v2(p, a.ctypes.data, a.nbytes), "htod")
        allocs.append(p)
        return p.value

    ins = [arr(i["data"]) for i in case["inputs"]]
    for k, a in enumerate(ins):
        ptrs[k] = upload(a)
    outs = case["outputs"]
    for k, o in enumerate(outs):
        w = o["data"][2]
        ptrs[4 + k] = upload(np.frombuffer(b"\xcd" * (n * w), dtype=DT[w]).copy())
    sc = case.get("scratch")
    if sc:
        ptrs[6] = upload(arr(sc["init"]))
    vals = [ctypes.c_uint64(p) for p in ptrs] + [ctypes.c_uint32(n)]
    params = (ctypes.c_void_p * 8)(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])
    block = case["block"]
    grid = (n + block - 1) // block
    r = cu.cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, None, params, None)
    if r == 0:
        r = cu.cuCtxSynchronize()
    if r != 0:
        return {"status": "launch", "detail": f"error {r}", "reset": True}
    res = {"status": "pass", "mismatches": 0, "nan_payload_diffs": 0, "examples": []}

    def download(p, spec):
        w = spec[2]
        got = np.empty(spec[1], dtype=DT[w])
        ck(cu.cuMemcpyDtoH_v2(got.ctypes.data, CUdeviceptr(p), got.nbytes), "dtoh")
        return got

    checks = [(o["type"], o["check"], o["data"], ptrs[4 + k], f"%{'xy'[k]}") for k, o in enumerate(outs)]
    if sc:
        checks.append((sc["type"], sc["check"], sc["expected"], ptrs[6], "scratch"))
    for ty, check, spec, p, reg in checks:
        want = arr(spec)
        got = download(p, spec)
        ok, nan_only = compare(ty, check if isinstance(check, str) else tuple(check), want, got)
        res["nan_payload_diffs"] += nan_only
        bad = np.nonzero(~ok)[0]
        res["mismatches"] += int(len(bad))
        if len(bad) and DUMP:
            # Every input and output of a disagreeing case, to infer the hardware's rule.
            np.savez_compressed(os.path.join(DUMP, f"{case['id']}_{reg.strip('%')}.npz"),
                                want=want, got=got, **{"abcd"[k]: a for k, a in enumerate(ins)})
        for i in bad[:16]:
            i = int(i)
            inv = " ".join(f"{'abcd'[k]}={int(a[i]):#x}" for k, a in enumerate(ins) if i < len(a))
            res["examples"].append(f"[{i}] {inv}: {reg} got {int(got[i]):#x}, want {int(want[i]):#x}")
    if res["mismatches"]:
        res["status"] = "mismatch"
    for p in allocs:
        cu.cuMemFree_v2(p)
    return res


t0 = time.time()
results = []
for case in man["cases"]:
    try:
        r = run_case(case)
    except Exception as e:  # a sticky error poisons the context: start a new one
        r = {"status": "error", "detail": str(e), "reset": True}
    if r.pop("reset", False):
        new_context()
        modules.clear()
    r.update(id=case["id"], family=case["family"], instruction=case["instruction"], n=case["n"])
    results.append(r)

fam = {}
for r in results:
    f = fam.setdefault(r["family"], {"cases": 0, "inputs": 0, "pass": 0, "mismatch": 0, "compile": 0, "other": 0, "nan_payload_diffs": 0})
    f["cases"] += 1
    f["inputs"] += r["n"]
    s = r["status"]
    f[s if s in ("pass", "mismatch", "compile") else "other"] += 1
    f["nan_payload_diffs"] += r.get("nan_payload_diffs", 0)

lines = [f"device: {DEVICE}, driver API {drv.value}, {len(results)} cases in {time.time() - t0:.1f}s", ""]
lines.append(f"{'family':16} {'cases':>6} {'inputs':>10} {'pass':>6} {'mismatch':>8} {'compile':>7} {'other':>5} {'nan-payload-diffs':>17}")
for k, f in sorted(fam.items()):
    lines.append(f"{k:16} {f['cases']:6} {f['inputs']:10} {f['pass']:6} {f['mismatch']:8} {f['compile']:7} {f['other']:5} {f['nan_payload_diffs']:17}")
lines.append("")
for r in results:
    if r["status"] != "pass":
        lines.append(f"{r['id']} [{r['instruction']}]: {r['status']} {r.get('mismatches', '')} {r.get('detail', '')[:300]}")
        for e in r.get("examples", [])[:6]:
            lines.append("    " + e)
open(os.path.join(OUT, "summary.txt"), "w").write("\n".join(lines) + "\n")
json.dump({"device": DEVICE, "driver": drv.value, "results": results}, open(os.path.join(OUT, "results.json"), "w"))
print("\n".join(lines[:20]))
