//! Recognising and unpacking the kernel images the CUDA driver API receives.
//!
//! Programs built with nvcc hand the driver fatbins (usually through cudart's wrapper),
//! and NVRTC users hand it PTX text or cubins. A CPU device can only compile PTX, so this
//! crate's job is: take whatever the driver got, find the PTX inside, and otherwise fail
//! with an error that maps onto the right `CUresult` and tells the user how to rebuild.
//! The byte layouts come from `/work/shared/facts/fatbin-format.md` ("fatbin-format.md"
//! in comments).
//!
//! Pipeline:
//! ```text
//! *const u8 --image_from_ptr--> Image (owned bytes; wrappers followed)
//!      &[u8] --classify--> wrapper | container | ELF | archive | PTX text
//!  container --parse_container--> Vec<FatbinEntry> (decompressed)
//!                 --select_ptx--> Selected (best PTX for target sm / ISA)
//!      &[u8] --extract_ptx--> PtxSource (all of the above in one call)
//! ```
//!
//! Architecture invariants: this crate knows nothing about the driver's handles, contexts
//! or the PTX compiler; it only moves bytes. All parsing is safe code over slices and never
//! panics on malformed input; the only `unsafe` is the pointer reading in `wrapper.rs`.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

mod caller_memory;
mod classify;
mod container;
mod decompress;
mod elf;
mod error;
mod extract;
mod le;
mod relocatable;
mod select;
mod wrapper;
mod write;

#[cfg(test)]
mod tests;

pub use classify::{classify, ImageKind, ARCHIVE_MAGIC, ELF_MAGIC, FATBIN_CONTAINER_MAGIC, FATBIN_WRAPPER_MAGIC};
pub use container::{
    parse_container, parse_container_headers, EntryKind, FatbinEntry, CONTAINER_HEADER_SIZE, ENTRY_HEADER_MIN_SIZE, FLAG_64BIT, FLAG_DEBUG,
    FLAG_LINUX, FLAG_LZ4, FLAG_ZSTD,
};
pub use decompress::{Compression, MAX_DECOMPRESSED_SIZE};
pub use error::{ImageError, CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_NO_BINARY_FOR_GPU, CUDA_ERROR_UNSUPPORTED_PTX_VERSION};
pub use extract::{check_ptx_isa, extract_ptx, extract_ptx_limited, PtxSource, ANY_PTX_ISA, SUPPORTED_PTX_ISA};
pub use relocatable::{archive_members, container_ptx, entries_ptx, object_fatbins, object_module_ids, split_containers};
pub use select::{select_ptx, Selected};
pub use wrapper::{image_from_ptr, Image, MAX_IMAGE_SIZE, WRAPPER_SIZE};
pub use write::{ptx_isa_of, write_ptx_container, PtxEntry};
