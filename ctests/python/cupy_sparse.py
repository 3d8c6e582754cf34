"""cupyx.scipy.sparse on our stack, through our libcusparse.so.12: csr/csc/coo matrices from
dense arrays (DenseToSparse), products with vectors and dense matrices (SpMV, SpMM, on CSR, CSC
and COO), sparse + sparse (csrgeam2), sparse @ sparse (SpGEMM), transpose/tocsc (Csr2cscEx2),
tocoo (csr2coo), tocsr from unsorted COO with duplicates (coosort, coo2csr), todense
(SparseToDense), sums, sort_indices (csrsort/cscsort + gather) and eliminate_zeros
(nnz_compress/csr2csr_compress). Every result is checked against NumPy on the dense matrices
(SciPy is not installed in the clients venv)."""
import numpy as np
import cupy as cp
import cupyx.scipy.sparse as sp

failures = []
rng = np.random.default_rng(5)


def check(name, ok, detail=""):
    print(("PASS " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        print("  ", detail)


def close(a, b, tol):
    a, b = (cp.asnumpy(x) if isinstance(x, cp.ndarray) else np.asarray(x) for x in (a, b))
    return a.shape == b.shape and np.allclose(a, b, rtol=tol, atol=tol * max(1.0, np.abs(b).max(initial=0)))


def sample(shape, dtype, density=0.3):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x[rng.random(shape) > density] = 0
    return x.astype(dtype)


for dtype, tol in ((np.float32, 1e-4), (np.float64, 1e-12), (np.complex64, 1e-4), (np.complex128, 1e-12)):
    name = np.dtype(dtype).name
    m, n, k = 13, 9, 5
    a, b = sample((m, n), dtype), sample((m, n), dtype)
    ga, gb = sp.csr_matrix(cp.asarray(a)), sp.csr_matrix(cp.asarray(b))
    check(f"csr from dense {name}", close(ga.toarray(), a, 0) and ga.nnz == np.count_nonzero(a) and ga.has_canonical_format, (ga.nnz, np.count_nonzero(a)))
    check(f"todense {name}", close(cp.asnumpy(ga.todense()), a, 0))
    x, xt = sample((n,), dtype, 1.0), sample((m,), dtype, 1.0)
    check(f"csr @ vector {name}", close(cp.asnumpy(ga @ cp.asarray(x)), a @ x, tol), np.abs(cp.asnumpy(ga @ cp.asarray(x)) - a @ x).max())
    check(f"csr.T @ vector {name}", close(cp.asnumpy(ga.T @ cp.asarray(xt)), a.T @ xt, tol))
    d = sample((n, k), dtype, 1.0)
    for order in "CF":
        got = cp.asnumpy(ga @ cp.asarray(d, order=order))
        check(f"csr @ dense ({order}) {name}", close(got, a @ d, tol), np.abs(got - a @ d).max())
    dt = sample((m, k), dtype, 1.0)
    check(f"csr.T @ dense {name}", close(cp.asnumpy(ga.T @ cp.asarray(dt)), a.T @ dt, tol))
    check(f"csr + csr {name}", close((ga + gb).toarray().get(), a + b, tol))
    check(f"csr - 2 csr {name}", close((ga - gb * 2).toarray().get(), a - 2 * b, tol))
    c = sample((n, k), dtype)
    gc = sp.csr_matrix(cp.asarray(c))
    prod = ga @ gc
    check(f"csr @ csr {name}", close(prod.toarray().get(), a @ c, tol) and prod.has_sorted_indices, np.abs(prod.toarray().get() - a @ c).max())
    csc = ga.tocsc()
    check(f"tocsc {name}", csc.format == "csc" and close(csc.toarray().get(), a, 0) and np.array_equal(csc.indptr.get(), np.r_[0, np.cumsum(np.count_nonzero(a, axis=0))]))
    check(f"csc @ vector {name}", close(cp.asnumpy(csc @ cp.asarray(x)), a @ x, tol))
    check(f"csc @ dense {name}", close(cp.asnumpy(csc @ cp.asarray(d)), a @ d, tol))
    check(f"csc from dense {name}", close(sp.csc_matrix(cp.asarray(a)).toarray().get(), a, 0))
    check(f"transpose {name}", close(ga.T.toarray().get(), a.T, 0) and close(ga.T.tocsr().toarray().get(), a.T, 0))
    coo = ga.tocoo()
    rows, cols = np.nonzero(a)
    check(f"tocoo {name}", np.array_equal(coo.row.get(), rows) and np.array_equal(coo.col.get(), cols) and close(coo.data.get(), a[rows, cols], 0))
    check(f"coo @ vector {name}", close(cp.asnumpy(coo @ cp.asarray(x)), a @ x, tol))
    for axis in (None, 0, 1):
        got = cp.asnumpy(ga.sum(axis=axis))
        want = a.sum(axis=axis) if axis is None else a.sum(axis=axis, keepdims=True)
        check(f"sum axis={axis} {name}", close(np.asarray(got).reshape(np.shape(want)), want, tol * 10), (got, want))

# COO with unsorted entries and duplicates -> CSR (coosort by row, coo2csr, sum_duplicates).
r = np.array([3, 0, 2, 0, 3, 1, 0])
c_ = np.array([1, 2, 0, 2, 1, 1, 0])
v = np.arange(1.0, 8.0)
dense = np.zeros((4, 3))
np.add.at(dense, (r, c_), v)
coo = sp.coo_matrix((cp.asarray(v), (cp.asarray(r, dtype=np.int32), cp.asarray(c_, dtype=np.int32))), shape=(4, 3))
csr = coo.tocsr()
check("coo with duplicates tocsr", close(csr.toarray().get(), dense, 0) and csr.nnz == np.count_nonzero(dense), (csr.toarray().get(), dense))
check("coo tocsc", close(coo.tocsc().toarray().get(), dense, 0))

# Unsorted CSR/CSC indices: sort_indices (csrsort/cscsort, then gather of the values).
indptr = np.array([0, 3, 3, 5], dtype=np.int32)
indices = np.array([4, 0, 2, 3, 1], dtype=np.int32)
data = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
want = np.zeros((3, 5))
for row in range(3):
    for e in range(indptr[row], indptr[row + 1]):
        want[row, indices[e]] = data[e]
u = sp.csr_matrix((cp.asarray(data), cp.asarray(indices), cp.asarray(indptr)), shape=(3, 5))
u.has_sorted_indices = False
u.sort_indices()
check("csr sort_indices", np.array_equal(u.indices.get(), [0, 2, 4, 1, 3]) and np.array_equal(u.data.get(), [2.0, 3.0, 1.0, 5.0, 4.0]) and close(u.toarray().get(), want, 0), (u.indices, u.data))
uc = sp.csc_matrix((cp.asarray(data), cp.asarray(indices), cp.asarray(indptr)), shape=(5, 3))
uc.has_sorted_indices = False
uc.sort_indices()
check("csc sort_indices", np.array_equal(uc.indices.get(), [0, 2, 4, 1, 3]) and close(uc.toarray().get(), want.T, 0))

# eliminate_zeros: explicit zeros dropped (nnz_compress + csr2csr_compress).
z = sp.csr_matrix((cp.asarray([1.0, 0.0, 2.0, 0.0]), cp.asarray(np.array([0, 1, 1, 2], np.int32)), cp.asarray(np.array([0, 2, 4], np.int32))), shape=(2, 3))
z.eliminate_zeros()
check("eliminate_zeros", z.nnz == 2 and np.array_equal(z.indptr.get(), [0, 1, 2]) and np.array_equal(z.indices.get(), [0, 1]), (z.indptr, z.indices, z.data))

# A larger product, on a stream other than the default one.
big = sample((300, 200), np.float64, 0.05)
vec = rng.standard_normal(200)
with cp.cuda.Stream(non_blocking=True):
    got = cp.asnumpy(sp.csr_matrix(cp.asarray(big)) @ cp.asarray(vec))
check("300x200 csr @ vector on a stream", close(got, big @ vec, 1e-12))

print(f"{len(failures)} failures" if failures else "PASS cupy_sparse")
raise SystemExit(1 if failures else 0)
