//! Telling kernel images apart by their first bytes.
//!
//! The driver receives untyped pointers from `cuModuleLoadData`, `cuModuleLoadFatBinary` and
//! `cuLibraryLoadData`; the table in "fatbin-format.md" ("Telling images apart") says what
//! each leading magic means. Anything without a known magic is taken to be PTX text.

/// Magic of cudart's fatbin wrapper (`__fatBinC_Wrapper_t`), bytes `b1 43 62 46`.
pub const FATBIN_WRAPPER_MAGIC: u32 = 0x4662_43B1;
/// Magic of a fatbin container, bytes `50 ed 55 ba`.
pub const FATBIN_CONTAINER_MAGIC: u32 = 0xBA55_ED50;
/// First four bytes of every ELF file (an NVIDIA cubin, or another ELF).
pub const ELF_MAGIC: [u8; 4] = *b"\x7fELF";
/// First eight bytes of a Unix `ar` archive (a library of cubins).
pub const ARCHIVE_MAGIC: [u8; 8] = *b"!<arch>\n";

/// What kind of kernel image a byte string is, judged by its first bytes only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// cudart's 24-byte wrapper that points at a fatbin container (magic 0x466243B1).
    FatbinWrapper,
    /// A fatbin container (magic 0xBA55ED50), possibly followed by more containers.
    FatbinContainer,
    /// An ELF file; for the CUDA driver that means a cubin holding SASS.
    Elf,
    /// An `ar` archive, i.e. a library of cubins.
    Archive,
    /// Anything else: treated as NUL-terminated PTX text.
    PtxText,
}

/// Classifies `bytes` by its leading magic. Never fails: unknown input is
/// [`ImageKind::PtxText`], and whether it really is PTX is checked when it is extracted.
pub fn classify(bytes: &[u8]) -> ImageKind {
    let magic32 = crate::le::u32_at(bytes, 0);
    if magic32 == Some(FATBIN_WRAPPER_MAGIC) {
        ImageKind::FatbinWrapper
    } else if magic32 == Some(FATBIN_CONTAINER_MAGIC) {
        ImageKind::FatbinContainer
    } else if bytes.starts_with(&ELF_MAGIC) {
        ImageKind::Elf
    } else if bytes.starts_with(&ARCHIVE_MAGIC) {
        ImageKind::Archive
    } else {
        ImageKind::PtxText
    }
}
