//! The library's opaque objects: `cusparseHandle_t`, `cusparseMatDescr_t`, the generic
//! API's descriptors (`cusparseSpMatDescr_t`, `cusparseSpVecDescr_t`,
//! `cusparseDnVecDescr_t`, `cusparseDnMatDescr_t`, `cusparseSpGEMMDescr_t`) and the
//! preconditioners' info objects.
//!
//! Each is the address of an allocation recorded in one registry with its kind, so a
//! stale, foreign or wrong-kind handle is recognized instead of dereferenced.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use crate::status::{fail, SparseResult, INVALID_VALUE, NOT_INITIALIZED};

/// `cusparseFormat_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csr = 1,
    Csc = 2,
    Coo = 3,
}

/// `cusparseIndexType_t` (16U is accepted in descriptors and refused by the operations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexType {
    U16 = 1,
    I32 = 2,
    I64 = 3,
}

impl IndexType {
    pub fn from_c(v: i32) -> SparseResult<IndexType> {
        match v {
            1 => Ok(IndexType::U16),
            2 => Ok(IndexType::I32),
            3 => Ok(IndexType::I64),
            _ => Err(fail(INVALID_VALUE, format_args!("invalid cusparseIndexType_t {v}"))),
        }
    }

    pub fn bytes(self) -> usize {
        match self {
            IndexType::U16 => 2,
            IndexType::I32 => 4,
            IndexType::I64 => 8,
        }
    }
}

/// `cusparseSpMatDescr_t`. `ptr0` is the row offsets (CSR), column offsets (CSC) or row
/// indices (COO); `ptr1` the column (CSR, COO) or row (CSC) indices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpMat {
    pub format: Format,
    pub rows: i64,
    pub cols: i64,
    pub nnz: i64,
    pub ptr0: u64,
    pub ptr1: u64,
    pub values: u64,
    pub ptr0_type: IndexType,
    pub ptr1_type: IndexType,
    pub base: i32,
    pub value_type: i32,
    pub batch_count: i32,
    pub ptr0_batch_stride: i64,
    pub values_batch_stride: i64,
    pub fill_mode: i32,
    pub diag_type: i32,
}

/// `cusparseSpVecDescr_t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpVec {
    pub size: i64,
    pub nnz: i64,
    pub indices: u64,
    pub values: u64,
    pub index_type: IndexType,
    pub base: i32,
    pub value_type: i32,
}

/// `cusparseDnVecDescr_t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DnVec {
    pub size: i64,
    pub values: u64,
    pub value_type: i32,
}

/// `cusparseDnMatDescr_t`; `row_major` is `CUSPARSE_ORDER_ROW`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DnMat {
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
    pub values: u64,
    pub value_type: i32,
    pub row_major: bool,
    pub batch_count: i32,
    pub batch_stride: i64,
}

/// `cusparseMatDescr_t`: matrix type, fill mode, diagonal type, index base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatDescr {
    pub kind: i32,
    pub fill: i32,
    pub diag: i32,
    pub base: i32,
}

/// What `cusparseSpGEMM_compute` leaves for `cusparseSpGEMM_copy`: a
/// `kernels::spgemm::Product<T>` of the compute type, once computed.
pub type SpGemmResult = Arc<Mutex<Option<Box<dyn Any + Send>>>>;

/// One registered object.
#[derive(Clone, Debug)]
pub enum Object {
    /// A library handle: its stream, and whether scalars are device pointers.
    Handle {
        stream: usize,
        device_pointers: bool,
    },
    MatDescr(MatDescr),
    SpMat(SpMat),
    SpVec(SpVec),
    DnVec(DnVec),
    DnMat(DnMat),
    SpGemm(SpGemmResult),
    /// An info object of the incomplete factorizations (`csrilu02Info_t`, ...), which
    /// exist but have no operations here.
    Info(&'static str),
}

static OBJECTS: LazyLock<Mutex<HashMap<usize, Object>>> = LazyLock::new(Mutex::default);

fn objects() -> std::sync::MutexGuard<'static, HashMap<usize, Object>> {
    OBJECTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new object (its address is unique while it lives).
pub fn create(object: Object) -> usize {
    let key = Box::into_raw(Box::new(0u64)) as usize;
    objects().insert(key, object);
    key
}

/// Forgets `key`, which must hold an object of `kind`'s kind.
pub fn destroy(key: usize, kind: fn(&Object) -> bool, what: &str) -> SparseResult {
    let mut all = objects();
    match all.get(&key) {
        Some(o) if kind(o) => {
            all.remove(&key);
            // SAFETY: `create` made this box, and the registry held it until now.
            drop(unsafe { Box::from_raw(key as *mut u64) });
            Ok(())
        }
        _ => Err(bad(key, what)),
    }
}

fn bad(key: usize, what: &str) -> i32 {
    let status = if what == "cusparseHandle_t" { NOT_INITIALIZED } else { INVALID_VALUE };
    fail(status, format_args!("{key:#x} is not a live {what}"))
}

/// Changes the object at `key` through `change`, which answers `None` for a wrong kind.
pub fn update<R>(key: usize, what: &str, change: impl FnOnce(&mut Object) -> Option<SparseResult<R>>) -> SparseResult<R> {
    let mut all = objects();
    match all.get_mut(&key).and_then(change) {
        Some(r) => r,
        None => {
            drop(all);
            Err(bad(key, what))
        }
    }
}

/// Defines `fn $name(key) -> SparseResult<$ty>` reading an object of one kind.
macro_rules! getter {
    ($($name:ident: $variant:ident => $ty:ty, $what:literal;)*) => {$(
        pub fn $name(key: usize) -> SparseResult<$ty> {
            match objects().get(&key) {
                Some(Object::$variant(v)) => Ok(v.clone()),
                _ => Err(bad(key, $what)),
            }
        }
    )*};
}

getter! {
    mat_descr: MatDescr => MatDescr, "cusparseMatDescr_t";
    spmat: SpMat => SpMat, "cusparseSpMatDescr_t";
    spvec: SpVec => SpVec, "cusparseSpVecDescr_t";
    dnvec: DnVec => DnVec, "cusparseDnVecDescr_t";
    dnmat: DnMat => DnMat, "cusparseDnMatDescr_t";
    spgemm: SpGemm => SpGemmResult, "cusparseSpGEMMDescr_t";
}

/// A handle's stream and pointer mode.
pub fn handle(key: usize) -> SparseResult<(usize, bool)> {
    match objects().get(&key) {
        Some(Object::Handle { stream, device_pointers }) => Ok((*stream, *device_pointers)),
        _ => Err(bad(key, "cusparseHandle_t")),
    }
}

/// The handle and descriptor kinds, for [`destroy`].
pub mod kind {
    use super::Object;
    pub fn handle(o: &Object) -> bool {
        matches!(o, Object::Handle { .. })
    }
    pub fn mat_descr(o: &Object) -> bool {
        matches!(o, Object::MatDescr(_))
    }
    pub fn spmat(o: &Object) -> bool {
        matches!(o, Object::SpMat(_))
    }
    pub fn spvec(o: &Object) -> bool {
        matches!(o, Object::SpVec(_))
    }
    pub fn dnvec(o: &Object) -> bool {
        matches!(o, Object::DnVec(_))
    }
    pub fn dnmat(o: &Object) -> bool {
        matches!(o, Object::DnMat(_))
    }
    pub fn spgemm(o: &Object) -> bool {
        matches!(o, Object::SpGemm(_))
    }
    pub fn info(o: &Object) -> bool {
        matches!(o, Object::Info(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_are_recognized_by_kind_and_forgotten_once() {
        let d = create(Object::MatDescr(MatDescr { kind: 0, fill: 0, diag: 0, base: 1 }));
        assert_eq!(mat_descr(d).unwrap().base, 1);
        assert_eq!(spmat(d), Err(INVALID_VALUE));
        assert_eq!(handle(d), Err(NOT_INITIALIZED));
        assert_eq!(destroy(d, kind::spmat, "cusparseSpMatDescr_t"), Err(INVALID_VALUE));
        assert_eq!(destroy(d, kind::mat_descr, "cusparseMatDescr_t"), Ok(()));
        assert_eq!(destroy(d, kind::mat_descr, "cusparseMatDescr_t"), Err(INVALID_VALUE));
        assert_eq!(mat_descr(0), Err(INVALID_VALUE));
    }
}
