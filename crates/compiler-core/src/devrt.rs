//! The CUDA device runtime (the `cuda*` calls of device code, CUDA C++ Programming Guide
//! "CUDA Dynamic Parallelism", CDP2 since CUDA 12) as PTX our JIT links into modules that
//! call it, over one system call, `__devrt_syscall`, which the lowering turns into
//! [`crate::host_abi::ThreadCtx::device_runtime`].
//!
//! NVIDIA's `libcudadevrt.a` implements the same functions over driver-internal calls
//! (`__cuda_syscall_cnpv2*`, `cnp*`, `__cuda_syscall_CGS_*`) that only NVIDIA's JIT knows.
//! The driver links [`units`] ahead of every library, one lazy unit per function with
//! `.weak` linkage (PTX ISA 11.6.4), so a program's references bind here and
//! `libcudadevrt` is never pulled in. Every public function of `libcudadevrt` 13 exists,
//! under its CUDA 12+ name (`__cudaCDP2*`, what `cuda_device_runtime_api.h`'s inline
//! wrappers call) and its plain name; those the runtime does not implement (events,
//! 2D/3D copies and fills, occupancy) answer
//! `cudaErrorNotSupported` and record it as the thread's last error.
//!
//! The system call takes `(op, thread, a0..a7)`, all 64-bit: `op` one of the `OP_*`
//! codes, `thread` the caller's linear thread index in its block (the runtime keeps the
//! last error per thread, as NVIDIA's does), then the function's arguments: `dim3` values
//! packed as `x | y << 32` and `z`, 32-bit ones zero-extended. It returns the function's
//! result (a `cudaError_t` or a pointer).

/// `cudaGetLastError()`: the thread's last error, then reset to `cudaSuccess`.
pub const OP_GET_LAST_ERROR: u32 = 1;
/// `cudaPeekAtLastError()`.
pub const OP_PEEK_AT_LAST_ERROR: u32 = 2;
/// `cudaGetErrorString(code)`, `cudaGetErrorName(code)`: static strings.
pub const OP_GET_ERROR_STRING: u32 = 3;
pub const OP_GET_ERROR_NAME: u32 = 4;
/// `cudaGetParameterBufferV2(func, grid xy, grid z, block xy, block z, shared)`.
pub const OP_GET_PARAMETER_BUFFER_V2: u32 = 5;
/// `cudaGetParameterBuffer(alignment, size)` (the buffer of a later `cudaLaunchDevice`).
pub const OP_GET_PARAMETER_BUFFER: u32 = 6;
/// `cudaLaunchDeviceV2(buffer, stream)`.
pub const OP_LAUNCH_DEVICE_V2: u32 = 7;
/// `cudaLaunchDevice(func, buffer, grid xy, grid z, block xy, block z, shared, stream)`.
pub const OP_LAUNCH_DEVICE: u32 = 8;
/// `cudaStreamCreateWithFlags(&stream, flags)`, `cudaStreamDestroy(stream)`.
pub const OP_STREAM_CREATE: u32 = 9;
pub const OP_STREAM_DESTROY: u32 = 10;
/// `cudaMemcpyAsync(dst, src, count, kind, stream)`.
pub const OP_MEMCPY_ASYNC: u32 = 11;
/// `cudaMemsetAsync(dst, value, count, stream)`.
pub const OP_MEMSET_ASYNC: u32 = 12;
/// `cudaDeviceGetLimit(&value, limit)`.
pub const OP_DEVICE_GET_LIMIT: u32 = 13;
/// `cudaDeviceGetAttribute(&value, attribute, device)`.
pub const OP_DEVICE_GET_ATTRIBUTE: u32 = 14;
/// `cudaGetDevice(&device)`, `cudaGetDeviceCount(&count)`.
pub const OP_GET_DEVICE: u32 = 15;
pub const OP_GET_DEVICE_COUNT: u32 = 16;
/// `cudaMalloc(&p, size)`, `cudaFree(p)`: the device heap (as device `malloc`/`free`).
pub const OP_MALLOC: u32 = 17;
pub const OP_FREE: u32 = 18;
/// `cudaRuntimeGetVersion(&version)`.
pub const OP_RUNTIME_GET_VERSION: u32 = 19;
/// `cudaDeviceGetCacheConfig(&config)`, `cudaDeviceGetSharedMemConfig(&config)`.
pub const OP_GET_CACHE_CONFIG: u32 = 20;
pub const OP_GET_SHARED_MEM_CONFIG: u32 = 21;
/// A function the runtime does not implement; `a0` points to its NUL-terminated name.
pub const OP_NOT_SUPPORTED: u32 = 22;

/// The system call's PTX name.
pub const SYSCALL: &str = "__devrt_syscall";

/// `cudaGraphSetConditional(handle, value)` (CUDA Programming Guide, "Conditional Graph
/// Nodes"): nvcc declares it `.extern` whether or not the program is relocatable, and
/// NVIDIA's driver provides it. The lowering turns it into a 32-bit store to the handle,
/// which the driver makes the device address of the handle's value cell.
pub const GRAPH_SET_CONDITIONAL: &str = "cudaGraphSetConditional";

/// How a function's PTX parameter is declared and passed on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum P {
    /// `.b64`: passed as is.
    U64,
    /// `.b32`: zero-extended.
    U32,
    /// `.align 4 .b8 [12]` (`dim3`): two arguments, `x | y << 32` and `z`.
    Dim3,
    /// `.align 8 .b8 [N]`: a structure passed by value (not forwarded).
    Struct(u32),
}

/// `(name without prefix, returns a pointer, parameters, op)`; `None`: not supported.
type Entry = (&'static str, bool, &'static [P], Option<u32>);

use P::*;

const FUNCTIONS: &[Entry] = &[
    ("GetLastError", false, &[], Some(OP_GET_LAST_ERROR)),
    ("PeekAtLastError", false, &[], Some(OP_PEEK_AT_LAST_ERROR)),
    ("GetErrorString", true, &[U32], Some(OP_GET_ERROR_STRING)),
    ("GetErrorName", true, &[U32], Some(OP_GET_ERROR_NAME)),
    ("GetParameterBufferV2", true, &[U64, Dim3, Dim3, U32], Some(OP_GET_PARAMETER_BUFFER_V2)),
    ("GetParameterBuffer", true, &[U64, U64], Some(OP_GET_PARAMETER_BUFFER)),
    ("LaunchDeviceV2", false, &[U64, U64], Some(OP_LAUNCH_DEVICE_V2)),
    ("LaunchDeviceV2_ptsz", false, &[U64, U64], Some(OP_LAUNCH_DEVICE_V2)),
    ("LaunchDevice", false, &[U64, U64, Dim3, Dim3, U32, U64], Some(OP_LAUNCH_DEVICE)),
    ("LaunchDevice_ptsz", false, &[U64, U64, Dim3, Dim3, U32, U64], Some(OP_LAUNCH_DEVICE)),
    ("StreamCreateWithFlags", false, &[U64, U32], Some(OP_STREAM_CREATE)),
    ("StreamDestroy", false, &[U64], Some(OP_STREAM_DESTROY)),
    ("MemcpyAsync", false, &[U64, U64, U64, U32, U64], Some(OP_MEMCPY_ASYNC)),
    ("MemcpyAsync_ptsz", false, &[U64, U64, U64, U32, U64], Some(OP_MEMCPY_ASYNC)),
    ("MemsetAsync", false, &[U64, U32, U64, U64], Some(OP_MEMSET_ASYNC)),
    ("MemsetAsync_ptsz", false, &[U64, U32, U64, U64], Some(OP_MEMSET_ASYNC)),
    ("DeviceGetLimit", false, &[U64, U32], Some(OP_DEVICE_GET_LIMIT)),
    ("DeviceGetAttribute", false, &[U64, U32, U32], Some(OP_DEVICE_GET_ATTRIBUTE)),
    ("GetDevice", false, &[U64], Some(OP_GET_DEVICE)),
    ("GetDeviceCount", false, &[U64], Some(OP_GET_DEVICE_COUNT)),
    ("Malloc", false, &[U64, U64], Some(OP_MALLOC)),
    ("Free", false, &[U64], Some(OP_FREE)),
    ("RuntimeGetVersion", false, &[U64], Some(OP_RUNTIME_GET_VERSION)),
    ("DeviceGetCacheConfig", false, &[U64], Some(OP_GET_CACHE_CONFIG)),
    ("DeviceGetSharedMemConfig", false, &[U64], Some(OP_GET_SHARED_MEM_CONFIG)),
    ("OccupancyMaxActiveBlocksPerMultiprocessor", false, &[U64, U64, U32, U64], None),
    ("OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", false, &[U64, U64, U32, U64, U32], None),
    ("StreamWaitEvent", false, &[U64, U64, U32], None),
    ("StreamWaitEvent_ptsz", false, &[U64, U64, U32], None),
    ("EventCreateWithFlags", false, &[U64, U32], None),
    ("EventRecord", false, &[U64, U64], None),
    ("EventRecord_ptsz", false, &[U64, U64], None),
    ("EventRecordWithFlags", false, &[U64, U64, U32], None),
    ("EventRecordWithFlags_ptsz", false, &[U64, U64, U32], None),
    ("EventDestroy", false, &[U64], None),
    ("FuncGetAttributes", false, &[U64, U64], None),
    ("Memcpy2DAsync", false, &[U64, U64, U64, U64, U64, U64, U32, U64], None),
    ("Memcpy2DAsync_ptsz", false, &[U64, U64, U64, U64, U64, U64, U32, U64], None),
    ("Memcpy3DAsync", false, &[U64, U64], None),
    ("Memcpy3DAsync_ptsz", false, &[U64, U64], None),
    ("Memset2DAsync", false, &[U64, U64, U32, U64, U64, U64], None),
    ("Memset2DAsync_ptsz", false, &[U64, U64, U32, U64, U64, U64], None),
    ("Memset3DAsync", false, &[Struct(32), U32, Struct(24), U64], None),
    ("Memset3DAsync_ptsz", false, &[Struct(32), U32, Struct(24), U64], None),
];

/// `libcudadevrt`'s cooperative-groups entry points (plain names only), as one unit: the
/// grid barrier over the cooperative launch's workspace.
const COOPERATIVE_GROUPS: &str = include_str!("devrt/cooperative_groups.ptx");

/// The PTX of every device runtime function, one `(name, module text)` per function.
pub fn units() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for &(base, ptr, params, op) in FUNCTIONS {
        for name in [format!("__cudaCDP2{base}"), format!("cuda{base}")] {
            out.push((name.clone(), function(&name, ptr, params, op)));
        }
    }
    out.push(("cudaCGSynchronize".to_string(), COOPERATIVE_GROUPS.to_string()));
    // What a vtable's pure virtual slot calls (Itanium C++ ABI 3.2.6): device code with
    // abstract classes references it, and NVIDIA's toolchain supplies it; reaching it is
    // a program error, so it traps.
    let pure = "__cxa_pure_virtual";
    out.push((pure.to_string(), format!(".version 7.0\n.target sm_52\n.address_size 64\n.weak .func {pure}()\n{{\ntrap;\n}}\n")));
    out
}

/// One function's module: `.weak`, so that a definition of the program's own wins.
fn function(name: &str, returns_pointer: bool, params: &[P], op: Option<u32>) -> String {
    use std::fmt::Write;
    let mut s = String::from(".version 7.0\n.target sm_52\n.address_size 64\n");
    let _ = writeln!(
        s,
        ".extern .func (.param .b64 r) {SYSCALL}(.param .b64 op, .param .b64 t{});",
        (0..8).map(|i| format!(", .param .b64 a{i}")).collect::<String>()
    );
    if op.is_none() {
        let bytes: Vec<String> = name.bytes().chain([0]).map(|b| b.to_string()).collect();
        let _ = writeln!(s, ".global .align 1 .b8 {name}$name[{}] = {{{}}};", bytes.len(), bytes.join(", "));
    }
    let decls: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            U64 => format!(".param .b64 p{i}"),
            U32 => format!(".param .b32 p{i}"),
            Dim3 => format!(".param .align 4 .b8 p{i}[12]"),
            Struct(n) => format!(".param .align 8 .b8 p{i}[{n}]"),
        })
        .collect();
    let ret = if returns_pointer { "b64" } else { "b32" };
    let _ = writeln!(s, ".weak .func (.param .{ret} r) {name}({})\n{{", decls.join(", "));
    s.push_str(".reg .b64 %a<10>;\n.reg .b32 %w<8>;\n");
    // The linear thread index in the block (x fastest).
    s.push_str("mov.u32 %w0, %tid.z;\nmov.u32 %w1, %ntid.y;\nmov.u32 %w2, %tid.y;\nmad.lo.u32 %w0, %w0, %w1, %w2;\n");
    s.push_str("mov.u32 %w1, %ntid.x;\nmov.u32 %w2, %tid.x;\nmad.lo.u32 %w0, %w0, %w1, %w2;\ncvt.u64.u32 %a1, %w0;\n");
    let mut next = 2;
    match op {
        Some(op) => {
            let _ = writeln!(s, "mov.u64 %a0, {op};");
            for (i, p) in params.iter().enumerate() {
                match p {
                    U64 => {
                        let _ = writeln!(s, "ld.param.u64 %a{next}, [p{i}];");
                        next += 1;
                    }
                    U32 => {
                        let _ = writeln!(s, "ld.param.u32 %w1, [p{i}];\ncvt.u64.u32 %a{next}, %w1;");
                        next += 1;
                    }
                    Dim3 => {
                        let _ = writeln!(
                            s,
                            "ld.param.u32 %w1, [p{i}];\nld.param.u32 %w2, [p{i}+4];\nld.param.u32 %w3, [p{i}+8];\ncvt.u64.u32 %a{n}, %w2;\nshl.b64 %a{n}, %a{n}, 32;\ncvt.u64.u32 %a{z}, %w1;\nor.b64 %a{n}, %a{n}, %a{z};\ncvt.u64.u32 %a{z}, %w3;",
                            n = next,
                            z = next + 1
                        );
                        next += 2;
                    }
                    Struct(_) => {}
                }
            }
        }
        None => {
            let _ = writeln!(s, "mov.u64 %a0, {OP_NOT_SUPPORTED};\nmov.u64 %a2, {name}$name;\ncvta.global.u64 %a2, %a2;");
            next = 3;
        }
    }
    for i in next..10 {
        let _ = writeln!(s, "mov.u64 %a{i}, 0;");
    }
    let _ = writeln!(s, "call.uni (%a0), {SYSCALL}, (%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9);");
    if returns_pointer {
        s.push_str("st.param.b64 [r], %a0;\n");
    } else {
        s.push_str("cvt.u32.u64 %w0, %a0;\nst.param.b32 [r], %w0;\n");
    }
    s.push_str("ret;\n}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every unit parses and lowers for the host (the system call included).
    #[test]
    fn units_parse_and_lower() {
        let units = units();
        assert!(units.iter().any(|(n, _)| n == "__cudaCDP2LaunchDeviceV2"));
        assert!(units.iter().any(|(n, _)| n == "cudaGetParameterBufferV2"));
        assert!(units.iter().any(|(n, _)| n == "__cxa_pure_virtual"));
        for (name, text) in &units {
            let m = crate::ptx::parser::parse(text).unwrap_or_else(|e| panic!("{name}: {e:?}\n{text}"));
            crate::lower::lower_module(&m).unwrap_or_else(|e| panic!("{name}: {e:?}\n{text}"));
        }
    }

    /// `cudaGraphSetConditional` as nvcc 13 emits it (an `.extern` declaration, `call.uni`
    /// with a `.b64` handle and a `.b32` value) lowers to a volatile 32-bit store of the
    /// value at the handle's address, and the linker needs no definition of it.
    #[test]
    fn set_conditional_is_a_store_to_the_handle() {
        let ptx = r#".version 9.0
.target sm_80
.address_size 64
.extern .func cudaGraphSetConditional(.param .b64 p0, .param .b32 p1);
.visible .entry k(.param .u64 h, .param .u32 v)
{
.reg .b32 %r<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [h];
ld.param.u32 %r1, [v];
{
.param .b64 param0;
st.param.b64 [param0+0], %rd1;
.param .b32 param1;
st.param.b32 [param1+0], %r1;
call.uni cudaGraphSetConditional, (param0, param1);
}
ret;
}
"#;
        let m = crate::ptx::parser::parse(ptx).unwrap();
        let ir = crate::lower::lower_module(&m).unwrap().ir;
        assert!(ir.contains("store volatile i32"), "{ir}");
        assert!(crate::link::SYSTEM_CALLS.contains(&GRAPH_SET_CONDITIONAL));
    }
}
