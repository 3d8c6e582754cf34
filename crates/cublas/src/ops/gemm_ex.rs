//! The mixed-precision GEMMs: `cublasGemmEx`, `cublasGemmBatchedEx`,
//! `cublasGemmStridedBatchedEx`, `cublasSgemmEx`, `cublasHgemm*`.
//!
//! The operands' storage types and the compute type pick an engine: half, bfloat16,
//! int8 and single inputs are widened to `f32` (products of `f16`/`bf16` are exact in
//! `f32`, as on tensor cores; accumulation is in `f32`, which cuBLAS documents as the
//! 32F compute types' and allows for `CUBLAS_COMPUTE_16F`), doubles and int32 GEMMs
//! run in `f64` (int8 products summed in `f64` are exact up to 2^53), complex ones in
//! `c32`/`c64`. Results are rounded to the output type (to nearest even). The
//! combinations cuBLAS documents are accepted; others are `CUBLAS_STATUS_NOT_SUPPORTED`.

use half::{bf16, f16};

use super::batched::{for_each_member, gemm_extents, members, BatchArgs};
use super::level3::{stored, GemmShape};
use super::{ensure, Call, Elem, C32, C64};
use crate::operand::{view, Host};
use crate::status::{fail, BlasResult, INVALID_VALUE, NOT_SUPPORTED};
use crate::types::{compute_type as ct, data_type as dt, PointerMode};

/// How an operand or scalar is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    F16,
    BF16,
    F32,
    F64,
    I8,
    I32,
    C32,
    C64,
}

impl Storage {
    pub fn from_c(v: i32) -> Option<Storage> {
        Some(match v {
            dt::R_16F => Storage::F16,
            dt::R_16BF => Storage::BF16,
            dt::R_32F => Storage::F32,
            dt::R_64F => Storage::F64,
            dt::R_8I => Storage::I8,
            dt::R_32I => Storage::I32,
            dt::C_32F => Storage::C32,
            dt::C_64F => Storage::C64,
            _ => return None,
        })
    }

    pub fn size(self) -> usize {
        match self {
            Storage::I8 => 1,
            Storage::F16 | Storage::BF16 => 2,
            Storage::F32 | Storage::I32 => 4,
            Storage::F64 | Storage::C32 => 8,
            Storage::C64 => 16,
        }
    }

    /// Reads one element as `(re, im)`.
    ///
    /// # Safety
    /// `p` points at one element of this storage.
    pub unsafe fn load(self, p: *const u8) -> (f64, f64) {
        // SAFETY: per the contract (unaligned reads: operands need only element alignment).
        unsafe {
            match self {
                Storage::F16 => (f16::from_bits(p.cast::<u16>().read_unaligned()).to_f64(), 0.0),
                Storage::BF16 => (bf16::from_bits(p.cast::<u16>().read_unaligned()).to_f64(), 0.0),
                Storage::F32 => (p.cast::<f32>().read_unaligned() as f64, 0.0),
                Storage::F64 => (p.cast::<f64>().read_unaligned(), 0.0),
                Storage::I8 => (p.cast::<i8>().read() as f64, 0.0),
                Storage::I32 => (p.cast::<i32>().read_unaligned() as f64, 0.0),
                Storage::C32 => {
                    let v = p.cast::<C32>().read_unaligned();
                    (v[0] as f64, v[1] as f64)
                }
                Storage::C64 => {
                    let v = p.cast::<C64>().read_unaligned();
                    (v[0], v[1])
                }
            }
        }
    }

    /// Writes one element, rounding to nearest even (integers: to nearest, wrapping).
    ///
    /// # Safety
    /// `p` points at one writable element of this storage.
    pub unsafe fn store(self, p: *mut u8, (re, im): (f64, f64)) {
        // SAFETY: per the contract.
        unsafe {
            match self {
                Storage::F16 => p.cast::<u16>().write_unaligned(f16::from_f64(re).to_bits()),
                Storage::BF16 => p.cast::<u16>().write_unaligned(bf16::from_f64(re).to_bits()),
                Storage::F32 => p.cast::<f32>().write_unaligned(re as f32),
                Storage::F64 => p.cast::<f64>().write_unaligned(re),
                Storage::I8 => p.cast::<i8>().write(re.round_ties_even() as i64 as i8),
                Storage::I32 => p.cast::<i32>().write_unaligned(re.round_ties_even() as i64 as i32),
                Storage::C32 => p.cast::<C32>().write_unaligned([re as f32, im as f32]),
                Storage::C64 => p.cast::<C64>().write_unaligned([re, im]),
            }
        }
    }
}

/// The arithmetic a GEMM runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    S,
    D,
    C,
    Z,
}

/// The storages of `A`, `B`, `C` and of the scalars, and the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExTypes {
    pub a: Storage,
    pub b: Storage,
    pub c: Storage,
    pub scalar: Storage,
    pub engine: Engine,
}

/// cuBLAS's table of `cublasGemmEx` type combinations; `compute` is a
/// `cublasComputeType_t` or, as cuBLAS 10 took it, a `cudaDataType_t`.
pub fn ex_types(name: &str, atype: i32, btype: i32, ctype: i32, compute: i32) -> BlasResult<ExTypes> {
    use Storage as S;
    let unsupported = || {
        fail(NOT_SUPPORTED, format_args!("{name}: Atype={atype} Btype={btype} Ctype={ctype} computeType={compute} is not a supported combination"))
    };
    let (a, b, c) = match (Storage::from_c(atype), Storage::from_c(btype), Storage::from_c(ctype)) {
        (Some(a), Some(b), Some(c)) if a == b => (a, b, c),
        _ => return Err(unsupported()),
    };
    let compute = match compute {
        dt::R_32F | dt::C_32F => ct::COMPUTE_32F,
        dt::R_64F | dt::C_64F => ct::COMPUTE_64F,
        dt::R_16F => ct::COMPUTE_16F,
        dt::R_32I => ct::COMPUTE_32I,
        other => other,
    };
    let (scalar, engine) = match (compute, a, c) {
        (ct::COMPUTE_16F | ct::COMPUTE_16F_PEDANTIC, S::F16, S::F16) => (S::F16, Engine::S),
        (ct::COMPUTE_32F | ct::COMPUTE_32F_PEDANTIC, S::F16 | S::BF16, x) if x == a || x == S::F32 => (S::F32, Engine::S),
        (ct::COMPUTE_32F | ct::COMPUTE_32F_PEDANTIC, S::I8, S::F32) => (S::F32, Engine::S),
        (
            ct::COMPUTE_32F | ct::COMPUTE_32F_PEDANTIC | ct::COMPUTE_32F_FAST_16F | ct::COMPUTE_32F_FAST_16BF | ct::COMPUTE_32F_FAST_TF32,
            S::F32,
            S::F32,
        ) => (S::F32, Engine::S),
        (
            ct::COMPUTE_32F | ct::COMPUTE_32F_PEDANTIC | ct::COMPUTE_32F_FAST_16F | ct::COMPUTE_32F_FAST_16BF | ct::COMPUTE_32F_FAST_TF32,
            S::C32,
            S::C32,
        ) => (S::C32, Engine::C),
        (ct::COMPUTE_64F | ct::COMPUTE_64F_PEDANTIC, S::F64, S::F64) => (S::F64, Engine::D),
        (ct::COMPUTE_64F | ct::COMPUTE_64F_PEDANTIC, S::C64, S::C64) => (S::C64, Engine::Z),
        (ct::COMPUTE_32I | ct::COMPUTE_32I_PEDANTIC, S::I8, S::I32) => (S::I32, Engine::D),
        _ => return Err(unsupported()),
    };
    Ok(ExTypes { a, b, c, scalar, engine })
}

/// A scalar of any storage, read per the pointer mode.
#[derive(Clone, Copy)]
pub enum RawScalar {
    Value((f64, f64)),
    Device(Host, Storage),
}

impl RawScalar {
    /// # Safety
    /// In host mode a non-NULL `p` points at one scalar of `storage`.
    pub unsafe fn new(call: &Call, p: *const u8, storage: Storage, what: &str) -> BlasResult<RawScalar> {
        if p.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("{}: {what} is NULL", call.name)));
        }
        Ok(match call.state.pointer_mode {
            // SAFETY: per the contract.
            PointerMode::Host => RawScalar::Value(unsafe { storage.load(p) }),
            PointerMode::Device => RawScalar::Device(view::<u8>(p as u64, storage.size(), &format!("{}: {what}", call.name))?, storage),
        })
    }

    pub fn get(&self) -> (f64, f64) {
        match *self {
            RawScalar::Value(v) => v,
            // SAFETY: `view` checked one scalar there.
            RawScalar::Device(h, s) => unsafe { s.load(h.ptr()) },
        }
    }
}

/// An engine element built from `(re, im)`.
trait FromPair: Elem {
    fn from_pair(v: (f64, f64)) -> Self;
    fn to_pair(self) -> (f64, f64);
}
impl FromPair for f32 {
    fn from_pair(v: (f64, f64)) -> Self {
        v.0 as f32
    }
    fn to_pair(self) -> (f64, f64) {
        (self as f64, 0.0)
    }
}
impl FromPair for f64 {
    fn from_pair(v: (f64, f64)) -> Self {
        v.0
    }
    fn to_pair(self) -> (f64, f64) {
        (self, 0.0)
    }
}
impl FromPair for C32 {
    fn from_pair(v: (f64, f64)) -> Self {
        [v.0 as f32, v.1 as f32]
    }
    fn to_pair(self) -> (f64, f64) {
        (self[0] as f64, self[1] as f64)
    }
}
impl FromPair for C64 {
    fn from_pair(v: (f64, f64)) -> Self {
        [v.0, v.1]
    }
    fn to_pair(self) -> (f64, f64) {
        (self[0], self[1])
    }
}

/// Copies a stored `rows` x `cols` matrix into a dense engine-typed one.
///
/// # Safety
/// `p` spans the matrix with leading dimension `ld`.
unsafe fn gather<E: FromPair>(p: Host, s: Storage, rows: i32, cols: i32, ld: i32) -> Vec<E> {
    let mut out = Vec::with_capacity(rows as usize * cols as usize);
    for j in 0..cols as usize {
        for i in 0..rows as usize {
            // SAFETY: (i, j) is inside the matrix.
            out.push(E::from_pair(unsafe { s.load(p.ptr::<u8>().add((j * ld as usize + i) * s.size())) }));
        }
    }
    out
}

/// One GEMM in the engine `E`: widen, multiply, round back into `C`.
///
/// # Safety
/// The views span the shape's matrices in the given storages.
unsafe fn run_in<E: FromPair>(blas: &cpu_blas::OpenBlas, sh: &GemmShape, ty: &ExTypes, alpha: (f64, f64), beta: (f64, f64), [a, b, c]: [Host; 3]) {
    let (ar, ac) = stored(sh.ta, sh.m, sh.k);
    let (br, bc) = stored(sh.tb, sh.k, sh.n);
    // SAFETY: per the contract.
    let (wa, wb, mut wc) =
        unsafe { (gather::<E>(a, ty.a, ar, ac, sh.lda), gather::<E>(b, ty.b, br, bc, sh.ldb), gather::<E>(c, ty.c, sh.m, sh.n, sh.ldc)) };
    let dense = GemmShape { lda: ar.max(1), ldb: br.max(1), ldc: sh.m.max(1), ..*sh };
    let views = (Host(wa.as_ptr() as usize), Host(wb.as_ptr() as usize), Host(wc.as_mut_ptr() as usize));
    // SAFETY: the dense copies have the dense shape.
    unsafe { dense.run::<E>(blas, E::from_pair(alpha), views, E::from_pair(beta)) };
    for j in 0..sh.n as usize {
        for i in 0..sh.m as usize {
            let v = wc[j * sh.m as usize + i].to_pair();
            // SAFETY: (i, j) is inside C.
            unsafe { ty.c.store(c.ptr::<u8>().add((j * sh.ldc as usize + i) * ty.c.size()), v) };
        }
    }
}

/// Runs one member in the types' engine.
///
/// # Safety
/// As [`run_in`].
pub(crate) unsafe fn run(blas: &cpu_blas::OpenBlas, sh: &GemmShape, ty: &ExTypes, alpha: (f64, f64), beta: (f64, f64), views: [Host; 3]) {
    // SAFETY: forwarded.
    unsafe {
        match ty.engine {
            Engine::S => run_in::<f32>(blas, sh, ty, alpha, beta, views),
            Engine::D => run_in::<f64>(blas, sh, ty, alpha, beta, views),
            Engine::C => run_in::<C32>(blas, sh, ty, alpha, beta, views),
            Engine::Z => run_in::<C64>(blas, sh, ty, alpha, beta, views),
        }
    }
}

/// The arguments of the Ex GEMMs, after the handle.
pub struct ExArgs {
    pub transa: i32,
    pub transb: i32,
    pub m: i32,
    pub n: i32,
    pub k: i32,
    pub alpha: *const u8,
    pub beta: *const u8,
    pub lds: [i32; 3],
    pub types: [i32; 4],
    /// `None`: one GEMM at `ptrs` (as a strided batch of one).
    pub batch: BatchArgs,
    pub count: i32,
}

/// `cublasGemmEx` and its batched forms.
///
/// # Safety
/// Host-mode scalars must be readable.
pub unsafe fn gemm_ex(call: Call, x: ExArgs) -> BlasResult {
    let shape = GemmShape::check(call.name, x.transa, x.transb, x.m, x.n, x.k, x.lds[0], x.lds[1], x.lds[2])?;
    let ty = ex_types(call.name, x.types[0], x.types[1], x.types[2], x.types[3])?;
    ensure!(x.count >= 0, "{}: batchCount={}", call.name, x.count);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (RawScalar::new(&call, x.alpha, ty.scalar, "alpha")?, RawScalar::new(&call, x.beta, ty.scalar, "beta")?) };
    if shape.is_empty() || x.count == 0 {
        return Ok(());
    }
    let extents = gemm_extents(&shape);
    let sizes = [ty.a.size(), ty.b.size(), ty.c.size()];
    let members = members(&call, x.batch, sizes, extents, x.count)?;
    let (name, count) = (call.name, x.count);
    call.queue(move |blas| {
        let (al, be) = (alpha.get(), beta.get());
        // SAFETY: each member's views were checked for the shape and storages.
        for_each_member(name, members, count, sizes, extents, |_, views| unsafe { run(blas, &shape, &ty, al, be, views) });
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_combinations_pick_engines_and_scalars() {
        use Storage as S;
        let ok = |a, c, comp| ex_types("t", a, a, c, comp).map(|t| (t.scalar, t.engine));
        assert_eq!(ok(dt::R_16F, dt::R_16F, ct::COMPUTE_16F), Ok((S::F16, Engine::S)));
        assert_eq!(ok(dt::R_16F, dt::R_16F, ct::COMPUTE_32F), Ok((S::F32, Engine::S)));
        assert_eq!(ok(dt::R_16BF, dt::R_32F, ct::COMPUTE_32F), Ok((S::F32, Engine::S)));
        assert_eq!(ok(dt::R_32F, dt::R_32F, ct::COMPUTE_32F_FAST_TF32), Ok((S::F32, Engine::S)));
        assert_eq!(ok(dt::R_64F, dt::R_64F, ct::COMPUTE_64F), Ok((S::F64, Engine::D)));
        assert_eq!(ok(dt::C_32F, dt::C_32F, dt::C_32F), Ok((S::C32, Engine::C)));
        assert_eq!(ok(dt::R_8I, dt::R_32I, ct::COMPUTE_32I), Ok((S::I32, Engine::D)));
        assert_eq!(ok(dt::R_32F, dt::R_32F, dt::R_32F), Ok((S::F32, Engine::S)));
        for (a, c, comp) in [(dt::R_16F, dt::R_32F, ct::COMPUTE_16F), (dt::R_64F, dt::R_64F, ct::COMPUTE_32F), (dt::R_8I, dt::R_8I, ct::COMPUTE_32I)]
        {
            assert_eq!(ok(a, c, comp), Err(NOT_SUPPORTED), "{a} {c} {comp}");
        }
        assert_eq!(ex_types("t", dt::R_16F, dt::R_32F, dt::R_32F, ct::COMPUTE_32F).map(|t| t.engine), Err(NOT_SUPPORTED));
    }

    #[test]
    fn stores_round_to_nearest_even() {
        let mut b = [0u8; 2];
        // 1 + 2^-11 is halfway between two halves: ties go to the even one, 1.0.
        unsafe { Storage::F16.store(b.as_mut_ptr(), (1.0 + 2f64.powi(-11), 0.0)) };
        assert_eq!(u16::from_le_bytes(b), 0x3c00);
        unsafe { Storage::F16.store(b.as_mut_ptr(), (1.0 + 3.0 * 2f64.powi(-11), 0.0)) };
        assert_eq!(u16::from_le_bytes(b), 0x3c02);
    }
}
