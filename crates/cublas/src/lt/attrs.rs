//! cuBLASLt's descriptors (matmul operation, matrix layout, matmul preference): attribute
//! tables kept inside the opaque structs NVIDIA's header sizes (`cublasLt*Opaque_t`), so
//! descriptors created by `*Create` (heap) and by `*Init` (caller's memory) are one kind.
//! Word 0 holds a kind marker; word `1 + slot` holds attribute `id`'s value.

use crate::status::{fail, BlasResult, INVALID_VALUE};

/// One attribute: its id, its size in bytes, and its default value.
#[derive(Clone, Copy)]
pub struct Attr {
    pub id: u32,
    pub size: usize,
    pub default: u64,
}

const fn a(id: u32, size: usize, default: u64) -> Attr {
    Attr { id, size, default }
}

/// A descriptor kind: its marker, its opaque size in words, its attributes.
pub struct Kind {
    pub name: &'static str,
    pub marker: u64,
    pub words: usize,
    pub attrs: &'static [Attr],
}

/// `cublasLtMatmulDescAttributes_t` (ids from NVIDIA's documentation). Defaults:
/// pointer mode host, `CUBLAS_OP_N`, epilogue DEFAULT (1), fill mode FULL (2).
pub static MATMUL_DESC: Kind = Kind {
    name: "cublasLtMatmulDesc_t",
    marker: 0x4d41_544d_554c_4445, // "MATMULDE"
    words: 32,
    attrs: &[
        a(0, 4, 68),              // COMPUTE_TYPE
        a(1, 4, 0),               // SCALE_TYPE
        a(2, 4, 0),               // POINTER_MODE
        a(3, 4, 0),               // TRANSA
        a(4, 4, 0),               // TRANSB
        a(5, 4, 0),               // TRANSC
        a(6, 4, 2),               // FILL_MODE
        a(7, 4, 1),               // EPILOGUE
        a(8, 8, 0),               // BIAS_POINTER
        a(10, 8, 0),              // BIAS_BATCH_STRIDE
        a(11, 8, 0),              // EPILOGUE_AUX_POINTER
        a(12, 8, 0),              // EPILOGUE_AUX_LD
        a(13, 8, 0),              // EPILOGUE_AUX_BATCH_STRIDE
        a(14, 8, 0),              // ALPHA_VECTOR_BATCH_STRIDE
        a(15, 4, 0),              // SM_COUNT_TARGET
        a(17, 8, 0),              // A_SCALE_POINTER
        a(18, 8, 0),              // B_SCALE_POINTER
        a(19, 8, 0),              // C_SCALE_POINTER
        a(20, 8, 0),              // D_SCALE_POINTER
        a(21, 8, 0),              // AMAX_D_POINTER
        a(22, 4, u64::MAX >> 32), // EPILOGUE_AUX_DATA_TYPE (-1: D's type)
        a(23, 8, 0),              // EPILOGUE_AUX_SCALE_POINTER
        a(24, 8, 0),              // EPILOGUE_AUX_AMAX_POINTER
        a(25, 1, 0),              // FAST_ACCUM
        a(26, 4, u64::MAX >> 32), // BIAS_DATA_TYPE (-1: D's type)
    ],
};

/// `cublasLtMatrixLayoutAttribute_t`. Defaults: column order, one matrix.
pub static MATRIX_LAYOUT: Kind = Kind {
    name: "cublasLtMatrixLayout_t",
    marker: 0x4c41_594f_5554_4d54, // "LAYOUTMT"
    words: 14,
    attrs: &[
        a(0, 4, 0), // TYPE
        a(1, 4, 0), // ORDER
        a(2, 8, 0), // ROWS
        a(3, 8, 0), // COLS
        a(4, 8, 0), // LD
        a(5, 4, 1), // BATCH_COUNT
        a(6, 8, 0), // STRIDED_BATCH_OFFSET
        a(7, 8, 0), // PLANE_OFFSET
        a(8, 4, 0), // BATCH_MODE
    ],
};

/// `cublasLtMatmulPreferenceAttributes_t`.
pub static PREFERENCE: Kind = Kind {
    name: "cublasLtMatmulPreference_t",
    marker: 0x5052_4546_4552_454e, // "PREFEREN"
    words: 12,
    attrs: &[
        a(0, 4, 0),               // SEARCH_MODE
        a(1, 8, 0),               // MAX_WORKSPACE_BYTES
        a(3, 4, u32::MAX as u64), // REDUCTION_SCHEME_MASK
        a(5, 4, 256),             // MIN_ALIGNMENT_A_BYTES
        a(6, 4, 256),             // MIN_ALIGNMENT_B_BYTES
        a(7, 4, 256),             // MIN_ALIGNMENT_C_BYTES
        a(8, 4, 256),             // MIN_ALIGNMENT_D_BYTES
        a(9, 4, 0),               // MAX_WAVES_COUNT (float bits)
        a(12, 8, u64::MAX),       // IMPL_MASK
    ],
};

impl Kind {
    fn slot(&self, id: u32) -> Option<(usize, Attr)> {
        self.attrs.iter().position(|x| x.id == id).map(|i| (i + 1, self.attrs[i]))
    }

    /// Initializes a descriptor in `words` words at `p` (`size` bytes available).
    ///
    /// # Safety
    /// `p` is NULL or writable for `size` bytes.
    pub unsafe fn init(&self, p: *mut u64, size: usize) -> BlasResult {
        if p.is_null() || size < self.words * 8 {
            return Err(fail(crate::status::ALLOC_FAILED, format_args!("{}: {size} bytes cannot hold a descriptor", self.name)));
        }
        // SAFETY: per the contract.
        unsafe {
            p.write(self.marker);
            for (i, x) in self.attrs.iter().enumerate() {
                p.add(i + 1).write(x.default);
            }
        }
        Ok(())
    }

    /// The descriptor's words, after checking its marker.
    ///
    /// # Safety
    /// `p` is NULL or a descriptor of some kind (readable for its words).
    pub unsafe fn words<'a>(&self, p: *mut u64) -> BlasResult<&'a mut [u64]> {
        // SAFETY: per the contract, a non-NULL descriptor has at least a marker word.
        if p.is_null() || unsafe { p.read() } != self.marker {
            return Err(fail(INVALID_VALUE, format_args!("{:p} is not a {}", p, self.name)));
        }
        // SAFETY: a descriptor of this kind spans `words` words.
        Ok(unsafe { std::slice::from_raw_parts_mut(p, self.words) })
    }

    /// Sets attribute `id` from `size` bytes at `buf` (the attribute's exact size).
    ///
    /// # Safety
    /// `d` is a descriptor of this kind; `buf` is NULL or readable for `size` bytes.
    pub unsafe fn set(&self, d: *mut u64, id: u32, buf: *const u8, size: usize) -> BlasResult {
        // SAFETY: forwarded.
        let words = unsafe { self.words(d) }?;
        let (slot, attr) = self.slot(id).ok_or_else(|| fail(INVALID_VALUE, format_args!("{}: unknown attribute {id}", self.name)))?;
        if buf.is_null() || size != attr.size {
            return Err(fail(INVALID_VALUE, format_args!("{}: attribute {id} takes {} bytes, got {size}", self.name, attr.size)));
        }
        let mut v = [0u8; 8];
        // SAFETY: `buf` holds `size` <= 8 bytes.
        unsafe { std::ptr::copy_nonoverlapping(buf, v.as_mut_ptr(), size) };
        words[slot] = u64::from_le_bytes(v);
        Ok(())
    }

    /// Gets attribute `id`: with `size == 0` and a `written` pointer, only its size.
    ///
    /// # Safety
    /// `d` is a descriptor of this kind; `buf` is writable for `size` bytes;
    /// `written` is NULL or writable.
    pub unsafe fn get(&self, d: *mut u64, id: u32, buf: *mut u8, size: usize, written: *mut usize) -> BlasResult {
        // SAFETY: forwarded.
        let words = unsafe { self.words(d) }?;
        let (slot, attr) = self.slot(id).ok_or_else(|| fail(INVALID_VALUE, format_args!("{}: unknown attribute {id}", self.name)))?;
        if size == 0 && !written.is_null() {
            // SAFETY: per the contract.
            unsafe { written.write(attr.size) };
            return Ok(());
        }
        if buf.is_null() || size != attr.size {
            return Err(fail(INVALID_VALUE, format_args!("{}: attribute {id} takes {} bytes, got {size}", self.name, attr.size)));
        }
        // SAFETY: `buf` holds `size` bytes; `written` per the contract.
        unsafe {
            std::ptr::copy_nonoverlapping(words[slot].to_le_bytes().as_ptr(), buf, size);
            if !written.is_null() {
                written.write(attr.size);
            }
        }
        Ok(())
    }

    /// Attribute `id`'s raw value (sign-extended from its size for 4-byte attributes).
    pub fn value(&self, words: &[u64], id: u32) -> i64 {
        let (slot, attr) = self.slot(id).expect("a known attribute");
        match attr.size {
            1 => words[slot] as u8 as i64,
            4 => words[slot] as u32 as i32 as i64,
            _ => words[slot] as i64,
        }
    }

    /// Stores attribute `id`'s value (for the `*Create`/`*Init` arguments).
    pub fn put(&self, words: &mut [u64], id: u32, v: u64) {
        let (slot, attr) = self.slot(id).expect("a known attribute");
        words[slot] = if attr.size == 4 { v & 0xffff_ffff } else { v };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_fits_nvidias_opaque_size_and_round_trips_attributes() {
        for kind in [&MATMUL_DESC, &MATRIX_LAYOUT, &PREFERENCE] {
            assert!(kind.attrs.len() < kind.words, "{}", kind.name);
            let mut mem = vec![0u64; kind.words];
            unsafe { kind.init(mem.as_mut_ptr(), kind.words * 8) }.unwrap();
            for x in kind.attrs {
                let v = 0x0102_0304_0506_0708u64 & (u64::MAX >> (64 - 8 * x.size as u32));
                unsafe { kind.set(mem.as_mut_ptr(), x.id, v.to_le_bytes().as_ptr(), x.size) }.unwrap();
                let (mut out, mut written) = ([0u8; 8], 0usize);
                unsafe { kind.get(mem.as_mut_ptr(), x.id, out.as_mut_ptr(), x.size, &mut written) }.unwrap();
                assert_eq!((u64::from_le_bytes(out), written), (v, x.size));
                assert_eq!(unsafe { kind.set(mem.as_mut_ptr(), x.id, out.as_ptr(), x.size + 1) }, Err(INVALID_VALUE));
            }
        }
        let mut other = vec![0u64; 32];
        unsafe { PREFERENCE.init(other.as_mut_ptr(), 96) }.unwrap();
        assert!(unsafe { MATMUL_DESC.words(other.as_mut_ptr()) }.is_err());
    }
}
