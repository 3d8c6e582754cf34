"""cupy.linalg on our stack: solve/inv/det (LU: cuSOLVER getrf/getrs and cuBLAS batched LU),
cholesky (potrf), qr (geqrf + orgqr/ungqr), svd (gesvd), eigh/eigvalsh (Xsyevd), lstsq and
pinv (through svd), through our libcusolver.so.11 and libcublas.so.12. Results are checked
against NumPy, or by reconstruction where a factorization is not unique."""
import numpy as np
import cupy as cp

failures = []
rng = np.random.default_rng(1)


def check(name, ok, detail=""):
    print(("PASS " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        print("  ", detail)


def close(a, b, tol):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol * max(1.0, np.abs(b).max(initial=0)))


def sample(shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


for dtype, tol in ((np.float32, 2e-3), (np.float64, 1e-10), (np.complex64, 2e-3), (np.complex128, 1e-10)):
    name = np.dtype(dtype).name
    n = 24
    a = sample((n, n), dtype) + n * np.eye(n, dtype=dtype)
    b = sample((n, 3), dtype)
    ga, gb = cp.asarray(a), cp.asarray(b)
    x = cp.asnumpy(cp.linalg.solve(ga, gb))
    check(f"solve {name}", close(a @ x, b, tol), np.abs(a @ x - b).max())
    inv = cp.asnumpy(cp.linalg.inv(ga))
    check(f"inv {name}", close(a @ inv, np.eye(n), tol), np.abs(a @ inv - np.eye(n)).max())
    check(f"det {name}", np.isclose(complex(cp.linalg.det(ga)), complex(np.linalg.det(a)), rtol=tol * 10), (cp.linalg.det(ga), np.linalg.det(a)))
    s_c, l_c = cp.linalg.slogdet(ga)
    s_n, l_n = np.linalg.slogdet(a)
    check(f"slogdet {name}", np.isclose(complex(s_c), complex(s_n), rtol=tol * 10) and np.isclose(float(l_c), float(l_n), rtol=tol), (s_c, l_c, s_n, l_n))
    spd = a @ a.conj().T + n * np.eye(n, dtype=dtype)
    l = cp.asnumpy(cp.linalg.cholesky(cp.asarray(spd)))
    check(f"cholesky {name}", close(l @ l.conj().T, spd, tol) and np.allclose(np.triu(l, 1), 0), np.abs(l @ l.conj().T - spd).max())
    m = sample((30, 12), dtype)
    q, r = (cp.asnumpy(t) for t in cp.linalg.qr(cp.asarray(m)))
    check(f"qr {name}", close(q @ r, m, tol) and close(q.conj().T @ q, np.eye(12), tol) and np.allclose(np.tril(r, -1), 0), np.abs(q @ r - m).max())
    u, s, vh = (cp.asnumpy(t) for t in cp.linalg.svd(cp.asarray(m), full_matrices=False))
    check(f"svd {name}", close(s, np.linalg.svd(m, compute_uv=False), tol) and close((u * s) @ vh, m, tol), np.abs((u * s) @ vh - m).max())
    wide = sample((5, 9), dtype)
    check(f"svd wide {name}", close(cp.asnumpy(cp.linalg.svd(cp.asarray(wide), compute_uv=False)), np.linalg.svd(wide, compute_uv=False), tol))
    herm = (a + a.conj().T) / 2
    w, v = (cp.asnumpy(t) for t in cp.linalg.eigh(cp.asarray(herm)))
    check(f"eigh {name}", close(w, np.linalg.eigvalsh(herm), tol) and close(herm @ v, v * w, tol * 10), np.abs(herm @ v - v * w).max())
    check(f"eigvalsh {name}", close(cp.asnumpy(cp.linalg.eigvalsh(cp.asarray(herm), UPLO="U")), np.linalg.eigvalsh(herm, UPLO="U"), tol))
    rhs = sample((30,), dtype)
    sol = cp.asnumpy(cp.linalg.lstsq(cp.asarray(m), cp.asarray(rhs), rcond=None)[0])
    check(f"lstsq {name}", close(sol, np.linalg.lstsq(m, rhs, rcond=None)[0], tol * 10))
    check(f"pinv {name}", close(cp.asnumpy(cp.linalg.pinv(cp.asarray(m))), np.linalg.pinv(m), tol * 10))
    # Batched: a stack of systems (cuBLAS getrfBatched/getrsBatched path).
    stack = sample((4, 6, 6), dtype) + 6 * np.eye(6, dtype=dtype)
    rhs_s = sample((4, 6, 2), dtype)
    xs = cp.asnumpy(cp.linalg.solve(cp.asarray(stack), cp.asarray(rhs_s)))
    check(f"batched solve {name}", close(stack @ xs, rhs_s, tol))
    check(f"batched inv {name}", close(cp.asnumpy(cp.linalg.inv(cp.asarray(stack))) @ stack, np.broadcast_to(np.eye(6), stack.shape), tol))

    # General eigenproblem (cuSOLVER Xgeev): A V = V diag(w), eigenvalues as NumPy's.
    g = sample((7, 7), dtype)
    w, v = (cp.asnumpy(t) for t in cp.linalg.eig(cp.asarray(g)))
    key = lambda z: (round(z.real, 3), round(z.imag, 3))
    check(f"eig {name}", close(sorted(w, key=key), sorted(np.linalg.eigvals(g), key=key), tol * 10) and close(g @ v, v * w, tol * 10),
          np.abs(g @ v - v * w).max())
    # Batched small SVDs (cuSOLVER gesvdjBatched): singular values as NumPy's, and U S V^H = A.
    st = sample((3, 5, 4), dtype)
    u, s, vh = (cp.asnumpy(t) for t in cp.linalg.svd(cp.asarray(st), full_matrices=False))
    check(f"batched svd {name}", close(s, np.linalg.svd(st, compute_uv=False), tol) and close((u * s[:, None, :]) @ vh, st, tol * 10))
    check(f"batched pinv {name}", close(cp.asnumpy(cp.linalg.pinv(cp.asarray(st))), np.linalg.pinv(st), tol * 10))

singular = np.ones((4, 4))
try:
    cp.linalg.cholesky(cp.asarray(singular))
    # CuPy checks devInfo only when configured to; then it raises.
    check("cholesky of a singular matrix raises or returns", True)
except np.linalg.LinAlgError:
    check("cholesky of a singular matrix raises or returns", True)
check("matrix_rank", int(cp.linalg.matrix_rank(cp.asarray(singular))) == 1)

if failures:
    print(f"{len(failures)} failures: {failures}")
    raise SystemExit(1)
print("PASS cupy_linalg")
