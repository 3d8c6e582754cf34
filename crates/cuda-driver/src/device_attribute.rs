//! `cuDeviceGetAttribute`: one plausible answer for each `CUdevice_attribute` of CUDA 13.
//!
//! Values that describe the device come from [`DeviceProperties`]; texture/surface limits
//! are those of recent NVIDIA GPUs (textures are not implemented, but cudart queries the
//! limits at init and fails unless each call succeeds); features we lack (cluster launch,
//! RDMA, ...) answer 0 so programs take their
//! fallback paths. Ids follow `cuda.h` of CUDA 13 (`CU_DEVICE_ATTRIBUTE_MAX` = 148 in
//! 13.0; 148, `ATOMIC_REDUCTION_SUPPORTED`, appeared in a later 13.x and answers 0).

use backend_api::{DeviceProperties, ManagedMemory};

use crate::device::clamp_i32;

/// The largest attribute id answered.
pub(crate) const MAX_ATTRIBUTE: i32 = 148;

/// The value of attribute `attr` for device `ordinal` with properties `p` and managed
/// memory `managed` (`backend_api::Device::managed_memory`), `None` for unknown ids.
pub(crate) fn attribute(p: &DeviceProperties, managed: Option<ManagedMemory>, ordinal: i32, attr: i32) -> Option<i32> {
    let host = p.host_addressable_memory as i32;
    let managed_memory = managed.is_some() as i32;
    let concurrent_managed = managed.is_some_and(|m| m.concurrent_access) as i32;
    let u = |v: u32| clamp_i32(v as u64);
    let value = match attr {
        1 => u(p.max_threads_per_block),
        2..=4 => u(p.max_block_dim[(attr - 2) as usize]),
        5..=7 => u(p.max_grid_dim[(attr - 5) as usize]),
        8 => u(p.shared_memory_per_block),
        9 => u(p.total_constant_memory),
        10 => u(p.warp_size),
        11 => i32::MAX, // MAX_PITCH
        12 => u(p.registers_per_block),
        13 => u(p.clock_rate_khz),
        14 => 512, // TEXTURE_ALIGNMENT
        15 => 1,   // GPU_OVERLAP
        16 => u(p.multiprocessor_count),
        17 => 0, // KERNEL_EXEC_TIMEOUT
        // INTEGRATED: 0 even for the CPU device, so cudart takes its discrete-GPU paths
        // (which work: device memory is host memory there).
        18 => 0,
        19 => 1,          // CAN_MAP_HOST_MEMORY
        20 => 0,          // COMPUTE_MODE: default
        21 => 131072,     // MAXIMUM_TEXTURE1D_WIDTH
        22 => 131072,     // TEXTURE2D_WIDTH
        23 => 65536,      // TEXTURE2D_HEIGHT
        24..=26 => 16384, // TEXTURE3D_WIDTH/HEIGHT/DEPTH
        27 | 28 => 32768, // TEXTURE2D_LAYERED_WIDTH/HEIGHT
        29 => 2048,       // TEXTURE2D_LAYERED_LAYERS
        30 => 512,        // SURFACE_ALIGNMENT
        31 => 1,          // CONCURRENT_KERNELS
        32 => 0,          // ECC_ENABLED
        33 => u(p.pci_bus),
        34 => u(p.pci_device),
        35 => 0, // TCC_DRIVER
        36 => u(p.memory_clock_rate_khz),
        37 => u(p.memory_bus_width),
        38 => u(p.l2_cache_size),
        39 => u(p.max_threads_per_multiprocessor),
        40 => 2,          // ASYNC_ENGINE_COUNT
        41 => 1,          // UNIFIED_ADDRESSING
        42 => 32768,      // TEXTURE1D_LAYERED_WIDTH
        43 => 2048,       // TEXTURE1D_LAYERED_LAYERS
        44 => 0,          // CAN_TEX2D_GATHER (deprecated)
        45 | 46 => 32768, // TEXTURE2D_GATHER_WIDTH/HEIGHT
        47 | 48 => 8192,  // TEXTURE3D_WIDTH/HEIGHT_ALTERNATE
        49 => 32768,      // TEXTURE3D_DEPTH_ALTERNATE
        50 => u(p.pci_domain),
        51 => 32,         // TEXTURE_PITCH_ALIGNMENT
        52 => 32768,      // TEXTURECUBEMAP_WIDTH
        53 => 32768,      // TEXTURECUBEMAP_LAYERED_WIDTH
        54 => 2046,       // TEXTURECUBEMAP_LAYERED_LAYERS
        55 => 32768,      // SURFACE1D_WIDTH
        56 => 131072,     // SURFACE2D_WIDTH
        57 => 65536,      // SURFACE2D_HEIGHT
        58..=60 => 16384, // SURFACE3D_WIDTH/HEIGHT/DEPTH
        61 => 32768,      // SURFACE1D_LAYERED_WIDTH
        62 => 2048,       // SURFACE1D_LAYERED_LAYERS
        63 | 64 => 32768, // SURFACE2D_LAYERED_WIDTH/HEIGHT
        65 => 2048,       // SURFACE2D_LAYERED_LAYERS
        66 => 32768,      // SURFACECUBEMAP_WIDTH
        67 => 32768,      // SURFACECUBEMAP_LAYERED_WIDTH
        68 => 2046,       // SURFACECUBEMAP_LAYERED_LAYERS
        69 => 1 << 27,    // TEXTURE1D_LINEAR_WIDTH (deprecated)
        70 => 131072,     // TEXTURE2D_LINEAR_WIDTH
        71 => 65000,      // TEXTURE2D_LINEAR_HEIGHT
        72 => 2097120,    // TEXTURE2D_LINEAR_PITCH
        73 | 74 => 32768, // TEXTURE2D_MIPMAPPED_WIDTH/HEIGHT
        75 => u(p.compute_capability.0),
        76 => u(p.compute_capability.1),
        77 => 32768, // TEXTURE1D_MIPMAPPED_WIDTH
        78 => 1,     // STREAM_PRIORITIES_SUPPORTED
        79 => 1,     // GLOBAL_L1_CACHE_SUPPORTED
        80 => 1,     // LOCAL_L1_CACHE_SUPPORTED
        81 => u(p.shared_memory_per_multiprocessor),
        82 => u(p.registers_per_block.max(65536)), // MAX_REGISTERS_PER_MULTIPROCESSOR
        83 => managed_memory,                      // MANAGED_MEMORY
        84 => 0,                                   // MULTI_GPU_BOARD
        85 => ordinal,                             // MULTI_GPU_BOARD_GROUP_ID
        86 => host,                                // HOST_NATIVE_ATOMIC_SUPPORTED
        87 => 2,                                   // SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO
        88 => host,                                // PAGEABLE_MEMORY_ACCESS
        89 => concurrent_managed,                  // CONCURRENT_MANAGED_ACCESS
        90 => 0,                                   // COMPUTE_PREEMPTION_SUPPORTED
        91 => host,                                // CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM
        92..=94 => 0,                              // stream memory operations (v1 API)
        95 => p.cooperative_launch as i32,         // COOPERATIVE_LAUNCH
        96 => 0,                                   // COOPERATIVE_MULTI_DEVICE_LAUNCH (removed in CUDA 12)
        97 => u(p.shared_memory_per_block_optin),
        98 => 0,     // CAN_FLUSH_REMOTE_WRITES
        99 => 1,     // HOST_REGISTER_SUPPORTED
        100 => host, // PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES
        // The host reaches managed memory where it lies, without migration, on every
        // device that has it (the CPU device's memory, AMD's system memory).
        101 => managed_memory, // DIRECT_MANAGED_MEM_ACCESS_FROM_HOST
        // Virtual memory management on the host's address space (`crate::vmm`), with
        // POSIX file descriptors as shareable handles.
        102 => host,    // VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        103 => host,    // HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED
        104 | 105 => 0, // handle types Win32, Win32 KMT
        106 => 32,      // MAX_BLOCKS_PER_MULTIPROCESSOR
        107 => 0,       // GENERIC_COMPRESSION_SUPPORTED
        108 => 0,       // MAX_PERSISTING_L2_CACHE_SIZE
        109 => 0,       // MAX_ACCESS_POLICY_WINDOW_SIZE
        110 => 0,       // GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED
        111 => 0,       // RESERVED_SHARED_MEMORY_PER_BLOCK
        112 => 0,       // SPARSE_CUDA_ARRAY_SUPPORTED
        113 => 1,       // READ_ONLY_HOST_REGISTER_SUPPORTED
        114 => 0,       // TIMELINE_SEMAPHORE_INTEROP_SUPPORTED
        115 => 1,       // MEMORY_POOLS_SUPPORTED (crate::mempool, any backend)
        116..=118 => 0, // GPU Direct RDMA
        // Pools shareable as POSIX file descriptors (bit 1) where memory is the host's
        // (`crate::ipc::pool`).
        119 => host, // MEMPOOL_SUPPORTED_HANDLE_TYPES
        120 => 0,    // CLUSTER_LAUNCH
        121 => 0,    // DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED
        // 64-bit stream memory operations and CU_STREAM_WAIT_VALUE_NOR (`crate::memop`,
        // on devices whose memory the host addresses); the v1 attributes 92..=94 stay 0,
        // as an H200 answers.
        122 | 123 => host,
        124 => 0,       // DMA_BUF_SUPPORTED
        125 => host,    // IPC_EVENT_SUPPORTED (`crate::ipc::event`)
        126 => 1,       // MEM_SYNC_DOMAIN_COUNT
        127 => 0,       // TENSOR_MAP_ACCESS_SUPPORTED
        128 => 0,       // HANDLE_TYPE_FABRIC_SUPPORTED
        129 => 0,       // UNIFIED_FUNCTION_POINTERS
        130 => 0,       // NUMA_CONFIG: none
        131 => -1,      // NUMA_ID
        132 => 0,       // MULTICAST_SUPPORTED
        133 => 0,       // MPS_ENABLED
        134 => 0,       // HOST_NUMA_ID
        135 => 0,       // D3D12_CIG_SUPPORTED
        136 | 137 => 0, // MEM_DECOMPRESS_ALGORITHM_MASK / MAXIMUM_LENGTH
        138 => 0,       // VULKAN_CIG_SUPPORTED
        139 | 140 => 0, // GPU_PCI_DEVICE_ID / SUBSYSTEM_ID: not an NVIDIA PCI function
        141 => 0,       // HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        // Pools of pinned host memory (`crate::mempool`) where the device addresses the
        // host's memory; HOST_NUMA pools are those of node 0, the HOST_NUMA_ID above.
        142 => host, // HOST_NUMA_MEMORY_POOLS_SUPPORTED
        143 => 0,    // HOST_NUMA_MULTINODE_IPC_SUPPORTED
        144 => host, // HOST_MEMORY_POOLS_SUPPORTED
        145 => 0,    // HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        146 => 0,    // HOST_ALLOC_DMA_BUF_SUPPORTED
        147 => 0,    // ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED
        148 => 0,    // ATOMIC_REDUCTION_SUPPORTED
        _ => return None,
    };
    debug_assert!((1..=MAX_ATTRIBUTE).contains(&attr));
    Some(value)
}
