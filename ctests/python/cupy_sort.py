"""CuPy's sorting and scans on our stack: `cupy.sort`/`argsort`/`unique` run the Thrust PTX
bundled in CuPy's `thrust` module and `cumsum` CuPy's CUB module (both prebuilt, no NVRTC).
Results are checked against NumPy on the host."""
import numpy as np
import cupy as cp

failures = []

def check(name, ok):
    print(("PASS " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)

a = np.random.RandomState(1).rand(100000).astype(np.float32)
d = cp.asarray(a)
check("sort float32", (cp.sort(d).get() == np.sort(a)).all())
check("argsort float32", (a[cp.argsort(d).get()] == np.sort(a)).all())
check("cumsum float32", np.allclose(cp.cumsum(d).get(), np.cumsum(a, dtype=np.float64), rtol=1e-3))
ints = (a * 100).astype(np.int32)
check("unique int32", (cp.unique(cp.asarray(ints)).get() == np.unique(ints)).all())

if failures:
    raise SystemExit(f"{len(failures)} failed: {failures}")
print("PASS cupy_sort")
