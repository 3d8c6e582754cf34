//! A block's shared-memory window: the memory `.shared` addresses are offsets into.

/// One piece of a block's shared window. The window starts on a chunk boundary, so a
/// `.shared` variable declared `.align N` (the layout aligns its offset) has an address that
/// is a multiple of N for every N up to 256, as on NVIDIA GPUs, whose shared window starts
/// at shared address 0.
#[derive(Clone, Copy)]
#[repr(C, align(256))]
pub(crate) struct SharedChunk([u8; SHARED_CHUNK_BYTES]);

pub(crate) const SHARED_CHUNK_BYTES: usize = 256;

/// Grows `window` to at least `chunks` chunks (new bytes zeroed).
pub(crate) fn grow_shared_window(window: &mut Vec<SharedChunk>, chunks: usize) {
    if window.len() < chunks {
        window.resize(chunks, SharedChunk([0; SHARED_CHUNK_BYTES]));
    }
}
