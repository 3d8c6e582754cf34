//! Storage for a queued launch's packed parameter block, reused so that a launch does not
//! allocate in steady state (issue 4: "no allocation per launch").
//!
//! CUDA limits a kernel's parameters to 4 KiB, and to 32,764 bytes on Volta and later
//! since CUDA 12.1 (CUDA C++ Programming Guide, "Function Parameters"). Most kernels take
//! a handful of pointers and scalars: blocks of up to [`INLINE_BYTES`] live inside the
//! queued operation itself, so the stream's queue (whose ring buffer keeps its capacity)
//! is their storage. Larger blocks take a buffer from the queue's [`SpareParams`], sorted
//! into power-of-two size classes so that a launch of a given size always finds a buffer
//! that fits, and give it back when the launch has run.
//!
//! Buffers are `u64` words: the block is 8-byte aligned, as the CPU device's generated
//! code assumes (`align 8 dereferenceable(size)`), so the backend uses it in place.

use std::sync::Mutex;

/// Parameter blocks up to this size are stored inline (16 pointers or 64-bit scalars).
pub const INLINE_BYTES: usize = 128;
const INLINE_WORDS: usize = INLINE_BYTES / 8;

/// The smallest and largest size class of spare buffers: 256 B .. 32 KiB (CUDA's limit,
/// 32,764 bytes, rounded up). Larger blocks (which CUDA refuses) get a buffer of their own.
const MIN_CLASS_SHIFT: u32 = 8;
const MAX_CLASS_SHIFT: u32 = 15;
const CLASSES: usize = (MAX_CLASS_SHIFT - MIN_CLASS_SHIFT + 1) as usize;

/// The most bytes of spare buffers one queue keeps (e.g. 1024 pending 4 KiB blocks);
/// beyond it, buffers are freed when their launch has run.
const MAX_SPARE_BYTES: usize = 4 << 20;

/// A launch's packed parameter block, 8-byte aligned.
pub(crate) struct ParamBuffer {
    storage: Storage,
    len: usize,
}

enum Storage {
    Inline([u64; INLINE_WORDS]),
    /// A buffer whose capacity is its size class (`1 << shift` bytes), or exactly the
    /// block for blocks beyond the largest class.
    Heap(Vec<u64>),
}

impl ParamBuffer {
    /// The block's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        let words: &[u64] = match &self.storage {
            Storage::Inline(w) => w,
            Storage::Heap(v) => v,
        };
        // SAFETY: `len` never exceeds the words' bytes (see `zeroed`); u8 has no alignment.
        unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), self.len) }
    }

    /// A block holding a copy of `bytes`, taken from no queue's spares: a graph's kernel
    /// nodes keep theirs for every launch of the graph.
    pub(crate) fn copy_of(bytes: &[u8]) -> ParamBuffer {
        let len = bytes.len();
        let storage = if len <= INLINE_BYTES {
            Storage::Inline([0; INLINE_WORDS])
        } else {
            // Of its size class, as every heap block is (see `SpareParams::give_back`).
            Storage::Heap(vec![0; class_of(len).map_or(len, class_bytes).div_ceil(8)])
        };
        let mut b = ParamBuffer { storage, len };
        b.bytes_mut().copy_from_slice(bytes);
        b
    }

    /// The block's bytes, writable.
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        let words: &mut [u64] = match &mut self.storage {
            Storage::Inline(w) => w,
            Storage::Heap(v) => v,
        };
        // SAFETY: as in `bytes`.
        unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

/// The size class of a block of `len` bytes (> [`INLINE_BYTES`]), if it has one.
fn class_of(len: usize) -> Option<usize> {
    let shift = len.next_power_of_two().trailing_zeros().max(MIN_CLASS_SHIFT);
    (shift <= MAX_CLASS_SHIFT).then(|| (shift - MIN_CLASS_SHIFT) as usize)
}

/// Bytes of the buffers of size class `class`.
fn class_bytes(class: usize) -> usize {
    1 << (class as u32 + MIN_CLASS_SHIFT)
}

/// One queue's spare parameter buffers, by size class.
#[derive(Default)]
pub(crate) struct SpareParams(Mutex<Spares>);

#[derive(Default)]
struct Spares {
    by_class: [Vec<Vec<u64>>; CLASSES],
    bytes: usize,
}

impl SpareParams {
    /// A zeroed block of `len` bytes: inline, or a spare buffer of its size class (a new
    /// one only while the queue has none to spare).
    pub(crate) fn zeroed(&self, len: usize) -> ParamBuffer {
        if len <= INLINE_BYTES {
            return ParamBuffer { storage: Storage::Inline([0; INLINE_WORDS]), len };
        }
        let words = match class_of(len) {
            Some(class) => {
                let spare = {
                    let mut s = self.0.lock().unwrap_or_else(|e| e.into_inner());
                    let spare = s.by_class[class].pop();
                    if spare.is_some() {
                        s.bytes -= class_bytes(class);
                    }
                    spare
                };
                match spare {
                    Some(mut v) => {
                        v.fill(0);
                        v
                    }
                    None => vec![0; class_bytes(class) / 8],
                }
            }
            None => vec![0; len.div_ceil(8)],
        };
        ParamBuffer { storage: Storage::Heap(words), len }
    }

    /// Takes back the buffer of a launch that has run (or was skipped).
    pub(crate) fn give_back(&self, buffer: ParamBuffer) {
        let Storage::Heap(words) = buffer.storage else { return };
        let Some(class) = class_of(buffer.len) else { return };
        let mut s = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if s.bytes + class_bytes(class) <= MAX_SPARE_BYTES {
            s.bytes += class_bytes(class);
            s.by_class[class].push(words);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_inline_or_of_their_size_class_and_zeroed() {
        // (block bytes, inline?, heap words)
        let cases = [
            (0, true, 0),
            (8, true, 0),
            (128, true, 0),
            (129, false, 32),
            (256, false, 32),
            (257, false, 64),
            (4096, false, 512),
            (32_764, false, 4096),
            (40_000, false, 5000),
        ];
        let spares = SpareParams::default();
        for (len, inline, words) in cases {
            let mut b = spares.zeroed(len);
            assert_eq!(b.bytes().len(), len);
            assert_eq!(b.bytes().as_ptr() as usize % 8, 0, "{len}: 8-byte aligned");
            assert!(b.bytes().iter().all(|&x| x == 0));
            match &b.storage {
                Storage::Inline(_) => assert!(inline, "{len}"),
                Storage::Heap(v) => assert_eq!((inline, v.len()), (false, words), "{len}"),
            }
            b.bytes_mut().fill(0xab);
            spares.give_back(b);
            // A reused buffer is zeroed again.
            assert!(spares.zeroed(len).bytes().iter().all(|&x| x == 0), "{len}");
        }
    }

    #[test]
    fn spare_buffers_are_reused_within_the_byte_limit() {
        let spares = SpareParams::default();
        let first = spares.zeroed(1000);
        let address = first.bytes().as_ptr();
        spares.give_back(first);
        assert_eq!(spares.zeroed(600).bytes().as_ptr(), address, "same class (1 KiB): the spare buffer");
        // Keep at most MAX_SPARE_BYTES: 32 KiB buffers, one more than fit.
        let many: Vec<_> = (0..MAX_SPARE_BYTES / (32 << 10) + 1).map(|_| spares.zeroed(32 << 10)).collect();
        for b in many {
            spares.give_back(b);
        }
        let s = spares.0.lock().unwrap();
        assert_eq!(s.bytes, MAX_SPARE_BYTES);
        assert_eq!(s.by_class[CLASSES - 1].len(), MAX_SPARE_BYTES / (32 << 10));
    }
}
