//! cuBLAS's batched LU routines over LAPACK: `getrfBatched` (LU with partial pivoting,
//! or none when the pivot array is NULL), `getrsBatched` (solve with the factors) and
//! `getriBatched` (inverse from the factors, out of place). `info` values are LAPACK's:
//! `i > 0` means `U(i,i)` is exactly zero.

use super::{ch, ensure, least_ld, Call, Elem};
use crate::operand::{matrix_elems, view, Host};
use crate::status::{fail, BlasResult, INVALID_VALUE};
use crate::types::Op;

/// Member `i` of a checked array of device pointers, as a host view of `elems`
/// elements of `T` (`None`, logged, when it is not a valid matrix).
fn member<T>(name: &str, array: Host, i: usize, elems: usize) -> Option<Host> {
    // SAFETY: the array was checked for the batch's count.
    let p = unsafe { array.ptr::<u64>().add(i).read_unaligned() };
    view::<T>(p, elems, &format!("{name}: batch member {i}")).ok()
}

/// An optional device array of `len` `i32`s (pivots, infos).
fn ints(call: &Call, p: *const i32, len: usize, what: &str) -> BlasResult<Option<Host>> {
    if p.is_null() {
        return Ok(None);
    }
    view::<i32>(p as u64, len, &format!("{}: {what}", call.name)).map(Some)
}

/// `getrfBatched`.
pub fn getrf_batched<T: Elem>(call: Call, n: i32, a: u64, lda: i32, pivots: *mut i32, infos: *mut i32, count: i32) -> BlasResult {
    ensure!(n >= 0 && count >= 0, "{}: n={n} batchSize={count}", call.name);
    ensure!(lda >= least_ld(n), "{}: lda={lda} < max(1, n={n})", call.name);
    if count == 0 {
        return Ok(());
    }
    let array = view::<u64>(a, count as usize, &format!("{}: Aarray", call.name))?;
    let piv = ints(&call, pivots, n as usize * count as usize, "PivotArray")?;
    let info =
        ints(&call, infos, count as usize, "infoArray")?.ok_or_else(|| fail(INVALID_VALUE, format_args!("{}: infoArray is NULL", call.name)))?;
    let (name, elems) = (call.name, matrix_elems(n, n, lda));
    call.queue(move |blas| {
        for i in 0..count as usize {
            let Some(m) = member::<T>(name, array, i, elems) else { continue };
            let mut status = 0;
            if n > 0 {
                match piv {
                    Some(p) => {
                        // SAFETY: the member spans n x n at lda; the pivot slice holds n ints.
                        unsafe { (T::routines(blas).getrf)(&n, &n, m.ptr(), &lda, p.ptr::<i32>().add(i * n as usize), &mut status) }
                    }
                    None => {
                        // SAFETY: the member spans `elems` elements.
                        let s = unsafe { std::slice::from_raw_parts_mut(m.ptr::<T>(), elems) };
                        status = cpu_blas::lu::unpivoted(s, n as usize, lda as usize);
                    }
                }
            }
            // SAFETY: the info array holds `count` ints.
            unsafe { info.ptr::<i32>().add(i).write(status) };
        }
    })
}

/// Pivots `1..=n` (no interchanges), for factors computed without pivoting.
fn identity_pivots(n: i32) -> Vec<i32> {
    (1..=n).collect()
}

/// `getrsBatched`: solves `op(A_i) X = B_i` with `getrf`'s factors. `info` is a host
/// pointer: 0, or `-k` when argument `k` is invalid.
///
/// # Safety
/// `info` is NULL or writable.
#[allow(clippy::too_many_arguments, reason = "cublas?getrsBatched's parameters")]
pub unsafe fn getrs_batched<T: Elem>(
    call: Call,
    trans: i32,
    n: i32,
    nrhs: i32,
    a: u64,
    lda: i32,
    pivots: *const i32,
    b: u64,
    ldb: i32,
    info: *mut i32,
    count: i32,
) -> BlasResult {
    ensure!(!info.is_null(), "{}: info is NULL", call.name);
    // The position of the first invalid argument, counted as cuBLAS does (handle = 1).
    let bad = if Op::from_c(trans).is_err() {
        2
    } else if n < 0 {
        3
    } else if nrhs < 0 {
        4
    } else if lda < least_ld(n) {
        6
    } else if ldb < least_ld(n) {
        9
    } else if count < 0 {
        11
    } else {
        0
    };
    // SAFETY: non-NULL host pointer, per the API.
    unsafe { info.write(-bad) };
    ensure!(bad == 0, "{}: argument {bad} is invalid", call.name);
    let op = Op::from_c(trans)?;
    if n == 0 || nrhs == 0 || count == 0 {
        return Ok(());
    }
    let arrays =
        [view::<u64>(a, count as usize, &format!("{}: Aarray", call.name))?, view::<u64>(b, count as usize, &format!("{}: Barray", call.name))?];
    let piv = ints(&call, pivots, n as usize * count as usize, "devIpiv")?;
    let (name, ea, eb) = (call.name, matrix_elems(n, n, lda), matrix_elems(n, nrhs, ldb));
    call.queue(move |blas| {
        let ident = identity_pivots(n);
        for i in 0..count as usize {
            let (Some(ma), Some(mb)) = (member::<T>(name, arrays[0], i, ea), member::<T>(name, arrays[1], i, eb)) else { continue };
            // SAFETY: the pivot slice holds n ints per member.
            let p = piv.map_or(ident.as_ptr(), |p| unsafe { p.ptr::<i32>().add(i * n as usize) as *const i32 });
            let (t, mut status) = (op.blas(), 0);
            // SAFETY: the members span their matrices.
            unsafe { (T::routines(blas).getrs)(ch(&t), &n, &nrhs, ma.ptr(), &lda, p, mb.ptr(), &ldb, &mut status) };
        }
    })?;
    Ok(())
}

/// `getriBatched`: `C_i = A_i^-1` from `getrf`'s factors in `A_i` (out of place).
#[allow(clippy::too_many_arguments, reason = "cublas?getriBatched's parameters")]
pub fn getri_batched<T: Elem>(call: Call, n: i32, a: u64, lda: i32, pivots: *const i32, c: u64, ldc: i32, infos: *mut i32, count: i32) -> BlasResult {
    ensure!(n >= 0 && count >= 0, "{}: n={n} batchSize={count}", call.name);
    ensure!(lda >= least_ld(n) && ldc >= least_ld(n), "{}: lda={lda} ldc={ldc} < max(1, n={n})", call.name);
    if count == 0 {
        return Ok(());
    }
    let arrays =
        [view::<u64>(a, count as usize, &format!("{}: Aarray", call.name))?, view::<u64>(c, count as usize, &format!("{}: Carray", call.name))?];
    let piv = ints(&call, pivots, n as usize * count as usize, "PivotArray")?;
    let info =
        ints(&call, infos, count as usize, "infoArray")?.ok_or_else(|| fail(INVALID_VALUE, format_args!("{}: infoArray is NULL", call.name)))?;
    let (name, ea, ec) = (call.name, matrix_elems(n, n, lda), matrix_elems(n, n, ldc));
    call.queue(move |blas| {
        let ident = identity_pivots(n);
        let one = T::one();
        for i in 0..count as usize {
            let (Some(ma), Some(mc)) = (member::<T>(name, arrays[0], i, ea), member::<T>(name, arrays[1], i, ec)) else { continue };
            let mut status = 0;
            if n > 0 {
                // C = identity, then solved in place with the factors: C = A^-1. Unlike
                // LAPACK's getri, this does not stop at an exactly zero pivot: like NVIDIA's
                // getriBatched it carries on, and a singular matrix's inverse holds inf/NaN
                // (CuPy's cond of a singular stack expects inf).
                for j in 0..n as usize {
                    for r in 0..n as usize {
                        // SAFETY: (r, j) lies inside C's checked extent.
                        unsafe { mc.ptr::<T>().add(j * ldc as usize + r).write(if r == j { one } else { T::default() }) };
                    }
                }
                // SAFETY: the pivot slice holds n ints per member.
                let p = piv.map_or(ident.as_ptr(), |p| unsafe { p.ptr::<i32>().add(i * n as usize) as *const i32 });
                let no = b'N';
                // SAFETY: A holds the factors at lda, C the n x n right-hand sides at ldc.
                unsafe { (T::routines(blas).getrs)(ch(&no), &n, &n, ma.ptr(), &lda, p, mc.ptr(), &ldc, &mut status) };
                // getri's info: the first exactly zero pivot of U.
                status = (0..n as usize).find(|&k| unsafe { ma.ptr::<T>().add(k * lda as usize + k).read() }.is_zero()).map_or(0, |k| k as i32 + 1);
            }
            // SAFETY: the info array holds `count` ints.
            unsafe { info.ptr::<i32>().add(i).write(status) };
        }
    })
}
