//! Moving one batch between a strided layout and a dense buffer, and dense transposes.

use crate::layout::Side;

/// Copies batch `b` of `side` from `data` into `dst` (dense, row-major over the side's
/// dims).
pub fn gather<E: Copy>(data: &[E], side: &Side, b: usize, dst: &mut [E]) {
    let len = side.row_len();
    let stride = side.stride;
    for (r, row) in dst.chunks_exact_mut(len).enumerate().take(side.rows()) {
        let base = side.row_offset(b, r);
        if stride == 1 {
            row.copy_from_slice(&data[base..base + len]);
        } else {
            for (j, x) in row.iter_mut().enumerate() {
                *x = data[base + j * stride];
            }
        }
    }
}

/// An output range written through a raw pointer, so that threads may write the
/// distinct elements of their batches in a layout whose batches interleave.
pub struct Sink<E> {
    ptr: *mut E,
    len: usize,
}

// SAFETY: a `Sink` is only written at distinct offsets from distinct threads (see
// `scatter`'s contract), within memory its creator vouches for.
unsafe impl<E: Send> Send for Sink<E> {}
unsafe impl<E: Send> Sync for Sink<E> {}

impl<E: Copy> Sink<E> {
    pub fn new(ptr: *mut E, len: usize) -> Sink<E> {
        Sink { ptr, len }
    }

    /// Writes `src` (dense, row-major over the side's dims) as batch `b` of `side`.
    ///
    /// # Safety
    /// The sink's `len` elements are valid for writes; no other thread reads or writes
    /// the elements batch `b` of `side` addresses while this runs.
    pub unsafe fn scatter(&self, side: &Side, b: usize, src: &[E]) {
        let len = side.row_len();
        let stride = side.stride;
        for (r, row) in src.chunks_exact(len).enumerate().take(side.rows()) {
            let base = side.row_offset(b, r);
            // Checked here so that a wrong extent is a panic, never a stray write.
            assert!(base + (len - 1) * stride < self.len, "scatter past the output range");
            // SAFETY: the offsets are in range (just checked) and, by the contract, ours.
            unsafe {
                if stride == 1 {
                    std::ptr::copy_nonoverlapping(row.as_ptr(), self.ptr.add(base), len);
                } else {
                    for (j, &x) in row.iter().enumerate() {
                        self.ptr.add(base + j * stride).write(x);
                    }
                }
            }
        }
    }
}

/// `dst` (cols x rows) = the transpose of `src` (rows x cols), both dense row-major.
pub fn transpose<E: Copy>(src: &[E], dst: &mut [E], rows: usize, cols: usize) {
    const BLOCK: usize = 16;
    assert!(src.len() >= rows * cols && dst.len() >= rows * cols);
    for r0 in (0..rows).step_by(BLOCK) {
        for c0 in (0..cols).step_by(BLOCK) {
            for r in r0..(r0 + BLOCK).min(rows) {
                for c in c0..(c0 + BLOCK).min(cols) {
                    dst[c * rows + r] = src[r * cols + c];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_then_scatter_round_trips_a_padded_interleaved_layout() {
        // 2 batches of 3x4 interleaved (dist 1, stride 2), rows padded to 5.
        let side = Side { dims: vec![3, 4], embed: vec![3, 5], stride: 2, dist: 1 };
        let extent = side.extent(2).unwrap();
        let data: Vec<u32> = (0..extent as u32).collect();
        let mut out = vec![u32::MAX; extent];
        let sink = Sink::new(out.as_mut_ptr(), out.len());
        for b in 0..2 {
            let mut dense = vec![0; 12];
            gather(&data, &side, b, &mut dense);
            assert_eq!(dense[5], (b + (5 + 1) * 2) as u32); // x = 1, y = 1
                                                            // SAFETY: `out` is the sink's memory, written by this thread only.
            unsafe { sink.scatter(&side, b, &dense) };
        }
        for (i, (&o, &d)) in out.iter().zip(&data).enumerate() {
            assert!(o == d || o == u32::MAX, "offset {i}");
        }
        assert_eq!(out.iter().filter(|&&o| o != u32::MAX).count(), 24);
    }

    #[test]
    fn transpose_is_a_transpose() {
        let (rows, cols) = (19, 37);
        let src: Vec<usize> = (0..rows * cols).collect();
        let mut dst = vec![0; rows * cols];
        transpose(&src, &mut dst, rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                assert_eq!(dst[c * rows + r], src[r * cols + c]);
            }
        }
    }
}
