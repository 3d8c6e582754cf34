"""CuPy's BLAS paths on our stack: cupy.matmul/dot/tensordot/inner/outer/vdot and batched
matmul go through our libcublas.so.12 (GEMM, GEMV, dot, batched and strided-batched GEMM,
GemmEx for half precision). Every result is checked against NumPy on the host."""
import numpy as np
import cupy as cp

failures = []
rng = np.random.default_rng(0)


def check(name, got, want, rtol, atol=0.0):
    got = cp.asnumpy(got)
    ok = got.shape == np.shape(want) and np.allclose(got, want, rtol=rtol, atol=atol)
    print(("PASS " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        print("  got ", got.ravel()[:8], got.shape, "\n  want", np.ravel(want)[:8], np.shape(want))


def sample(shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


TOL = {np.float16: 2e-2, np.float32: 1e-4, np.float64: 1e-12, np.complex64: 1e-4, np.complex128: 1e-12}

for dtype in (np.float32, np.float64, np.complex64, np.complex128, np.float16):
    tol = TOL[dtype]
    name = np.dtype(dtype).name
    a, b = sample((37, 19), dtype), sample((19, 23), dtype)
    wide = lambda x: x.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    check(f"matmul {name}", cp.asarray(a) @ cp.asarray(b), wide(a) @ wide(b), tol, tol)
    # Transposed (F-ordered) operands and views.
    check(f"matmul transposed {name}", cp.asarray(b).T @ cp.asarray(a).T, (wide(a) @ wide(b)).T, tol, tol)
    v = sample((19,), dtype)
    check(f"matrix-vector {name}", cp.asarray(a) @ cp.asarray(v), wide(a) @ wide(v), tol, tol)
    check(f"vector-matrix {name}", cp.asarray(v) @ cp.asarray(b), wide(v) @ wide(b), tol, tol)
    check(f"dot vectors {name}", cp.dot(cp.asarray(v), cp.asarray(v)), np.dot(wide(v), wide(v)), tol, tol)
    # Batched: a stack of 5 products (strided batched GEMM).
    x, y = sample((5, 6, 7), dtype), sample((5, 7, 4), dtype)
    check(f"batched matmul {name}", cp.matmul(cp.asarray(x), cp.asarray(y)), np.matmul(wide(x), wide(y)), tol, tol)
    # Broadcasting one matrix over a batch.
    check(f"broadcast matmul {name}", cp.matmul(cp.asarray(x), cp.asarray(y[0])), np.matmul(wide(x), wide(y[0])), tol, tol)

a, b = sample((3, 4, 5), np.float64), sample((4, 5, 6), np.float64)
check("tensordot", cp.tensordot(cp.asarray(a), cp.asarray(b), axes=([1, 2], [0, 1])), np.tensordot(a, b, axes=([1, 2], [0, 1])), 1e-12)
u, w = sample((50,), np.complex128), sample((50,), np.complex128)
check("vdot complex (conjugated)", cp.vdot(cp.asarray(u), cp.asarray(w)), np.vdot(u, w), 1e-12)
check("inner", cp.inner(cp.asarray(u.real), cp.asarray(w.real)), np.inner(u.real, w.real), 1e-12)
check("outer", cp.outer(cp.asarray(u.real), cp.asarray(w.real)), np.outer(u.real, w.real), 1e-12)
big_a, big_b = sample((256, 300), np.float32), sample((300, 200), np.float32)
check("matmul 256x300x200", cp.asarray(big_a) @ cp.asarray(big_b), big_a.astype(np.float64) @ big_b.astype(np.float64), 1e-4, 1e-3)
# cuBLAS-backed reductions and scaling on strided views.
z = sample((1000,), np.float32)
check("linalg.norm", cp.linalg.norm(cp.asarray(z)), np.linalg.norm(z.astype(np.float64)), 1e-5)

if failures:
    print(f"{len(failures)} failures: {failures}")
    raise SystemExit(1)
print("PASS cupy_blas")
