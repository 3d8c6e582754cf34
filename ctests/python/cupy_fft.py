"""CuPy's FFTs on our stack: cupy.fft goes through our libcufft.so.11 (cuFFT plans made
with cufftMakePlan1d / cufftMakePlanMany, C2C/R2C/C2R in both precisions, batched and
strided layouts CuPy derives from the array's axes and order). Every result is checked
against NumPy's pocketfft on the host, computed in double precision."""
import numpy as np
import cupy as cp

failures = []
rng = np.random.default_rng(0)


def check(name, got, want, rtol):
    got = cp.asnumpy(got)
    scale = max(1.0, float(np.abs(want).max())) if np.size(want) else 1.0
    ok = got.shape == np.shape(want) and np.allclose(got, want, rtol=rtol, atol=rtol * scale)
    print(("PASS " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        print("  got ", got.ravel()[:6], got.shape, got.dtype, "\n  want", np.ravel(want)[:6], np.shape(want))


def sample(shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


TOL = {np.float32: 2e-5, np.complex64: 2e-5, np.float64: 1e-12, np.complex128: 1e-12}
# CuPy's result dtypes: single precision stays single.
OUT = {np.float32: np.complex64, np.complex64: np.complex64, np.float64: np.complex128, np.complex128: np.complex128}

for dtype in (np.complex64, np.complex128, np.float32, np.float64):
    tol = TOL[dtype]
    name = np.dtype(dtype).name
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    # 1D: powers of two, a prime, a length with large prime factors, batched rows.
    for shape in [(64,), (17,), (2 * 3 * 5 * 7 * 11,), (5, 24), (3, 4, 30)]:
        a = sample(shape, dtype)
        g = cp.fft.fft(cp.asarray(a))
        check(f"fft {name} {shape}", g, np.fft.fft(a.astype(wide)), tol)
        if g.dtype != OUT[dtype]:
            failures.append(f"fft dtype {name}")
        check(f"ifft {name} {shape}", cp.fft.ifft(cp.asarray(a)), np.fft.ifft(a.astype(wide)), tol)
        check(f"fft n=40 {name} {shape}", cp.fft.fft(cp.asarray(a), n=40), np.fft.fft(a.astype(wide), n=40), tol)
        check(f"fft axis=0 {name} {shape}", cp.fft.fft(cp.asarray(a), axis=0), np.fft.fft(a.astype(wide), axis=0), tol)
        check(f"fft norm=ortho {name} {shape}", cp.fft.fft(cp.asarray(a), norm="ortho"), np.fft.fft(a.astype(wide), norm="ortho"), tol)
    # Multi-dimensional, including F-ordered and non-contiguous inputs.
    for shape, axes in [((8, 6), None), ((7, 9), (0, 1)), ((4, 5, 6), None), ((3, 4, 5, 6), (1, 2, 3)), ((6, 5, 4), (0, 1))]:
        a = sample(shape, dtype)
        check(f"fftn {name} {shape} axes={axes}", cp.fft.fftn(cp.asarray(a), axes=axes), np.fft.fftn(a.astype(wide), axes=axes), tol)
        check(f"ifftn {name} {shape} axes={axes}", cp.fft.ifftn(cp.asarray(a), axes=axes), np.fft.ifftn(a.astype(wide), axes=axes), tol)
    a = sample((12, 10), dtype)
    check(f"fft2 {name}", cp.fft.fft2(cp.asarray(a)), np.fft.fft2(a.astype(wide)), tol)
    check(f"fft2 F-order {name}", cp.fft.fft2(cp.asarray(np.asfortranarray(a))), np.fft.fft2(a.astype(wide)), tol)
    check(f"ifft2 s=(8,16) {name}", cp.fft.ifft2(cp.asarray(a), s=(8, 16)), np.fft.ifft2(a.astype(wide), s=(8, 16)), tol)
    check(f"fft strided view {name}", cp.fft.fft(cp.asarray(a)[::2, 1::3]), np.fft.fft(a[::2, 1::3].astype(wide)), tol)
    # Real transforms (real dtypes: rfft; complex dtypes: irfft of a half spectrum).
    if np.dtype(dtype).kind == "f":
        for shape in [(32,), (15,), (6, 10), (4, 6, 9)]:
            a = sample(shape, dtype)
            check(f"rfft {name} {shape}", cp.fft.rfft(cp.asarray(a)), np.fft.rfft(a.astype(wide)), tol)
            check(f"rfftn {name} {shape}", cp.fft.rfftn(cp.asarray(a)), np.fft.rfftn(a.astype(wide)), tol)
            check(f"rfft2 {name} {shape}", cp.fft.rfft2(cp.asarray(a), axes=(-1,) if len(shape) == 1 else (-2, -1)),
                  np.fft.rfft2(a.astype(wide), axes=(-1,) if len(shape) == 1 else (-2, -1)), tol)
            check(f"hfft {name} {shape}", cp.fft.hfft(cp.asarray(a)), np.fft.hfft(a.astype(wide)), tol)
        a = sample((6, 8), dtype)
        check(f"rfft axis=0 {name}", cp.fft.rfft(cp.asarray(a), axis=0), np.fft.rfft(a.astype(wide), axis=0), tol)
    else:
        for shape, n in [((17,), 32), ((9,), 17), ((5, 11), 20), ((4, 6, 5), 8)]:
            a = sample(shape, dtype)
            check(f"irfft {name} {shape} n={n}", cp.fft.irfft(cp.asarray(a), n=n), np.fft.irfft(a.astype(wide), n=n), tol)
            check(f"irfftn {name} {shape}", cp.fft.irfftn(cp.asarray(a)), np.fft.irfftn(a.astype(wide)), tol)
            check(f"ihfft {name} {shape}", cp.fft.ihfft(cp.asarray(a.real.copy())), np.fft.ihfft(a.real.astype(np.float64)), tol)
        a = sample((6, 5), dtype)
        check(f"irfft2 {name}", cp.fft.irfft2(cp.asarray(a)), np.fft.irfft2(a.astype(wide)), tol)

# Round trips, a large transform, the plan cache, explicit plans and streams.
x = sample((1 << 16,), np.complex64)
check("ifft(fft(x)) 2^16", cp.fft.ifft(cp.fft.fft(cp.asarray(x))), x, 1e-5)
y = sample((1000,), np.float64)
check("irfft(rfft(y))", cp.fft.irfft(cp.fft.rfft(cp.asarray(y)), n=1000), y, 1e-12)
b = sample((16, 16), np.complex64)
with cp.cuda.Stream(non_blocking=True) as s:
    g = cp.fft.fft2(cp.asarray(b))
    s.synchronize()
check("fft2 on a non-blocking stream", g, np.fft.fft2(b.astype(np.complex128)), 2e-5)
import cupyx.scipy.fftpack as fftpack

plan = fftpack.get_fft_plan(cp.asarray(b), axes=(0, 1))
check("fftpack.fft2 with an explicit plan", fftpack.fft2(cp.asarray(b), plan=plan), np.fft.fft2(b.astype(np.complex128)), 2e-5)
# LTO callbacks (cb_ver="jit"): CuPy compiles them with our NVRTC (-dlto) and hands the
# LTO-IR to cufftXtSetJITCallback (__cufftXtSetJITCallback_12_7 under CUDA 12).
load_cb = r"""
#include <cufftXt.h>
__device__ cufftComplex triple_re(void* in, unsigned long long off, void* info, void* sh)
{
    cufftComplex x = ((cufftComplex*)in)[off];
    x.x *= 3.0f;
    return x;
}
"""
store_cb = r"""
#include <cufftXt.h>
__device__ void add_aux(void* out, unsigned long long off, cufftComplex e, void* info, void* sh)
{
    e.y += ((float*)info)[off];
    ((cufftComplex*)out)[off] = e;
}
"""
c = sample((4, 24), np.complex64)
aux = cp.arange(4 * 24, dtype=cp.float32)
with cp.fft.config.set_cufft_callbacks(cb_load=load_cb, cb_load_name="triple_re", cb_store=store_cb,
                                       cb_store_name="add_aux", cb_store_data=aux.data, cb_ver="jit"):
    got = cp.fft.fft(cp.asarray(c), axis=-1)
want = np.fft.fft((c.real * 3 + 1j * c.imag).astype(np.complex128), axis=-1) + 1j * np.arange(4 * 24).reshape(4, 24)
check("fft with LTO load and store callbacks", got, want, 2e-5)
cache = cp.fft.config.get_plan_cache()
print(f"plan cache: {cache.get_curr_size()} plans")

print(f"cuFFT version {cp.cuda.cufft.getVersion()}")
if failures:
    print(f"{len(failures)} failures: {failures}")
else:
    print("PASS cupy_fft")
