//! Bounds-checked little-endian field readers.
//!
//! All fatbin and ELF integers are little-endian ("fatbin-format.md", first line). Every
//! reader returns `None` instead of panicking when the field does not fit in the slice, so
//! parsers can turn a short buffer into an error with `ok_or_else`.

/// Reads `N` bytes at `offset`, or `None` if they are not all inside `bytes`.
fn array_at<const N: usize>(bytes: &[u8], offset: usize) -> Option<[u8; N]> {
    let end = offset.checked_add(N)?;
    bytes.get(offset..end)?.try_into().ok()
}

/// The `u16` at `offset`.
pub(crate) fn u16_at(bytes: &[u8], offset: usize) -> Option<u16> {
    array_at(bytes, offset).map(u16::from_le_bytes)
}

/// The `u32` at `offset`.
pub(crate) fn u32_at(bytes: &[u8], offset: usize) -> Option<u32> {
    array_at(bytes, offset).map(u32::from_le_bytes)
}

/// The `u64` at `offset`.
pub(crate) fn u64_at(bytes: &[u8], offset: usize) -> Option<u64> {
    array_at(bytes, offset).map(u64::from_le_bytes)
}

/// `base + delta` as an in-memory offset, or `None` on overflow.
pub(crate) fn offset_add(base: usize, delta: u64) -> Option<usize> {
    base.checked_add(usize::try_from(delta).ok()?)
}
