//! `cudaDeviceProp` in the layouts of CUDA 13 (`cudaGetDeviceProperties` of libcudart 13)
//! and CUDA 12 (`cudaGetDeviceProperties_v2`), filled from the driver's device attributes.
//! CUDA 13 dropped the fields whose attributes it deprecated (`clockRate`, `computeMode`,
//! `memoryClockRate`, ...) and added NUMA, MPS and PCI identity fields, so the two differ
//! from `clockRate` on. The attribute of each field is the `CUdevice_attribute` NVIDIA's
//! runtime queries for it at initialization.

use std::ffi::{c_char, c_int};

use crate::boundary::RtResult;

/// What comes from the driver other than attributes.
pub struct DeviceInfo {
    pub name: [c_char; 256],
    pub uuid: [u8; 16],
    pub total_mem: usize,
}

/// `cudaDeviceProp` as CUDA 13's headers lay it out (`cudaGetDeviceProperties` of libcudart 13).
#[repr(C)]
#[allow(non_snake_case)]
#[derive(Clone, Copy)]
pub struct DeviceProp13 {
    pub name: [c_char; 256],
    pub uuid: [u8; 16],
    pub luid: [c_char; 8],
    pub luidDeviceNodeMask: u32,
    pub totalGlobalMem: usize,
    pub sharedMemPerBlock: usize,
    pub regsPerBlock: c_int,
    pub warpSize: c_int,
    pub memPitch: usize,
    pub maxThreadsPerBlock: c_int,
    pub maxThreadsDim: [c_int; 3],
    pub maxGridSize: [c_int; 3],
    pub totalConstMem: usize,
    pub major: c_int,
    pub minor: c_int,
    pub textureAlignment: usize,
    pub texturePitchAlignment: usize,
    pub multiProcessorCount: c_int,
    pub integrated: c_int,
    pub canMapHostMemory: c_int,
    pub maxTexture1D: c_int,
    pub maxTexture1DMipmap: c_int,
    pub maxTexture2D: [c_int; 2],
    pub maxTexture2DMipmap: [c_int; 2],
    pub maxTexture2DLinear: [c_int; 3],
    pub maxTexture2DGather: [c_int; 2],
    pub maxTexture3D: [c_int; 3],
    pub maxTexture3DAlt: [c_int; 3],
    pub maxTextureCubemap: c_int,
    pub maxTexture1DLayered: [c_int; 2],
    pub maxTexture2DLayered: [c_int; 3],
    pub maxTextureCubemapLayered: [c_int; 2],
    pub maxSurface1D: c_int,
    pub maxSurface2D: [c_int; 2],
    pub maxSurface3D: [c_int; 3],
    pub maxSurface1DLayered: [c_int; 2],
    pub maxSurface2DLayered: [c_int; 3],
    pub maxSurfaceCubemap: c_int,
    pub maxSurfaceCubemapLayered: [c_int; 2],
    pub surfaceAlignment: usize,
    pub concurrentKernels: c_int,
    pub ECCEnabled: c_int,
    pub pciBusID: c_int,
    pub pciDeviceID: c_int,
    pub pciDomainID: c_int,
    pub tccDriver: c_int,
    pub asyncEngineCount: c_int,
    pub unifiedAddressing: c_int,
    pub memoryBusWidth: c_int,
    pub l2CacheSize: c_int,
    pub persistingL2CacheMaxSize: c_int,
    pub maxThreadsPerMultiProcessor: c_int,
    pub streamPrioritiesSupported: c_int,
    pub globalL1CacheSupported: c_int,
    pub localL1CacheSupported: c_int,
    pub sharedMemPerMultiprocessor: usize,
    pub regsPerMultiprocessor: c_int,
    pub managedMemory: c_int,
    pub isMultiGpuBoard: c_int,
    pub multiGpuBoardGroupID: c_int,
    pub hostNativeAtomicSupported: c_int,
    pub pageableMemoryAccess: c_int,
    pub concurrentManagedAccess: c_int,
    pub computePreemptionSupported: c_int,
    pub canUseHostPointerForRegisteredMem: c_int,
    pub cooperativeLaunch: c_int,
    pub sharedMemPerBlockOptin: usize,
    pub pageableMemoryAccessUsesHostPageTables: c_int,
    pub directManagedMemAccessFromHost: c_int,
    pub maxBlocksPerMultiProcessor: c_int,
    pub accessPolicyMaxWindowSize: c_int,
    pub reservedSharedMemPerBlock: usize,
    pub hostRegisterSupported: c_int,
    pub sparseCudaArraySupported: c_int,
    pub hostRegisterReadOnlySupported: c_int,
    pub timelineSemaphoreInteropSupported: c_int,
    pub memoryPoolsSupported: c_int,
    pub gpuDirectRDMASupported: c_int,
    pub gpuDirectRDMAFlushWritesOptions: u32,
    pub gpuDirectRDMAWritesOrdering: c_int,
    pub memoryPoolSupportedHandleTypes: u32,
    pub deferredMappingCudaArraySupported: c_int,
    pub ipcEventSupported: c_int,
    pub clusterLaunch: c_int,
    pub unifiedFunctionPointers: c_int,
    pub deviceNumaConfig: c_int,
    pub deviceNumaId: c_int,
    pub mpsEnabled: c_int,
    pub hostNumaId: c_int,
    pub gpuPciDeviceID: u32,
    pub gpuPciSubsystemID: u32,
    pub hostNumaMultinodeIpcSupported: c_int,
    pub reserved: [c_int; 56],
}

impl DeviceProp13 {
    /// Fills every field from the device's identity and attributes.
    pub fn from_device(d: &DeviceInfo, attr: &mut dyn FnMut(c_int) -> RtResult<c_int>) -> RtResult<Self> {
        // SAFETY: all-zero is a valid value of this plain C struct.
        let mut p: Self = unsafe { std::mem::zeroed() };
        p.name = d.name;
        p.uuid = d.uuid;
        p.totalGlobalMem = d.total_mem;
        p.sharedMemPerBlock = attr(8)? as usize;
        p.regsPerBlock = attr(12)?;
        p.warpSize = attr(10)?;
        p.memPitch = attr(11)? as usize;
        p.maxThreadsPerBlock = attr(1)?;
        p.maxThreadsDim[0] = attr(2)?;
        p.maxThreadsDim[1] = attr(3)?;
        p.maxThreadsDim[2] = attr(4)?;
        p.maxGridSize[0] = attr(5)?;
        p.maxGridSize[1] = attr(6)?;
        p.maxGridSize[2] = attr(7)?;
        p.totalConstMem = attr(9)? as usize;
        p.major = attr(75)?;
        p.minor = attr(76)?;
        p.textureAlignment = attr(14)? as usize;
        p.texturePitchAlignment = attr(51)? as usize;
        p.multiProcessorCount = attr(16)?;
        p.integrated = attr(18)?;
        p.canMapHostMemory = attr(19)?;
        p.maxTexture1D = attr(21)?;
        p.maxTexture1DMipmap = attr(77)?;
        p.maxTexture2D[0] = attr(22)?;
        p.maxTexture2D[1] = attr(23)?;
        p.maxTexture2DMipmap[0] = attr(73)?;
        p.maxTexture2DMipmap[1] = attr(74)?;
        p.maxTexture2DLinear[0] = attr(70)?;
        p.maxTexture2DLinear[1] = attr(71)?;
        p.maxTexture2DLinear[2] = attr(72)?;
        p.maxTexture2DGather[0] = attr(45)?;
        p.maxTexture2DGather[1] = attr(46)?;
        p.maxTexture3D[0] = attr(24)?;
        p.maxTexture3D[1] = attr(25)?;
        p.maxTexture3D[2] = attr(26)?;
        p.maxTexture3DAlt[0] = attr(47)?;
        p.maxTexture3DAlt[1] = attr(48)?;
        p.maxTexture3DAlt[2] = attr(49)?;
        p.maxTextureCubemap = attr(52)?;
        p.maxTexture1DLayered[0] = attr(42)?;
        p.maxTexture1DLayered[1] = attr(43)?;
        p.maxTexture2DLayered[0] = attr(27)?;
        p.maxTexture2DLayered[1] = attr(28)?;
        p.maxTexture2DLayered[2] = attr(29)?;
        p.maxTextureCubemapLayered[0] = attr(53)?;
        p.maxTextureCubemapLayered[1] = attr(54)?;
        p.maxSurface1D = attr(55)?;
        p.maxSurface2D[0] = attr(56)?;
        p.maxSurface2D[1] = attr(57)?;
        p.maxSurface3D[0] = attr(58)?;
        p.maxSurface3D[1] = attr(59)?;
        p.maxSurface3D[2] = attr(60)?;
        p.maxSurface1DLayered[0] = attr(61)?;
        p.maxSurface1DLayered[1] = attr(62)?;
        p.maxSurface2DLayered[0] = attr(63)?;
        p.maxSurface2DLayered[1] = attr(64)?;
        p.maxSurface2DLayered[2] = attr(65)?;
        p.maxSurfaceCubemap = attr(66)?;
        p.maxSurfaceCubemapLayered[0] = attr(67)?;
        p.maxSurfaceCubemapLayered[1] = attr(68)?;
        p.surfaceAlignment = attr(30)? as usize;
        p.concurrentKernels = attr(31)?;
        p.ECCEnabled = attr(32)?;
        p.pciBusID = attr(33)?;
        p.pciDeviceID = attr(34)?;
        p.pciDomainID = attr(50)?;
        p.tccDriver = attr(35)?;
        p.asyncEngineCount = attr(40)?;
        p.unifiedAddressing = attr(41)?;
        p.memoryBusWidth = attr(37)?;
        p.l2CacheSize = attr(38)?;
        p.persistingL2CacheMaxSize = attr(108)?;
        p.maxThreadsPerMultiProcessor = attr(39)?;
        p.streamPrioritiesSupported = attr(78)?;
        p.globalL1CacheSupported = attr(79)?;
        p.localL1CacheSupported = attr(80)?;
        p.sharedMemPerMultiprocessor = attr(81)? as usize;
        p.regsPerMultiprocessor = attr(82)?;
        p.managedMemory = attr(83)?;
        p.isMultiGpuBoard = attr(84)?;
        p.multiGpuBoardGroupID = attr(85)?;
        p.hostNativeAtomicSupported = attr(86)?;
        p.pageableMemoryAccess = attr(88)?;
        p.concurrentManagedAccess = attr(89)?;
        p.computePreemptionSupported = attr(90)?;
        p.canUseHostPointerForRegisteredMem = attr(91)?;
        p.cooperativeLaunch = attr(95)?;
        p.sharedMemPerBlockOptin = attr(97)? as usize;
        p.pageableMemoryAccessUsesHostPageTables = attr(100)?;
        p.directManagedMemAccessFromHost = attr(101)?;
        p.maxBlocksPerMultiProcessor = attr(106)?;
        p.accessPolicyMaxWindowSize = attr(109)?;
        p.reservedSharedMemPerBlock = attr(111)? as usize;
        p.hostRegisterSupported = attr(99)?;
        p.sparseCudaArraySupported = attr(112)?;
        p.hostRegisterReadOnlySupported = attr(113)?;
        p.timelineSemaphoreInteropSupported = attr(114)?;
        p.memoryPoolsSupported = attr(115)?;
        p.gpuDirectRDMASupported = attr(116)?;
        p.gpuDirectRDMAFlushWritesOptions = attr(117)? as u32;
        p.gpuDirectRDMAWritesOrdering = attr(118)?;
        p.memoryPoolSupportedHandleTypes = attr(119)? as u32;
        p.deferredMappingCudaArraySupported = attr(121)?;
        p.ipcEventSupported = attr(125)?;
        p.clusterLaunch = attr(120)?;
        p.unifiedFunctionPointers = attr(129)?;
        p.deviceNumaConfig = attr(130)?;
        p.deviceNumaId = attr(131)?;
        p.mpsEnabled = attr(133)?;
        p.hostNumaId = attr(134)?;
        p.gpuPciDeviceID = attr(139)? as u32;
        p.gpuPciSubsystemID = attr(140)? as u32;
        p.hostNumaMultinodeIpcSupported = attr(143)?;
        Ok(p)
    }
}

/// `cudaDeviceProp` as CUDA 12's headers lay it out (`cudaGetDeviceProperties_v2`, CUDA 12).
#[repr(C)]
#[allow(non_snake_case)]
#[derive(Clone, Copy)]
pub struct DeviceProp12 {
    pub name: [c_char; 256],
    pub uuid: [u8; 16],
    pub luid: [c_char; 8],
    pub luidDeviceNodeMask: u32,
    pub totalGlobalMem: usize,
    pub sharedMemPerBlock: usize,
    pub regsPerBlock: c_int,
    pub warpSize: c_int,
    pub memPitch: usize,
    pub maxThreadsPerBlock: c_int,
    pub maxThreadsDim: [c_int; 3],
    pub maxGridSize: [c_int; 3],
    pub clockRate: c_int,
    pub totalConstMem: usize,
    pub major: c_int,
    pub minor: c_int,
    pub textureAlignment: usize,
    pub texturePitchAlignment: usize,
    pub deviceOverlap: c_int,
    pub multiProcessorCount: c_int,
    pub kernelExecTimeoutEnabled: c_int,
    pub integrated: c_int,
    pub canMapHostMemory: c_int,
    pub computeMode: c_int,
    pub maxTexture1D: c_int,
    pub maxTexture1DMipmap: c_int,
    pub maxTexture1DLinear: c_int,
    pub maxTexture2D: [c_int; 2],
    pub maxTexture2DMipmap: [c_int; 2],
    pub maxTexture2DLinear: [c_int; 3],
    pub maxTexture2DGather: [c_int; 2],
    pub maxTexture3D: [c_int; 3],
    pub maxTexture3DAlt: [c_int; 3],
    pub maxTextureCubemap: c_int,
    pub maxTexture1DLayered: [c_int; 2],
    pub maxTexture2DLayered: [c_int; 3],
    pub maxTextureCubemapLayered: [c_int; 2],
    pub maxSurface1D: c_int,
    pub maxSurface2D: [c_int; 2],
    pub maxSurface3D: [c_int; 3],
    pub maxSurface1DLayered: [c_int; 2],
    pub maxSurface2DLayered: [c_int; 3],
    pub maxSurfaceCubemap: c_int,
    pub maxSurfaceCubemapLayered: [c_int; 2],
    pub surfaceAlignment: usize,
    pub concurrentKernels: c_int,
    pub ECCEnabled: c_int,
    pub pciBusID: c_int,
    pub pciDeviceID: c_int,
    pub pciDomainID: c_int,
    pub tccDriver: c_int,
    pub asyncEngineCount: c_int,
    pub unifiedAddressing: c_int,
    pub memoryClockRate: c_int,
    pub memoryBusWidth: c_int,
    pub l2CacheSize: c_int,
    pub persistingL2CacheMaxSize: c_int,
    pub maxThreadsPerMultiProcessor: c_int,
    pub streamPrioritiesSupported: c_int,
    pub globalL1CacheSupported: c_int,
    pub localL1CacheSupported: c_int,
    pub sharedMemPerMultiprocessor: usize,
    pub regsPerMultiprocessor: c_int,
    pub managedMemory: c_int,
    pub isMultiGpuBoard: c_int,
    pub multiGpuBoardGroupID: c_int,
    pub hostNativeAtomicSupported: c_int,
    pub singleToDoublePrecisionPerfRatio: c_int,
    pub pageableMemoryAccess: c_int,
    pub concurrentManagedAccess: c_int,
    pub computePreemptionSupported: c_int,
    pub canUseHostPointerForRegisteredMem: c_int,
    pub cooperativeLaunch: c_int,
    pub cooperativeMultiDeviceLaunch: c_int,
    pub sharedMemPerBlockOptin: usize,
    pub pageableMemoryAccessUsesHostPageTables: c_int,
    pub directManagedMemAccessFromHost: c_int,
    pub maxBlocksPerMultiProcessor: c_int,
    pub accessPolicyMaxWindowSize: c_int,
    pub reservedSharedMemPerBlock: usize,
    pub hostRegisterSupported: c_int,
    pub sparseCudaArraySupported: c_int,
    pub hostRegisterReadOnlySupported: c_int,
    pub timelineSemaphoreInteropSupported: c_int,
    pub memoryPoolsSupported: c_int,
    pub gpuDirectRDMASupported: c_int,
    pub gpuDirectRDMAFlushWritesOptions: u32,
    pub gpuDirectRDMAWritesOrdering: c_int,
    pub memoryPoolSupportedHandleTypes: u32,
    pub deferredMappingCudaArraySupported: c_int,
    pub ipcEventSupported: c_int,
    pub clusterLaunch: c_int,
    pub unifiedFunctionPointers: c_int,
    pub reserved: [c_int; 63],
}

impl DeviceProp12 {
    /// Fills every field from the device's identity and attributes.
    pub fn from_device(d: &DeviceInfo, attr: &mut dyn FnMut(c_int) -> RtResult<c_int>) -> RtResult<Self> {
        // SAFETY: all-zero is a valid value of this plain C struct.
        let mut p: Self = unsafe { std::mem::zeroed() };
        p.name = d.name;
        p.uuid = d.uuid;
        p.totalGlobalMem = d.total_mem;
        p.sharedMemPerBlock = attr(8)? as usize;
        p.regsPerBlock = attr(12)?;
        p.warpSize = attr(10)?;
        p.memPitch = attr(11)? as usize;
        p.maxThreadsPerBlock = attr(1)?;
        p.maxThreadsDim[0] = attr(2)?;
        p.maxThreadsDim[1] = attr(3)?;
        p.maxThreadsDim[2] = attr(4)?;
        p.maxGridSize[0] = attr(5)?;
        p.maxGridSize[1] = attr(6)?;
        p.maxGridSize[2] = attr(7)?;
        p.clockRate = attr(13)?;
        p.totalConstMem = attr(9)? as usize;
        p.major = attr(75)?;
        p.minor = attr(76)?;
        p.textureAlignment = attr(14)? as usize;
        p.texturePitchAlignment = attr(51)? as usize;
        p.deviceOverlap = attr(15)?;
        p.multiProcessorCount = attr(16)?;
        p.kernelExecTimeoutEnabled = attr(17)?;
        p.integrated = attr(18)?;
        p.canMapHostMemory = attr(19)?;
        p.computeMode = attr(20)?;
        p.maxTexture1D = attr(21)?;
        p.maxTexture1DMipmap = attr(77)?;
        p.maxTexture1DLinear = attr(69)?;
        p.maxTexture2D[0] = attr(22)?;
        p.maxTexture2D[1] = attr(23)?;
        p.maxTexture2DMipmap[0] = attr(73)?;
        p.maxTexture2DMipmap[1] = attr(74)?;
        p.maxTexture2DLinear[0] = attr(70)?;
        p.maxTexture2DLinear[1] = attr(71)?;
        p.maxTexture2DLinear[2] = attr(72)?;
        p.maxTexture2DGather[0] = attr(45)?;
        p.maxTexture2DGather[1] = attr(46)?;
        p.maxTexture3D[0] = attr(24)?;
        p.maxTexture3D[1] = attr(25)?;
        p.maxTexture3D[2] = attr(26)?;
        p.maxTexture3DAlt[0] = attr(47)?;
        p.maxTexture3DAlt[1] = attr(48)?;
        p.maxTexture3DAlt[2] = attr(49)?;
        p.maxTextureCubemap = attr(52)?;
        p.maxTexture1DLayered[0] = attr(42)?;
        p.maxTexture1DLayered[1] = attr(43)?;
        p.maxTexture2DLayered[0] = attr(27)?;
        p.maxTexture2DLayered[1] = attr(28)?;
        p.maxTexture2DLayered[2] = attr(29)?;
        p.maxTextureCubemapLayered[0] = attr(53)?;
        p.maxTextureCubemapLayered[1] = attr(54)?;
        p.maxSurface1D = attr(55)?;
        p.maxSurface2D[0] = attr(56)?;
        p.maxSurface2D[1] = attr(57)?;
        p.maxSurface3D[0] = attr(58)?;
        p.maxSurface3D[1] = attr(59)?;
        p.maxSurface3D[2] = attr(60)?;
        p.maxSurface1DLayered[0] = attr(61)?;
        p.maxSurface1DLayered[1] = attr(62)?;
        p.maxSurface2DLayered[0] = attr(63)?;
        p.maxSurface2DLayered[1] = attr(64)?;
        p.maxSurface2DLayered[2] = attr(65)?;
        p.maxSurfaceCubemap = attr(66)?;
        p.maxSurfaceCubemapLayered[0] = attr(67)?;
        p.maxSurfaceCubemapLayered[1] = attr(68)?;
        p.surfaceAlignment = attr(30)? as usize;
        p.concurrentKernels = attr(31)?;
        p.ECCEnabled = attr(32)?;
        p.pciBusID = attr(33)?;
        p.pciDeviceID = attr(34)?;
        p.pciDomainID = attr(50)?;
        p.tccDriver = attr(35)?;
        p.asyncEngineCount = attr(40)?;
        p.unifiedAddressing = attr(41)?;
        p.memoryClockRate = attr(36)?;
        p.memoryBusWidth = attr(37)?;
        p.l2CacheSize = attr(38)?;
        p.persistingL2CacheMaxSize = attr(108)?;
        p.maxThreadsPerMultiProcessor = attr(39)?;
        p.streamPrioritiesSupported = attr(78)?;
        p.globalL1CacheSupported = attr(79)?;
        p.localL1CacheSupported = attr(80)?;
        p.sharedMemPerMultiprocessor = attr(81)? as usize;
        p.regsPerMultiprocessor = attr(82)?;
        p.managedMemory = attr(83)?;
        p.isMultiGpuBoard = attr(84)?;
        p.multiGpuBoardGroupID = attr(85)?;
        p.hostNativeAtomicSupported = attr(86)?;
        p.singleToDoublePrecisionPerfRatio = attr(87)?;
        p.pageableMemoryAccess = attr(88)?;
        p.concurrentManagedAccess = attr(89)?;
        p.computePreemptionSupported = attr(90)?;
        p.canUseHostPointerForRegisteredMem = attr(91)?;
        p.cooperativeLaunch = attr(95)?;
        p.cooperativeMultiDeviceLaunch = attr(96)?;
        p.sharedMemPerBlockOptin = attr(97)? as usize;
        p.pageableMemoryAccessUsesHostPageTables = attr(100)?;
        p.directManagedMemAccessFromHost = attr(101)?;
        p.maxBlocksPerMultiProcessor = attr(106)?;
        p.accessPolicyMaxWindowSize = attr(109)?;
        p.reservedSharedMemPerBlock = attr(111)? as usize;
        p.hostRegisterSupported = attr(99)?;
        p.sparseCudaArraySupported = attr(112)?;
        p.hostRegisterReadOnlySupported = attr(113)?;
        p.timelineSemaphoreInteropSupported = attr(114)?;
        p.memoryPoolsSupported = attr(115)?;
        p.gpuDirectRDMASupported = attr(116)?;
        p.gpuDirectRDMAFlushWritesOptions = attr(117)? as u32;
        p.gpuDirectRDMAWritesOrdering = attr(118)?;
        p.memoryPoolSupportedHandleTypes = attr(119)? as u32;
        p.deferredMappingCudaArraySupported = attr(121)?;
        p.ipcEventSupported = attr(125)?;
        p.clusterLaunch = attr(120)?;
        p.unifiedFunctionPointers = attr(129)?;
        Ok(p)
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Checks every field's offset and the size against the layout of NVIDIA's
    /// `driver_types.h` (CUDA 13.x and 12.9, measured with `offsetof` on LP64).
    macro_rules! layout {
        ($ty:ident, $size:expr, [$(($field:ident, $off:expr)),* $(,)?]) => {
            $(assert_eq!(offset_of!($ty, $field), $off, concat!(stringify!($ty), ".", stringify!($field)));)*
            assert_eq!(size_of::<$ty>(), $size, stringify!($ty));
        };
    }

    #[test]
    fn cuda13_layout() {
        layout!(
            DeviceProp13,
            1008,
            [
                (name, 0),
                (uuid, 256),
                (luid, 272),
                (luidDeviceNodeMask, 280),
                (totalGlobalMem, 288),
                (sharedMemPerBlock, 296),
                (regsPerBlock, 304),
                (warpSize, 308),
                (memPitch, 312),
                (maxThreadsPerBlock, 320),
                (maxThreadsDim, 324),
                (maxGridSize, 336),
                (totalConstMem, 352),
                (major, 360),
                (minor, 364),
                (textureAlignment, 368),
                (texturePitchAlignment, 376),
                (multiProcessorCount, 384),
                (integrated, 388),
                (canMapHostMemory, 392),
                (maxTexture1D, 396),
                (maxTexture1DMipmap, 400),
                (maxTexture2D, 404),
                (maxTexture2DMipmap, 412),
                (maxTexture2DLinear, 420),
                (maxTexture2DGather, 432),
                (maxTexture3D, 440),
                (maxTexture3DAlt, 452),
                (maxTextureCubemap, 464),
                (maxTexture1DLayered, 468),
                (maxTexture2DLayered, 476),
                (maxTextureCubemapLayered, 488),
                (maxSurface1D, 496),
                (maxSurface2D, 500),
                (maxSurface3D, 508),
                (maxSurface1DLayered, 520),
                (maxSurface2DLayered, 528),
                (maxSurfaceCubemap, 540),
                (maxSurfaceCubemapLayered, 544),
                (surfaceAlignment, 552),
                (concurrentKernels, 560),
                (ECCEnabled, 564),
                (pciBusID, 568),
                (pciDeviceID, 572),
                (pciDomainID, 576),
                (tccDriver, 580),
                (asyncEngineCount, 584),
                (unifiedAddressing, 588),
                (memoryBusWidth, 592),
                (l2CacheSize, 596),
                (persistingL2CacheMaxSize, 600),
                (maxThreadsPerMultiProcessor, 604),
                (streamPrioritiesSupported, 608),
                (globalL1CacheSupported, 612),
                (localL1CacheSupported, 616),
                (sharedMemPerMultiprocessor, 624),
                (regsPerMultiprocessor, 632),
                (managedMemory, 636),
                (isMultiGpuBoard, 640),
                (multiGpuBoardGroupID, 644),
                (hostNativeAtomicSupported, 648),
                (pageableMemoryAccess, 652),
                (concurrentManagedAccess, 656),
                (computePreemptionSupported, 660),
                (canUseHostPointerForRegisteredMem, 664),
                (cooperativeLaunch, 668),
                (sharedMemPerBlockOptin, 672),
                (pageableMemoryAccessUsesHostPageTables, 680),
                (directManagedMemAccessFromHost, 684),
                (maxBlocksPerMultiProcessor, 688),
                (accessPolicyMaxWindowSize, 692),
                (reservedSharedMemPerBlock, 696),
                (hostRegisterSupported, 704),
                (sparseCudaArraySupported, 708),
                (hostRegisterReadOnlySupported, 712),
                (timelineSemaphoreInteropSupported, 716),
                (memoryPoolsSupported, 720),
                (gpuDirectRDMASupported, 724),
                (gpuDirectRDMAFlushWritesOptions, 728),
                (gpuDirectRDMAWritesOrdering, 732),
                (memoryPoolSupportedHandleTypes, 736),
                (deferredMappingCudaArraySupported, 740),
                (ipcEventSupported, 744),
                (clusterLaunch, 748),
                (unifiedFunctionPointers, 752),
                (deviceNumaConfig, 756),
                (deviceNumaId, 760),
                (mpsEnabled, 764),
                (hostNumaId, 768),
                (gpuPciDeviceID, 772),
                (gpuPciSubsystemID, 776),
                (hostNumaMultinodeIpcSupported, 780),
                (reserved, 784)
            ]
        );
    }

    #[test]
    fn cuda12_layout() {
        layout!(
            DeviceProp12,
            1032,
            [
                (name, 0),
                (uuid, 256),
                (luid, 272),
                (luidDeviceNodeMask, 280),
                (totalGlobalMem, 288),
                (sharedMemPerBlock, 296),
                (regsPerBlock, 304),
                (warpSize, 308),
                (memPitch, 312),
                (maxThreadsPerBlock, 320),
                (maxThreadsDim, 324),
                (maxGridSize, 336),
                (clockRate, 348),
                (totalConstMem, 352),
                (major, 360),
                (minor, 364),
                (textureAlignment, 368),
                (texturePitchAlignment, 376),
                (deviceOverlap, 384),
                (multiProcessorCount, 388),
                (kernelExecTimeoutEnabled, 392),
                (integrated, 396),
                (canMapHostMemory, 400),
                (computeMode, 404),
                (maxTexture1D, 408),
                (maxTexture1DMipmap, 412),
                (maxTexture1DLinear, 416),
                (maxTexture2D, 420),
                (maxTexture2DMipmap, 428),
                (maxTexture2DLinear, 436),
                (maxTexture2DGather, 448),
                (maxTexture3D, 456),
                (maxTexture3DAlt, 468),
                (maxTextureCubemap, 480),
                (maxTexture1DLayered, 484),
                (maxTexture2DLayered, 492),
                (maxTextureCubemapLayered, 504),
                (maxSurface1D, 512),
                (maxSurface2D, 516),
                (maxSurface3D, 524),
                (maxSurface1DLayered, 536),
                (maxSurface2DLayered, 544),
                (maxSurfaceCubemap, 556),
                (maxSurfaceCubemapLayered, 560),
                (surfaceAlignment, 568),
                (concurrentKernels, 576),
                (ECCEnabled, 580),
                (pciBusID, 584),
                (pciDeviceID, 588),
                (pciDomainID, 592),
                (tccDriver, 596),
                (asyncEngineCount, 600),
                (unifiedAddressing, 604),
                (memoryClockRate, 608),
                (memoryBusWidth, 612),
                (l2CacheSize, 616),
                (persistingL2CacheMaxSize, 620),
                (maxThreadsPerMultiProcessor, 624),
                (streamPrioritiesSupported, 628),
                (globalL1CacheSupported, 632),
                (localL1CacheSupported, 636),
                (sharedMemPerMultiprocessor, 640),
                (regsPerMultiprocessor, 648),
                (managedMemory, 652),
                (isMultiGpuBoard, 656),
                (multiGpuBoardGroupID, 660),
                (hostNativeAtomicSupported, 664),
                (singleToDoublePrecisionPerfRatio, 668),
                (pageableMemoryAccess, 672),
                (concurrentManagedAccess, 676),
                (computePreemptionSupported, 680),
                (canUseHostPointerForRegisteredMem, 684),
                (cooperativeLaunch, 688),
                (cooperativeMultiDeviceLaunch, 692),
                (sharedMemPerBlockOptin, 696),
                (pageableMemoryAccessUsesHostPageTables, 704),
                (directManagedMemAccessFromHost, 708),
                (maxBlocksPerMultiProcessor, 712),
                (accessPolicyMaxWindowSize, 716),
                (reservedSharedMemPerBlock, 720),
                (hostRegisterSupported, 728),
                (sparseCudaArraySupported, 732),
                (hostRegisterReadOnlySupported, 736),
                (timelineSemaphoreInteropSupported, 740),
                (memoryPoolsSupported, 744),
                (gpuDirectRDMASupported, 748),
                (gpuDirectRDMAFlushWritesOptions, 752),
                (gpuDirectRDMAWritesOrdering, 756),
                (memoryPoolSupportedHandleTypes, 760),
                (deferredMappingCudaArraySupported, 764),
                (ipcEventSupported, 768),
                (clusterLaunch, 772),
                (unifiedFunctionPointers, 776),
                (reserved, 780)
            ]
        );
    }

    #[test]
    fn fields_come_from_their_attributes() {
        let info = DeviceInfo { name: [65; 256], uuid: [7; 16], total_mem: 1 << 34 };
        // Every attribute answers its own id, so each field shows which one it read.
        let p = DeviceProp13::from_device(&info, &mut |a| Ok(a)).unwrap();
        assert_eq!((p.major, p.minor, p.warpSize, p.maxThreadsPerBlock), (75, 76, 10, 1));
        assert_eq!(p.maxThreadsDim, [2, 3, 4]);
        assert_eq!(p.maxGridSize, [5, 6, 7]);
        assert_eq!((p.sharedMemPerBlock, p.totalConstMem, p.gpuPciSubsystemID), (8, 9, 140));
        assert_eq!((p.totalGlobalMem, p.uuid[0]), (1 << 34, 7));
        let p = DeviceProp12::from_device(&info, &mut |a| Ok(a)).unwrap();
        assert_eq!((p.clockRate, p.memoryClockRate, p.cooperativeMultiDeviceLaunch), (13, 36, 96));
        // A failing attribute fails the whole query.
        assert!(DeviceProp13::from_device(&info, &mut |_| Err(crate::error::CudaError::INVALID_VALUE)).is_err());
    }
}
