//! Batched forms: `gemmBatched` (arrays of device pointers), `gemmStridedBatched`,
//! `trsmBatched`. A pointer array is read when the queued work runs, since the program
//! may fill it with work queued earlier on the same stream; each matrix it names is
//! then checked like an argument, and a batch member that fails the check is skipped
//! with a log line (on NVIDIA's GPUs it would fault the kernel).

use super::level3::{stored, GemmShape, TriShape};
use super::{ensure, Call, Elem};
use crate::operand::{matrix_elems, view, Host};
use crate::status::{fail, BlasResult, INVALID_VALUE};

/// Where the members of a batch are.
#[derive(Clone, Copy)]
pub enum Members {
    /// Base addresses and element strides, checked at the call.
    Strided { base: [Host; 3], stride: [i64; 3] },
    /// Host views of three arrays of `count` device pointers.
    Pointers([Host; 3]),
}

/// The batch's member `i`: three device addresses (strided: already host addresses).
fn member(members: &Members, sizes: [usize; 3], i: usize) -> [u64; 3] {
    match members {
        Members::Strided { base, stride } => std::array::from_fn(|k| (base[k].0 as i64 + stride[k] * i as i64 * sizes[k] as i64) as u64),
        // SAFETY: each array was checked for `count` pointers.
        Members::Pointers(arrays) => std::array::from_fn(|k| unsafe { arrays[k].ptr::<u64>().add(i).read_unaligned() }),
    }
}

/// Checks a strided batch: `count` matrices of `elems` elements `stride` apart.
pub fn strided_view(call: &Call, ptr: u64, elem_size: usize, elems: usize, stride: i64, count: i32, what: &str) -> BlasResult<Host> {
    if elems == 0 {
        return Ok(Host(ptr as usize));
    }
    // A negative or overlapping stride is legal (a broadcast operand has stride 0); the
    // span is from the lowest to the highest member.
    let last = stride * (count as i64 - 1);
    let (lo, hi) = (last.min(0), last.max(0));
    let start = (ptr as i64 + lo * elem_size as i64) as u64;
    let span = (hi - lo) as usize + elems;
    let h = view::<u8>(start, span * elem_size, &format!("{}: {what}", call.name))?;
    Ok(Host((h.0 as i64 - lo * elem_size as i64) as usize))
}

/// The host views of three pointer arrays of `count` entries.
pub fn pointer_arrays(call: &Call, arrays: [u64; 3], count: i32) -> BlasResult<[Host; 3]> {
    let names = ["Aarray", "Barray", "Carray"];
    let mut out = [Host(0); 3];
    for k in 0..3 {
        ensure!(arrays[k] != 0 || count == 0, "{}: {} is NULL", call.name, names[k]);
        out[k] = view::<u64>(arrays[k], count as usize, &format!("{}: {}", call.name, names[k]))?;
    }
    Ok(out)
}

/// The host views of one pointer-array member's matrices, or `None` (logged).
pub fn member_views(name: &str, ptrs: [u64; 3], sizes: [usize; 3], extents: [usize; 3], i: usize) -> Option<[Host; 3]> {
    let mut out = [Host(0); 3];
    for k in 0..3 {
        match view::<u8>(ptrs[k], extents[k] * sizes[k], &format!("{name}: batch member {i}, matrix {k}")) {
            Ok(h) => out[k] = h,
            Err(_) => return None,
        }
    }
    Some(out)
}

/// Runs `f(i, [A, B, C])` for every member, checking pointer-array members first.
/// `sizes` are the three operands' element sizes, `extents` their element counts.
pub fn for_each_member(
    name: &'static str,
    members: Members,
    count: i32,
    sizes: [usize; 3],
    extents: [usize; 3],
    mut f: impl FnMut(usize, [Host; 3]),
) {
    for i in 0..count.max(0) as usize {
        let ptrs = member(&members, sizes, i);
        match members {
            Members::Strided { .. } => f(i, ptrs.map(|p| Host(p as usize))),
            Members::Pointers(_) => {
                if let Some(views) = member_views(name, ptrs, sizes, extents, i) {
                    f(i, views)
                }
            }
        }
    }
}

/// The element extents of `A`, `B`, `C` of a gemm shape.
pub fn gemm_extents(s: &GemmShape) -> [usize; 3] {
    let (ar, ac) = stored(s.ta, s.m, s.k);
    let (br, bc) = stored(s.tb, s.k, s.n);
    [matrix_elems(ar, ac, s.lda), matrix_elems(br, bc, s.ldb), matrix_elems(s.m, s.n, s.ldc)]
}

/// How the batch's members are given at the C boundary.
#[derive(Clone, Copy)]
pub enum BatchArgs {
    Strided { ptrs: [u64; 3], stride: [i64; 3] },
    Pointers([u64; 3]),
}

/// Checks the batch arguments against `extents` and returns the members.
pub fn members(call: &Call, args: BatchArgs, sizes: [usize; 3], extents: [usize; 3], count: i32) -> BlasResult<Members> {
    Ok(match args {
        BatchArgs::Strided { ptrs, stride } => {
            let names = ["A", "B", "C"];
            let mut base = [Host(0); 3];
            for k in 0..3 {
                base[k] = strided_view(call, ptrs[k], sizes[k], extents[k], stride[k], count, names[k])?;
            }
            Members::Strided { base, stride }
        }
        BatchArgs::Pointers(arrays) => Members::Pointers(pointer_arrays(call, arrays, count)?),
    })
}

/// `gemmBatched` / `gemmStridedBatched` for the four BLAS types.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?gemmBatched's parameters")]
pub unsafe fn gemm_batched<T: Elem>(
    call: Call,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const T,
    lds: [i32; 3],
    beta: *const T,
    args: BatchArgs,
    count: i32,
) -> BlasResult {
    let shape = GemmShape::check(call.name, transa, transb, m, n, k, lds[0], lds[1], lds[2])?;
    ensure!(count >= 0, "{}: batchCount={count}", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if shape.is_empty() || count == 0 {
        return Ok(());
    }
    let extents = gemm_extents(&shape);
    let sizes = [size_of::<T>(); 3];
    let members = members(&call, args, sizes, extents, count)?;
    let name = call.name;
    call.queue(move |blas| {
        let (al, be) = (alpha.get(), beta.get());
        // SAFETY: each member's views were checked against the shape's extents.
        for_each_member(name, members, count, sizes, extents, |_, [a, b, c]| unsafe { shape.run(blas, al, (a, b, c), be) });
    })
}

/// `trsmBatched`: `B_i = alpha op(A_i)^-1 B_i` over arrays of device pointers.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?trsmBatched's parameters")]
pub unsafe fn trsm_batched<T: Elem>(
    call: Call,
    tri: [i32; 4],
    m: i32,
    n: i32,
    alpha: *const T,
    a: u64,
    lda: i32,
    b: u64,
    ldb: i32,
    count: i32,
) -> BlasResult {
    let shape = TriShape::check(call.name, tri[0], tri[1], tri[2], tri[3], m, n, lda, ldb)?;
    ensure!(count >= 0, "{}: batchCount={count}", call.name);
    // SAFETY: forwarded.
    let alpha = unsafe { call.scalar(alpha, "alpha") }?;
    if m == 0 || n == 0 || count == 0 {
        return Ok(());
    }
    let ka = shape.ka();
    // B doubles as the third array: its extent is checked twice, harmlessly.
    let extents = [matrix_elems(ka, ka, lda), matrix_elems(m, n, ldb), matrix_elems(m, n, ldb)];
    let arrays = pointer_arrays(&call, [a, b, b], count).map_err(|_| fail(INVALID_VALUE, format_args!("{}: bad pointer arrays", call.name)))?;
    let name = call.name;
    call.queue(move |blas| {
        let al = alpha.get();
        // SAFETY: each member's views were checked.
        for_each_member(name, Members::Pointers(arrays), count, [size_of::<T>(); 3], extents, |_, [a, b, _]| unsafe {
            shape.run::<T>(blas, true, al, a, b)
        });
    })
}

/// The per-group arguments of the grouped batched GEMMs, host arrays of `group_count`.
pub struct Groups {
    pub transa: *const i32,
    pub transb: *const i32,
    pub m: *const i32,
    pub n: *const i32,
    pub k: *const i32,
    pub lda: *const i32,
    pub ldb: *const i32,
    pub ldc: *const i32,
    pub size: *const i32,
    pub count: i32,
}

/// One group's arguments and the index of its first problem.
pub struct Group {
    pub transa: i32,
    pub transb: i32,
    pub mnk: [i32; 3],
    pub lds: [i32; 3],
    pub size: i32,
    pub first: usize,
}

impl Groups {
    /// Reads the host arrays, group by group.
    ///
    /// # Safety
    /// Every array holds `count` ints.
    pub unsafe fn read(&self, name: &str) -> BlasResult<Vec<Group>> {
        ensure!(self.count >= 0, "{name}: group_count={}", self.count);
        let arrays = [self.transa, self.transb, self.m, self.n, self.k, self.lda, self.ldb, self.ldc, self.size];
        ensure!(self.count == 0 || arrays.iter().all(|p| !p.is_null()), "{name}: a NULL argument array");
        let mut first = 0usize;
        let mut out = Vec::with_capacity(self.count as usize);
        for g in 0..self.count as usize {
            // SAFETY: per the contract.
            let v: [i32; 9] = arrays.map(|p| unsafe { p.add(g).read() });
            ensure!(v[8] >= 0, "{name}: group_size[{g}]={}", v[8]);
            out.push(Group { transa: v[0], transb: v[1], mnk: [v[2], v[3], v[4]], lds: [v[5], v[6], v[7]], size: v[8], first });
            first += v[8] as usize;
        }
        Ok(out)
    }
}
