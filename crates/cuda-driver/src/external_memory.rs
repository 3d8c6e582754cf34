//! External memory (CUDA Driver API, "External Resource Interoperability":
//! `cuImportExternalMemory`, `cuExternalMemoryGetMappedBuffer`, `cuDestroyExternalMemory`).
//!
//! On devices whose memory the host addresses, memory another API (or process) exports
//! as an opaque POSIX file descriptor (`CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD`: a
//! memfd, a shared-memory file, what `cuMemExportToShareableHandle` gives) is a file this
//! process maps. Importing takes the descriptor over ("Ownership of the file descriptor is
//! transferred to the CUDA driver when the handle is imported successfully"); each mapped
//! buffer is a mapping of its own of the range, registered as [`MemoryKind::FileMap`] in
//! the current context and freed with `cuMemFree`. Handle types of other systems and APIs
//! (Win32, Direct3D, NvSciBuf) and dma-bufs of a GPU driver are `CUDA_ERROR_NOT_SUPPORTED`
//! here; other devices have no external memory (`NOT_SUPPORTED`).
//!
//! A mipmapped array mapped from external memory (`cuExternalMemoryGetMappedMipmappedArray`)
//! keeps its texels in one mapping of the file, level after level from the descriptor's
//! offset: each level's rows, slices and layers densely packed as `cuArray3DCreate` packs
//! them, every level starting at a multiple of `CU_TEXTURE_ALIGNMENT` (512) bytes from the
//! offset. That linear layout is this device's (NVIDIA's is opaque and tiled), so another
//! process of ours that maps the same file sees the same texels; the levels are unmapped
//! by `cuMipmappedArrayDestroy`.

use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::Arc;

use backend_api::DevicePtr;

use crate::diag::fail;
use crate::handle::{HandleKind, HandleTable, Kind};
use crate::ipc::host;
use crate::memory::{Allocation, FileMapOrigin, MemoryKind};
use crate::texture::mipmap::{level_descriptors, LevelStorage, MipmapHandle};
use crate::texture::{array_shape, Array3dDescriptor, TEXTURE_ALIGNMENT};
use crate::{CtxHandle, CuError, CuResult, Driver};

/// `CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD`.
pub const HANDLE_TYPE_OPAQUE_FD: u32 = 1;
/// `CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD`, the last type CUDA 13 defines.
const HANDLE_TYPE_DMABUF_FD: u32 = 9;
/// `CUDA_EXTERNAL_MEMORY_DEDICATED`.
pub const EXTERNAL_MEMORY_DEDICATED: u32 = 1;

/// A `CUexternalMemory`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ExtMemHandle(pub u64);

impl HandleKind for ExtMemHandle {
    const KIND: Kind = Kind::ExternalMemory;
    fn from_bits(bits: u64) -> Self {
        ExtMemHandle(bits)
    }
    fn bits(self) -> u64 {
        self.0
    }
}

/// An imported file.
pub struct ExternalMemory {
    file: OwnedFd,
    size: u64,
}

/// Every imported external memory object.
#[derive(Default)]
pub(crate) struct State {
    objects: HandleTable<ExternalMemory, ExtMemHandle>,
}

/// `CUDA_EXTERNAL_MEMORY_HANDLE_DESC`, as the driver reads it.
#[derive(Clone, Copy, Debug)]
pub struct HandleDesc {
    pub handle_type: u32,
    /// `handle.fd` (for the descriptor types).
    pub fd: i32,
    pub size: u64,
    pub flags: u32,
}

fn invalid(why: std::fmt::Arguments<'_>) -> CuError {
    fail(CuError::INVALID_VALUE, why)
}

impl Driver {
    /// `cuImportExternalMemory`.
    pub fn import_external_memory(&self, desc: &HandleDesc) -> CuResult<ExtMemHandle> {
        let ctx = self.current_context()?;
        match desc.handle_type {
            HANDLE_TYPE_OPAQUE_FD => {}
            2..=HANDLE_TYPE_DMABUF_FD => {
                return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuImportExternalMemory: handle type {}", desc.handle_type)))
            }
            t => return Err(invalid(format_args!("cuImportExternalMemory: handle type {t}"))),
        }
        if desc.size == 0 || desc.flags & !EXTERNAL_MEMORY_DEDICATED != 0 || desc.fd < 0 {
            return Err(invalid(format_args!("cuImportExternalMemory: fd {}, size {}, flags {:#x}", desc.fd, desc.size, desc.flags)));
        }
        if !self.ipc_supported(ctx.device) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuImportExternalMemory: device {} cannot map host files", ctx.device)));
        }
        let (_, file_size) = host::identity(desc.fd).map_err(|e| invalid(format_args!("cuImportExternalMemory: fd {}: {e}", desc.fd)))?;
        if desc.size > file_size {
            return Err(invalid(format_args!("cuImportExternalMemory: size {} is more than the file's {file_size} bytes", desc.size)));
        }
        // SAFETY: the API hands the descriptor over on success, which this is.
        let file = unsafe { OwnedFd::from_raw_fd(desc.fd) };
        Ok(self.external.objects.insert(Arc::new(ExternalMemory { file, size: desc.size })))
    }

    fn external_memory(&self, handle: ExtMemHandle) -> CuResult<Arc<ExternalMemory>> {
        self.external.objects.get(handle).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("external memory {:#x}: {why:?}", handle.0)))
    }

    /// `cuExternalMemoryGetMappedBuffer`: `[offset, offset+size)` of the imported memory
    /// in the current context, freed with `cuMemFree`; `flags` 0.
    pub fn external_memory_get_mapped_buffer(&self, handle: ExtMemHandle, offset: u64, size: u64, flags: u32) -> CuResult<DevicePtr> {
        let ctx = self.current_context()?;
        let ext = self.external_memory(handle)?;
        if flags != 0 || size == 0 || offset.checked_add(size).is_none_or(|end| end > ext.size) {
            return Err(invalid(format_args!(
                "cuExternalMemoryGetMappedBuffer(offset {offset}, size {size}, flags {flags:#x}) of {} bytes",
                ext.size
            )));
        }
        let ptr =
            host::map_shared(&ext.file, offset, size).map_err(|e| fail(CuError::MAP_FAILED, format_args!("cuExternalMemoryGetMappedBuffer: {e}")))?;
        self.register_file_map(ptr, size, FileMapOrigin::ExternalBuffer, ctx.handle, ctx.device, 0)?;
        Ok(ptr)
    }

    /// `cuExternalMemoryGetMappedMipmappedArray`: a mipmapped array of `levels` levels
    /// (at least 1; at most what `cuMipmappedArrayCreate` allows for `d`) whose texels are
    /// the imported memory from `offset` on (layout in the module doc).
    pub fn external_memory_get_mapped_mipmapped_array(
        &self,
        handle: ExtMemHandle,
        offset: u64,
        d: &Array3dDescriptor,
        levels: u32,
    ) -> CuResult<MipmapHandle> {
        let ctx = self.current_context()?;
        if handle.0 == 0 {
            // What an H200 answers (driver 580.159).
            return Err(invalid(format_args!("cuExternalMemoryGetMappedMipmappedArray: NULL external memory")));
        }
        let ext = self.external_memory(handle)?;
        let descriptors = level_descriptors(d, levels);
        if levels == 0 || levels as usize > descriptors.len() {
            return Err(invalid(format_args!("cuExternalMemoryGetMappedMipmappedArray: {levels} levels for {d:?} (1 to {})", descriptors.len())));
        }
        let mut starts = Vec::with_capacity(descriptors.len());
        let mut end = 0u64;
        for level in &descriptors {
            let shape = array_shape(level)?;
            let start = end.next_multiple_of(TEXTURE_ALIGNMENT);
            starts.push((start, shape));
            end = start.checked_add(shape.bytes).ok_or_else(|| invalid(format_args!("cuExternalMemoryGetMappedMipmappedArray: size")))?;
        }
        if offset.checked_add(end).is_none_or(|last| last > ext.size) {
            return Err(invalid(format_args!(
                "cuExternalMemoryGetMappedMipmappedArray: {end} bytes of levels at offset {offset} of {} bytes",
                ext.size
            )));
        }
        let base = host::map_shared(&ext.file, offset, end)
            .map_err(|e| fail(CuError::MAP_FAILED, format_args!("cuExternalMemoryGetMappedMipmappedArray: {e}")))?;
        self.register_file_map(base, end, FileMapOrigin::ExternalArray, ctx.handle, ctx.device, 0)?;
        let arrays = descriptors
            .iter()
            .zip(&starts)
            .map(|(level, (start, shape))| self.array_at(ctx.handle, ctx.device, level, shape, base + start, true))
            .collect();
        Ok(self.mipmapped_array_of(*d, arrays, LevelStorage::External(base)))
    }

    /// Unmaps the levels of a mipmapped array mapped from external memory, once the work
    /// queued in their context is done.
    pub(crate) fn unmap_external_array(&self, base: u64) {
        self.drain_owner(base);
        if let Some(a) = self.memory.remove(base) {
            self.release_allocation(&a);
        }
    }

    /// `cuDestroyExternalMemory`: closes the descriptor; buffers mapped from it stay
    /// until freed.
    pub fn destroy_external_memory(&self, handle: ExtMemHandle) -> CuResult<()> {
        self.external_memory(handle)?;
        self.external.objects.remove(handle).map(|_| ()).map_err(|_| CuError::INVALID_HANDLE)
    }

    /// Registers a range [`host::map_shared`] mapped (unmapping it if that fails).
    pub(crate) fn register_file_map(&self, ptr: u64, size: u64, origin: FileMapOrigin, ctx: CtxHandle, device: usize, owner: u64) -> CuResult<()> {
        let allocation =
            Allocation { base: ptr, size, kind: MemoryKind::FileMap(origin), ctx, device, flags: 0, buffer_id: 0, owner, sync_memops: false };
        if self.memory.insert(allocation).is_err() {
            host::unmap(ptr, size);
            return Err(fail(CuError::UNKNOWN, format_args!("mapped file range {ptr:#x} overlaps a registered range")));
        }
        Ok(())
    }
}
