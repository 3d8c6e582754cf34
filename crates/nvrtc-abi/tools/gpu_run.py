#!/usr/bin/env python3
"""Runs on the GPU machine (CuPy over NVIDIA's driver): loads the PTX that our NVRTC and
NVIDIA's NVRTC produced for each kernel of gpu_suite.py (see gpu_compile.py), runs both
on the same inputs, compares the results, and times each (CUDA events, interleaved
rounds, median of the per-launch times).

usage: gpu_run.py DIR [OUT.json]
"""
import json, math, os, sys, time
import numpy as np
import cupy as cp

def fill(kind, dtype, n, rng):
    if kind.startswith("dom:"):
        _, _, lo, hi = kind.split(":")
        lo, hi = float(lo), float(hi)
        if lo > 0 and hi / lo > 1e3:
            return np.exp(rng.uniform(np.log(lo), np.log(hi), n)).astype(dtype)
        return rng.uniform(lo, hi, n).astype(dtype)
    if kind == "zero":
        return np.zeros(n, dtype)
    if kind == "small":
        return rng.integers(0, 256, n).astype(dtype)
    if kind == "ramp":
        return np.arange(n).astype(dtype)
    if kind == "randn":
        return rng.standard_normal(n).astype(dtype)
    if kind == "pos":
        return (rng.random(n) * 9.9 + 0.1).astype(dtype)
    if kind == "bf16":
        f = rng.random(n).astype(np.float32)
        return (f.view(np.uint32) >> 16).astype(np.uint16)
    return rng.random(n).astype(dtype)

DT = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "u32": np.uint32, "u8": np.uint8, "f16": np.float16,
      "u16": np.uint16, "i64": np.int64}
SC = {"s_f32": np.float32, "s_f64": np.float64, "s_i32": np.int32, "s_i64": np.int64}

def make_args(spec, seed):
    rng = np.random.default_rng(seed)
    host = []
    for a in spec["args"]:
        if a[0] in SC:
            host.append(SC[a[0]](a[1]))
        else:
            host.append(fill(a[2], DT[a[0]], a[1], rng))
    return host

def device_args(host):
    return [cp.asarray(h) if isinstance(h, np.ndarray) else h for h in host]

def time_launches(fn, grid, block, args, shared, reps=20):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(3):
        fn(grid, block, args, shared_mem=shared)
    start.record()
    for _ in range(reps):
        fn(grid, block, args, shared_mem=shared)
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop) / reps

def main():
    d = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else None
    suite = json.load(open(os.path.join(d, "suite.json")))
    dev = cp.cuda.Device()
    name = cp.cuda.runtime.getDeviceProperties(dev.id)["name"].decode()
    print("device:", name, "driver:", cp.cuda.runtime.driverGetVersion())
    results = []
    for i, spec in enumerate(suite):
        row = {"name": spec["name"]}
        try:
            fns = {}
            for tag in ("nv", "ours"):
                mod = cp.RawModule(path=os.path.join(d, "%s.%s.ptx" % (spec["name"], tag)))
                fns[tag] = mod.get_function(spec["func_" + tag])
            grid, block, shared = tuple(spec["grid"]), tuple(spec["block"]), spec["shared"]
            outs = {}
            for tag in ("nv", "ours"):
                args = device_args(make_args(spec, 1234 + i))
                fns[tag](grid, block, args, shared_mem=shared)
                cp.cuda.Device().synchronize()
                outs[tag] = [cp.asnumpy(args[k]) for k in spec["outputs"]]
            ok = True
            worst = 0.0
            for a, b in zip(outs["nv"], outs["ours"]):
                if a.dtype.kind in "iu":
                    ok &= bool(np.array_equal(a, b))
                else:
                    a64, b64 = a.astype(np.float64), b.astype(np.float64)
                    scale = max(1.0, float(np.max(np.abs(a64)))) if a64.size else 1.0
                    diff = float(np.max(np.abs(a64 - b64))) / scale if a64.size else 0.0
                    worst = max(worst, diff)
                    ok &= diff <= max(spec["tol"], 0.0) or np.array_equal(a, b)
            row["same_results"] = bool(ok)
            if spec["name"].startswith("ulp_"):
                # Error in float ulps against numpy's double-precision function.
                ref = spec["args"][0][2].split(":")[1]
                x = make_args(spec, 1234 + i)[0].astype(np.float64)
                exact = {"exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sin": np.sin, "cos": np.cos,
                         "tan": np.tan, "tanh": np.tanh, "pow25": lambda v: v ** 2.5,
                         "rsqrt": lambda v: 1.0 / np.sqrt(v)}.get(ref)
                if ref == "erf":
                    from math import erf
                    exact = np.vectorize(erf)
                e = exact(x)
                ulp = np.spacing(np.abs(e).astype(np.float32)).astype(np.float64)
                for tag in ("nv", "ours"):
                    got = outs[tag][0].astype(np.float64)
                    fin = np.isfinite(e) & (np.abs(e) < 3.4e38)
                    row["max_ulp_" + tag] = float(np.max(np.abs(got[fin] - e[fin]) / ulp[fin]))
            row["max_rel_diff"] = worst
            # Timing: interleaved rounds, fresh inputs per tag.
            times = {"nv": [], "ours": []}
            targs = {tag: device_args(make_args(spec, 99 + i)) for tag in ("nv", "ours")}
            for _ in range(5):
                for tag in ("nv", "ours"):
                    times[tag].append(time_launches(fns[tag], grid, block, targs[tag], shared))
            row["ms_nv"] = float(np.median(times["nv"]))
            row["ms_ours"] = float(np.median(times["ours"]))
            row["ratio"] = row["ms_ours"] / row["ms_nv"]
            row["loaded"] = True
        except Exception as e:  # noqa: BLE001
            row["loaded"] = False
            row["error"] = repr(e)[:500]
        results.append(row)
        print("%-24s %s same=%s diff=%.2e nv %.4f ms ours %.4f ms ratio %.3f" % (
            row["name"], "loaded" if row.get("loaded") else "FAILED " + row.get("error", ""), row.get("same_results"),
            row.get("max_rel_diff", float("nan")), row.get("ms_nv", float("nan")), row.get("ms_ours", float("nan")),
            row.get("ratio", float("nan"))), flush=True)
        if "max_ulp_ours" in row:
            print("    ulp error vs numpy: nvidia %.3f ours %.3f" % (row["max_ulp_nv"], row["max_ulp_ours"]), flush=True)
    ratios = [r["ratio"] for r in results if r.get("loaded") and not r["name"].startswith("ulp_")]
    geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios)) if ratios else float("nan")
    summary = {"device": name, "kernels": len(results), "loaded": sum(1 for r in results if r.get("loaded")),
               "same_results": sum(1 for r in results if r.get("same_results")), "geomean_ratio": geo, "results": results}
    print("loaded %d/%d, same results %d, geomean time ratio ours/nvidia %.4f" % (summary["loaded"], len(results),
          summary["same_results"], geo))
    if out_path:
        json.dump(summary, open(out_path, "w"), indent=1)

if __name__ == "__main__":
    main()
