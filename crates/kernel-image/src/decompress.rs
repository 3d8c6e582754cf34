//! Decompressing fatbin entry payloads.
//!
//! "fatbin-format.md" (entry header, field 0x28) names two schemes: flag 0x8000 is a
//! standard zstd frame (nvcc's default for PTX), flag 0x2000 is one raw LZ4 block
//! (`fatbinary --compress-mode=speed`). Field 0x10 holds the compressed length inside the
//! padded payload and field 0x38 the uncompressed length. Output sizes are capped and
//! checked, so a lying header cannot make us allocate unbounded memory or panic.

use std::io::Read;

use crate::container::{FLAG_LZ4, FLAG_ZSTD};

/// Upper bound on any decompressed payload (1 GiB); larger claims are treated as corrupt.
pub const MAX_DECOMPRESSED_SIZE: usize = 1 << 30;

/// How an entry payload is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Stored as is.
    None,
    /// One raw LZ4 block (flag 0x2000).
    Lz4,
    /// One zstd frame (flag 0x8000).
    Zstd,
}

impl Compression {
    /// The scheme named by an entry's flags; both bits at once is an error.
    pub(crate) fn from_flags(flags: u64) -> Result<Self, String> {
        match (flags & FLAG_LZ4 != 0, flags & FLAG_ZSTD != 0) {
            (false, false) => Ok(Compression::None),
            (true, false) => Ok(Compression::Lz4),
            (false, true) => Ok(Compression::Zstd),
            (true, true) => Err(format!("flags 0x{flags:x} ask for both LZ4 and zstd compression")),
        }
    }
}

/// Returns the payload's plain bytes.
///
/// `stored` is the padded payload. For compressed entries the compressed bytes are its
/// first `compressed_size` bytes (all of it when that field is 0), and the result must be
/// exactly `uncompressed_size` bytes long when that field is non-zero. A non-zero
/// `compressed_size` without a compression flag is rejected, since we could not know how
/// to read it.
pub(crate) fn decompress_payload(stored: &[u8], compression: Compression, compressed_size: u32, uncompressed_size: u64) -> Result<Vec<u8>, String> {
    let out = match compression {
        Compression::None if compressed_size != 0 => {
            return Err(format!("compressed size {compressed_size} is set but no known compression flag is"));
        }
        Compression::None => return Ok(stored.to_vec()),
        Compression::Zstd => zstd_frame(compressed_input(stored, compressed_size)?, declared_size(uncompressed_size)?)?,
        Compression::Lz4 => lz4_block(compressed_input(stored, compressed_size)?, declared_size(uncompressed_size)?)?,
    };
    if uncompressed_size != 0 && out.len() as u64 != uncompressed_size {
        return Err(format!("decompressed {} bytes but the header declares {uncompressed_size}", out.len()));
    }
    Ok(out)
}

/// The compressed bytes: the first `compressed_size` bytes of the padded payload, or all
/// of it when the field is 0.
fn compressed_input(stored: &[u8], compressed_size: u32) -> Result<&[u8], String> {
    match usize::try_from(compressed_size) {
        Ok(0) => Ok(stored),
        Ok(n) if n <= stored.len() => Ok(&stored[..n]),
        _ => Err(format!("compressed size {compressed_size} exceeds the stored payload size {}", stored.len())),
    }
}

/// The declared uncompressed size as `usize`, rejecting claims above the global cap.
fn declared_size(uncompressed_size: u64) -> Result<usize, String> {
    usize::try_from(uncompressed_size)
        .ok()
        .filter(|&n| n <= MAX_DECOMPRESSED_SIZE)
        .ok_or_else(|| format!("uncompressed size {uncompressed_size} is implausibly large"))
}

/// Decodes one zstd frame, reading at most `declared` bytes (or the global cap when the
/// size is unknown) plus one, so an oversized output is detected without buffering it.
/// Bytes after the frame (payload padding) are ignored.
fn zstd_frame(input: &[u8], declared: usize) -> Result<Vec<u8>, String> {
    let limit = if declared == 0 { MAX_DECOMPRESSED_SIZE } else { declared };
    let decoder = zstd::stream::read::Decoder::with_buffer(input).map_err(|err| format!("cannot start zstd decoder: {err}"))?.single_frame();
    let mut out = Vec::new();
    decoder.take(limit as u64 + 1).read_to_end(&mut out).map_err(|err| format!("corrupt zstd payload: {err}"))?;
    if out.len() > limit {
        return Err(format!("zstd payload decompresses to more than {limit} bytes"));
    }
    Ok(out)
}

/// Decodes one raw LZ4 block whose size must be declared. LZ4 cannot expand data by more
/// than 255x, so larger claims are rejected before allocating.
fn lz4_block(input: &[u8], declared: usize) -> Result<Vec<u8>, String> {
    if declared == 0 {
        return Err("LZ4 payload without an uncompressed size".to_owned());
    }
    if declared > input.len().saturating_mul(255).saturating_add(64) {
        return Err(format!("LZ4 payload of {} bytes cannot expand to the declared {declared} bytes", input.len()));
    }
    let mut out = vec![0u8; declared];
    let written = lz4_flex::block::decompress_into(input, &mut out).map_err(|err| format!("corrupt LZ4 payload: {err}"))?;
    out.truncate(written);
    Ok(out)
}
