//! OpenBLAS's BLAS and LAPACK entry points, opened at run time.
//!
//! The Fortran interface (`sgemm_`, ...) is column-major like cuBLAS and passes every
//! argument by reference, so one function type serves the four element types; the
//! reductions come from CBLAS, whose results are returned by value. OpenBLAS is opened
//! with `dlopen` rather than linked so that a process lacking it still loads
//! libcublas (CuPy imports it eagerly) and `cublasCreate` says what is missing.
//! The CBLAS/BLAS integer is 32-bit (Debian's LP64 build).

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

use crate::lapack::lapack;
use crate::level2::level2;

/// `?rotg_(a, b, c, s)`.
pub type RotgFn = unsafe extern "C" fn(M, M, M, M);
/// `?rotm_(n, x, incx, y, incy, param)`.
pub type RotmFn = unsafe extern "C" fn(I, M, I, M, I, P);
/// `?rotmg_(d1, d2, x1, y1, param)`.
pub type RotmgFn = unsafe extern "C" fn(M, M, M, P, M);

/// Plane rotations beyond `rot`.
pub struct Rotations {
    pub rotg: [RotgFn; 4],
    pub rotm: [RotmFn; 2],
    pub rotmg: [RotmgFn; 2],
    /// `crot_`/`zrot_`: complex vectors, real `c`, complex `s`.
    pub complex_rot: [RotFn; 2],
}

type P = *const c_void;
type M = *mut c_void;
type Ch = *const c_char;
type I = *const c_int;

pub type GemmFn = unsafe extern "C" fn(Ch, Ch, I, I, I, P, P, I, P, I, P, M, I);
pub type GemvFn = unsafe extern "C" fn(Ch, I, I, P, P, I, P, I, P, M, I);
pub type GerFn = unsafe extern "C" fn(I, I, P, P, I, P, I, M, I);
pub type SyrkFn = unsafe extern "C" fn(Ch, Ch, I, I, P, P, I, P, M, I);
pub type Syr2kFn = unsafe extern "C" fn(Ch, Ch, I, I, P, P, I, P, I, P, M, I);
pub type SymmFn = unsafe extern "C" fn(Ch, Ch, I, I, P, P, I, P, I, P, M, I);
pub type TrsmFn = unsafe extern "C" fn(Ch, Ch, Ch, Ch, I, I, P, P, I, M, I);
pub type TrsvFn = unsafe extern "C" fn(Ch, Ch, Ch, I, P, I, M, I);
pub type SymvFn = unsafe extern "C" fn(Ch, I, P, P, I, P, I, P, M, I);
pub type SbmvFn = unsafe extern "C" fn(Ch, I, I, P, P, I, P, I, P, M, I);
pub type AxpyFn = unsafe extern "C" fn(I, P, P, I, M, I);
pub type ScalFn = unsafe extern "C" fn(I, P, M, I);
pub type CopyFn = unsafe extern "C" fn(I, P, I, M, I);
pub type SwapFn = unsafe extern "C" fn(I, M, I, M, I);
pub type RotFn = unsafe extern "C" fn(I, M, I, M, I, P, P);
pub type GetrfFn = unsafe extern "C" fn(I, I, M, I, *mut c_int, *mut c_int);
pub type GetrsFn = unsafe extern "C" fn(Ch, I, I, P, I, *const c_int, M, I, *mut c_int);
pub type GetriFn = unsafe extern "C" fn(I, M, I, *const c_int, M, I, *mut c_int);

/// The routines of one element type (prefix `s`, `d`, `c` or `z`).
pub struct Routines {
    pub gemm: GemmFn,
    pub gemv: GemvFn,
    /// `?ger_` for real types, `?geru_` for complex ones.
    pub geru: GerFn,
    /// `?gerc_` (complex types only).
    pub gerc: Option<GerFn>,
    pub syrk: SyrkFn,
    /// `?herk_` (complex types only; real `alpha`/`beta`).
    pub herk: Option<SyrkFn>,
    pub syr2k: Syr2kFn,
    pub her2k: Option<Syr2kFn>,
    pub symm: SymmFn,
    pub hemm: Option<SymmFn>,
    pub trsm: TrsmFn,
    pub trmm: TrsmFn,
    pub trsv: TrsvFn,
    pub trmv: TrsvFn,
    /// `?symv_` for real types, `?hemv_` for complex ones.
    pub symv: SymvFn,
    /// `?sbmv_` for real types, `?hbmv_` for complex ones.
    pub sbmv: SbmvFn,
    pub axpy: AxpyFn,
    pub scal: ScalFn,
    /// `csscal_`/`zdscal_`: a complex vector times a real scalar.
    pub real_scal: Option<ScalFn>,
    pub copy: CopyFn,
    pub swap: SwapFn,
    /// `srot_`/`drot_`/`csrot_`/`zdrot_` (real `c` and `s`).
    pub rot: RotFn,
    pub getrf: GetrfFn,
    pub getrs: GetrsFn,
    pub getri: GetriFn,
}

/// CBLAS reductions, typed per element type (`CBLAS_INDEX` is `size_t`).
pub struct Reductions {
    pub sdot: unsafe extern "C" fn(c_int, *const f32, c_int, *const f32, c_int) -> f32,
    pub ddot: unsafe extern "C" fn(c_int, *const f64, c_int, *const f64, c_int) -> f64,
    pub cdotu: unsafe extern "C" fn(c_int, P, c_int, P, c_int, M),
    pub cdotc: unsafe extern "C" fn(c_int, P, c_int, P, c_int, M),
    pub zdotu: unsafe extern "C" fn(c_int, P, c_int, P, c_int, M),
    pub zdotc: unsafe extern "C" fn(c_int, P, c_int, P, c_int, M),
    pub snrm2: unsafe extern "C" fn(c_int, P, c_int) -> f32,
    pub dnrm2: unsafe extern "C" fn(c_int, P, c_int) -> f64,
    pub scnrm2: unsafe extern "C" fn(c_int, P, c_int) -> f32,
    pub dznrm2: unsafe extern "C" fn(c_int, P, c_int) -> f64,
    pub sasum: unsafe extern "C" fn(c_int, P, c_int) -> f32,
    pub dasum: unsafe extern "C" fn(c_int, P, c_int) -> f64,
    pub scasum: unsafe extern "C" fn(c_int, P, c_int) -> f32,
    pub dzasum: unsafe extern "C" fn(c_int, P, c_int) -> f64,
    /// `cblas_i?amax` / `cblas_i?amin` by prefix index (s, d, c, z): 0-based.
    pub iamax: [unsafe extern "C" fn(c_int, P, c_int) -> usize; 4],
    pub iamin: [unsafe extern "C" fn(c_int, P, c_int) -> usize; 4],
}

/// The opened library.
pub struct OpenBlas {
    _lib: libloading::Library,
    /// Routines by prefix: `s`, `d`, `c`, `z`.
    pub routines: [Routines; 4],
    pub reductions: Reductions,
    /// LAPACK by prefix: `s`, `d`, `c`, `z`.
    pub lapack: [crate::lapack::Lapack; 4],
    /// Level 2's banded, packed and rank-update routines by prefix.
    pub level2: [crate::level2::Level2; 4],
    /// The plane rotation generators and modified rotations (`rotg` for every prefix;
    /// `rotm`/`rotmg` for `s`, `d` only), and `crot_`/`zrot_` (complex `s`).
    pub rotations: Rotations,
}

// SAFETY: function addresses of a library that stays loaded for the process's life.
unsafe impl Send for OpenBlas {}
unsafe impl Sync for OpenBlas {}

/// The names tried, in order (Debian's runtime package installs the first).
const LIBRARY_NAMES: [&str; 2] = ["libopenblas.so.0", "libopenblas.so"];

pub(crate) fn get<T: Copy>(lib: &libloading::Library, name: &str) -> Result<T, String> {
    let mut symbol = name.as_bytes().to_vec();
    symbol.push(0);
    // SAFETY: each caller names a BLAS/LAPACK/CBLAS routine whose C signature is `T`.
    unsafe { lib.get::<T>(&symbol).map(|s| *s).map_err(|e| format!("OpenBLAS lacks {name}: {e}")) }
}

fn routines(lib: &libloading::Library, p: char) -> Result<Routines, String> {
    let complex = matches!(p, 'c' | 'z');
    let n = |base: &str| format!("{p}{base}_");
    let opt = |base: &str| -> Result<Option<GerFn>, String> {
        if complex {
            get(lib, &n(base)).map(Some)
        } else {
            Ok(None)
        }
    };
    let real_prefix = if p == 'c' {
        "cs"
    } else if p == 'z' {
        "zd"
    } else {
        ""
    };
    Ok(Routines {
        gemm: get(lib, &n("gemm"))?,
        gemv: get(lib, &n("gemv"))?,
        geru: get(lib, &n(if complex { "geru" } else { "ger" }))?,
        gerc: opt("gerc")?,
        syrk: get(lib, &n("syrk"))?,
        herk: if complex { Some(get(lib, &n("herk"))?) } else { None },
        syr2k: get(lib, &n("syr2k"))?,
        her2k: if complex { Some(get(lib, &n("her2k"))?) } else { None },
        symm: get(lib, &n("symm"))?,
        hemm: if complex { Some(get(lib, &n("hemm"))?) } else { None },
        trsm: get(lib, &n("trsm"))?,
        trmm: get(lib, &n("trmm"))?,
        trsv: get(lib, &n("trsv"))?,
        trmv: get(lib, &n("trmv"))?,
        symv: get(lib, &n(if complex { "hemv" } else { "symv" }))?,
        sbmv: get(lib, &n(if complex { "hbmv" } else { "sbmv" }))?,
        axpy: get(lib, &n("axpy"))?,
        scal: get(lib, &n("scal"))?,
        real_scal: if complex { Some(get(lib, &format!("{real_prefix}scal_"))?) } else { None },
        copy: get(lib, &n("copy"))?,
        swap: get(lib, &n("swap"))?,
        rot: get(lib, &if complex { format!("{real_prefix}rot_") } else { n("rot") })?,
        getrf: get(lib, &n("getrf"))?,
        getrs: get(lib, &n("getrs"))?,
        getri: get(lib, &n("getri"))?,
    })
}

impl OpenBlas {
    fn open() -> Result<OpenBlas, String> {
        let mut errors = Vec::new();
        let lib = LIBRARY_NAMES
            .iter()
            // SAFETY: OpenBLAS's initializers only set up its thread pool.
            .find_map(|name| unsafe { libloading::Library::new(name) }.map_err(|e| errors.push(e.to_string())).ok())
            .ok_or_else(|| format!("cannot open OpenBLAS ({}); install Debian's libopenblas0-pthread", errors.join("; ")))?;
        let reductions = Reductions {
            sdot: get(&lib, "cblas_sdot")?,
            ddot: get(&lib, "cblas_ddot")?,
            cdotu: get(&lib, "cblas_cdotu_sub")?,
            cdotc: get(&lib, "cblas_cdotc_sub")?,
            zdotu: get(&lib, "cblas_zdotu_sub")?,
            zdotc: get(&lib, "cblas_zdotc_sub")?,
            snrm2: get(&lib, "cblas_snrm2")?,
            dnrm2: get(&lib, "cblas_dnrm2")?,
            scnrm2: get(&lib, "cblas_scnrm2")?,
            dznrm2: get(&lib, "cblas_dznrm2")?,
            sasum: get(&lib, "cblas_sasum")?,
            dasum: get(&lib, "cblas_dasum")?,
            scasum: get(&lib, "cblas_scasum")?,
            dzasum: get(&lib, "cblas_dzasum")?,
            iamax: [get(&lib, "cblas_isamax")?, get(&lib, "cblas_idamax")?, get(&lib, "cblas_icamax")?, get(&lib, "cblas_izamax")?],
            iamin: [get(&lib, "cblas_isamin")?, get(&lib, "cblas_idamin")?, get(&lib, "cblas_icamin")?, get(&lib, "cblas_izamin")?],
        };
        let routines = [routines(&lib, 's')?, routines(&lib, 'd')?, routines(&lib, 'c')?, routines(&lib, 'z')?];
        let lapack = [lapack(&lib, 's')?, lapack(&lib, 'd')?, lapack(&lib, 'c')?, lapack(&lib, 'z')?];
        let level2 = [level2(&lib, 's')?, level2(&lib, 'd')?, level2(&lib, 'c')?, level2(&lib, 'z')?];
        let rotations = Rotations {
            rotg: [get(&lib, "srotg_")?, get(&lib, "drotg_")?, get(&lib, "crotg_")?, get(&lib, "zrotg_")?],
            rotm: [get(&lib, "srotm_")?, get(&lib, "drotm_")?],
            rotmg: [get(&lib, "srotmg_")?, get(&lib, "drotmg_")?],
            complex_rot: [get(&lib, "crot_")?, get(&lib, "zrot_")?],
        };
        Ok(OpenBlas { _lib: lib, routines, reductions, lapack, level2, rotations })
    }
}

/// The process's OpenBLAS, opened at the first call; `Err` says why it cannot be.
pub fn openblas() -> Result<&'static OpenBlas, &'static str> {
    static LIB: OnceLock<Result<OpenBlas, String>> = OnceLock::new();
    LIB.get_or_init(OpenBlas::open).as_ref().map_err(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_routine_resolves_and_sgemm_multiplies() {
        let blas = openblas().expect("OpenBLAS (scripts/bootstrap.sh installs it)");
        // [1 3; 2 4] * [5 7; 6 8] in column-major order.
        let (a, b, mut c) = ([1f32, 2., 3., 4.], [5f32, 6., 7., 8.], [0f32; 4]);
        let (two, one, zero) = (2, 1f32, 0f32);
        // SAFETY: 2x2 column-major matrices with leading dimension 2.
        unsafe {
            (blas.routines[0].gemm)(
                c"N".as_ptr(),
                c"N".as_ptr(),
                &two,
                &two,
                &two,
                (&one as *const f32).cast(),
                a.as_ptr().cast(),
                &two,
                b.as_ptr().cast(),
                &two,
                (&zero as *const f32).cast(),
                c.as_mut_ptr().cast(),
                &two,
            )
        };
        assert_eq!(c, [23., 34., 31., 46.]);
    }
}
