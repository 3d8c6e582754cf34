#!/usr/bin/env python3
"""Compiles the kernels of gpu_suite.py with our NVRTC and with NVIDIA's (both here, no
GPU needed) for compute_90, and writes what gpu_run.py needs on the GPU machine:

    OUTDIR/<name>.ours.ptx, OUTDIR/<name>.nv.ptx, OUTDIR/suite.json

usage: gpu_compile.py OUR_LIBNVRTC NVIDIA_LIBNVRTC OUTDIR [ARCH]
"""
import ctypes, json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_suite

def load(path):
    lib = ctypes.CDLL(path)
    lib.nvrtcGetErrorString.restype = ctypes.c_char_p
    return lib

def compile_with(lib, k, arch, extra=()):
    p = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(p), k["src"].encode(), (k["name"] + ".cu").encode(), 0, None, None) == 0
    if k["expr"]:
        assert lib.nvrtcAddNameExpression(p, k["expr"].encode()) == 0
    opts = [("-arch=" + arch).encode(), b"-std=c++17"] + [o.encode() for o in k["opts"]] + [e.encode() for e in extra]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    t = time.perf_counter()
    r = lib.nvrtcCompileProgram(p, len(opts), arr)
    ms = (time.perf_counter() - t) * 1e3
    n = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(p, ctypes.byref(n))
    log = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetProgramLog(p, log)
    if r != 0:
        raise RuntimeError("%s: %s\n%s" % (k["name"], lib.nvrtcGetErrorString(r).decode(), log.value.decode()))
    lib.nvrtcGetPTXSize(p, ctypes.byref(n))
    ptx = ctypes.create_string_buffer(n.value)
    lib.nvrtcGetPTX(p, ptx)
    name = k["name"]
    if k["expr"]:
        s = ctypes.c_char_p()
        assert lib.nvrtcGetLoweredName(p, k["expr"].encode(), ctypes.byref(s)) == 0
        name = s.value.decode()
    lib.nvrtcDestroyProgram(ctypes.byref(p))
    return ptx.value.decode(), name, ms

def main():
    ours, nv, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    arch = sys.argv[4] if len(sys.argv) > 4 else "compute_90"
    os.makedirs(outdir, exist_ok=True)
    libs = {"ours": load(ours), "nv": load(nv)}
    manifest = []
    for k in gpu_suite.KERNELS:
        entry = {key: k[key] for key in ("name", "args", "grid", "block", "outputs", "tol", "shared")}
        for tag, lib in libs.items():
            # NVIDIA's NVRTC has no built-in headers: give it the toolkit's (NV_INCLUDE).
            extra = ["-I" + d for d in os.environ.get("NV_INCLUDE", "").split(":") if d] if tag == "nv" else []
            ptx, fname, ms = compile_with(lib, k, arch, extra)
            with open(os.path.join(outdir, "%s.%s.ptx" % (k["name"], tag)), "w") as f:
                f.write(ptx)
            entry["func_" + tag] = fname
            entry["compile_ms_" + tag] = round(ms, 2)
        manifest.append(entry)
        print("%-24s ours %7.1f ms  nvidia %7.1f ms" % (k["name"], entry["compile_ms_ours"], entry["compile_ms_nv"]))
    with open(os.path.join(outdir, "suite.json"), "w") as f:
        json.dump(manifest, f, indent=1)

if __name__ == "__main__":
    main()
