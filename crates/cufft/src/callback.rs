//! LTO callbacks (`cufftXtSetJITCallback`): device functions a transform calls for each
//! element it loads or stores.
//!
//! The callback arrives as LTO-IR from NVRTC's `-dlto`, which in this stack is the
//! program's relocatable PTX. When the plan is made, the callback's module is loaded
//! through libcuda with a kernel of ours appended ([`wrapper_ptx`]) that calls the callback
//! once per element. An execution then runs, in stream order on the plan's stream:
//! 1. a load callback's kernel: `staged[o] = callback(input, o, info, shared)` for every
//!    element offset `o` of the input layout;
//! 2. the transform, from the staged input (or the input) to a staged output (or the
//!    output);
//! 3. a store callback's kernel: `callback(output, o, staged[o], info, shared)` for every
//!    element offset `o` of the output layout.
//!
//! Offsets are element offsets in the caller's layout (stride and distance included) and
//! each element is loaded and stored once, as NVIDIA's cuFFT calls its callbacks (measured
//! on an H200 with an advanced layout). Rules from the same measurements: a callback is set
//! before the plan is made (`CUFFT_INVALID_PLAN` after) and cannot be cleared
//! (`CUFFT_NOT_IMPLEMENTED`), bad LTO-IR fails the make with `CUFFT_INTERNAL_ERROR`, and a
//! callback of a type the transform has no use for is accepted and not called. NVIDIA's
//! cuFFT links a plan's load and store LTO-IR together, so one program given for both
//! fails its make there; here each callback is a module of its own.

use std::ffi::{c_int, c_void, CString};

use libcuda_client::driver::{CUfunction, CUmodule};

use crate::layout::Side;
use crate::types::*;

/// What a callback reads or writes per element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Complex,
    DoubleComplex,
    Real,
    DoubleReal,
}

impl Value {
    fn bytes(self) -> u64 {
        match self {
            Value::Real => 4,
            Value::Complex | Value::DoubleReal => 8,
            Value::DoubleComplex => 16,
        }
    }

    /// The value of a transform's input (`store` false) or output elements.
    pub fn of(ty: FftType, store: bool) -> Value {
        let complex = match ty.kind {
            Kind::C2C => true,
            Kind::R2C => store,
            Kind::C2R => !store,
        };
        match (complex, ty.precision) {
            (true, Precision::Single) => Value::Complex,
            (true, Precision::Double) => Value::DoubleComplex,
            (false, Precision::Single) => Value::Real,
            (false, Precision::Double) => Value::DoubleReal,
        }
    }
}

/// `cufftXtCallbackType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallbackType {
    pub store: bool,
    pub value: Value,
}

impl CallbackType {
    pub fn from_c(v: c_int) -> Option<CallbackType> {
        let value = match v & 3 {
            0 => Value::Complex,
            1 => Value::DoubleComplex,
            2 => Value::Real,
            _ => Value::DoubleReal,
        };
        (0..8).contains(&v).then_some(CallbackType { store: v >= 4, value })
    }
}

/// A callback as `cufftXtSetJITCallback` gave it.
#[derive(Clone)]
pub struct JitCallback {
    pub ty: CallbackType,
    pub name: String,
    pub code: Vec<u8>,
    /// `caller_info[0]`, passed to every call.
    pub info: u64,
}

/// A plan's callbacks, set before it is made.
#[derive(Clone, Default)]
pub struct Callbacks {
    pub load: Option<JitCallback>,
    pub store: Option<JitCallback>,
    /// `cufftXtSetCallbackSharedSize`, for load and store.
    pub shared: [u32; 2],
}

/// A loaded callback kernel.
pub struct Kernel {
    module: CUmodule,
    function: CUfunction,
    pub info: u64,
    pub shared: u32,
}

// SAFETY: module and function handles may be used from any thread.
unsafe impl Send for Kernel {}
unsafe impl Sync for Kernel {}

impl Drop for Kernel {
    fn drop(&mut self) {
        if let Ok(d) = libcuda_client::driver() {
            // SAFETY: a module this kernel loaded, unloaded once.
            unsafe { (d.module_unload)(self.module) };
        }
    }
}

/// The name of the kernel appended to a callback's module.
const ENTRY: &str = "__cufft_element_callback";

/// One function definition of a PTX text: its name, its return parameter's declaration and
/// its parameters' declarations.
#[derive(Debug, PartialEq, Eq)]
struct Function {
    name: String,
    ret: Option<String>,
    params: Vec<String>,
}

/// The text inside the parenthesized group that `s` starts with, and the rest after it.
fn group(s: &str) -> Option<(&str, &str)> {
    let s = s.strip_prefix('(')?;
    let end = s.find(')')?;
    Some((&s[..end], &s[end + 1..]))
}

/// Every `.func` definition of `ptx` (prototypes and `.extern` declarations are skipped).
fn functions(ptx: &str) -> Vec<Function> {
    let mut out = Vec::new();
    let mut rest = ptx;
    while let Some(at) = rest.find(".func") {
        let before = &rest[..at];
        let line_start = before.rfind('\n').map_or(0, |k| k + 1);
        let is_extern = before[line_start..].contains(".extern");
        let mut s = rest[at + ".func".len()..].trim_start();
        rest = &rest[at + ".func".len()..];
        let ret = match group(s) {
            Some((r, after)) if s.starts_with('(') => {
                s = after.trim_start();
                Some(r.trim().to_string())
            }
            _ => None,
        };
        let name_len = s.find(|c: char| !(c.is_ascii_alphanumeric() || "_$%.".contains(c))).unwrap_or(s.len());
        let name = s[..name_len].to_string();
        let Some((params, after)) = group(s[name_len..].trim_start()) else { continue };
        if is_extern || name.is_empty() || !after.trim_start().starts_with('{') {
            continue;
        }
        let params = params.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
        out.push(Function { name, ret, params });
    }
    out
}

/// Whether the mangled name `symbol` names the free function or namespace member `name`
/// (`_Z3ldCPv...`, `_ZN2ns3ldCE...`).
fn mangles(symbol: &str, name: &str) -> bool {
    // The length prefix fixes where the identifier ends.
    let tag = format!("{}{name}", name.len());
    symbol.starts_with(&format!("_Z{tag}")) || (symbol.starts_with("_ZN") && symbol.contains(&format!("{tag}E")))
}

/// The definition `name` designates: its exact symbol, else the one C++ function of that
/// source name.
fn resolve<'f>(defs: &'f [Function], name: &str) -> Result<&'f Function, String> {
    if let Some(f) = defs.iter().find(|f| f.name == name) {
        return Ok(f);
    }
    let matches: Vec<&Function> = defs.iter().filter(|f| mangles(&f.name, name)).collect();
    match matches[..] {
        [one] => Ok(one),
        [] => Err(format!("the LTO-IR defines no device function {name}")),
        _ => Err(format!("{name} names {} overloads in the LTO-IR; give the mangled name", matches.len())),
    }
}

/// The declaration `decl` (`.param <type> <name>[<n>]`) under the name `to`.
fn renamed(decl: &str, to: &str) -> String {
    let (head, last) = decl.rsplit_once(char::is_whitespace).unwrap_or(("", decl));
    let array = last.find('[').map_or("", |k| &last[k..]);
    format!("{head} {to}{array}")
}

/// PTX of a kernel calling `f` once per element: `(data, staged, offsets, count, info)`.
/// A load callback's result lands at `staged + offset`; a store callback gets the value at
/// `staged + offset`. `shared` is the caller's dynamic shared memory.
fn wrapper_ptx(f: &Function, ty: CallbackType) -> Result<String, String> {
    let expected = if ty.store { 5 } else { 4 };
    if f.params.len() != expected || f.ret.is_some() == ty.store {
        return Err(format!(
            "{} takes {} parameters{}; a {} callback takes {expected}{}",
            f.name,
            f.params.len(),
            if f.ret.is_some() { " and returns a value" } else { "" },
            if ty.store { "store" } else { "load" },
            if ty.store { "" } else { " and returns the element" }
        ));
    }
    let bytes = ty.value.bytes();
    // The element as registers: (PTX type, parts, bytes per part).
    let (part_ty, parts): (&str, u64) = match ty.value {
        Value::Real => ("b32", 1),
        Value::DoubleReal => ("b64", 1),
        Value::Complex => ("b32", 2),
        Value::DoubleComplex => ("b64", 2),
    };
    let part_bytes = bytes / parts;
    let mut call = String::new();
    let arg = |k: usize| renamed(&f.params[k], &format!("a{k}"));
    let mut args = Vec::new();
    // (data, offset) first, then for a store the element, then (info, shared).
    let scalars = ["%rd_data", "%rd_off"];
    for (k, reg) in scalars.iter().enumerate() {
        call.push_str(&format!("\t{};\n\tst.param.b64 [a{k}], {reg};\n", arg(k)));
        args.push(format!("a{k}"));
    }
    let mut next = 2;
    if ty.store {
        call.push_str(&format!("\t{};\n", arg(2)));
        for p in 0..parts {
            call.push_str(&format!("\tld.global.{part_ty} %v{p}, [%rd_at+{o}];\n\tst.param.{part_ty} [a2+{o}], %v{p};\n", o = p * part_bytes));
        }
        args.push("a2".into());
        next = 3;
    }
    for (k, reg) in [(next, "%rd_info"), (next + 1, "%rd_shared")] {
        call.push_str(&format!("\t{};\n\tst.param.b64 [a{k}], {reg};\n", arg(k)));
        args.push(format!("a{k}"));
    }
    let ret = match &f.ret {
        Some(r) => {
            call.push_str(&format!("\t{};\n", renamed(r, "r0")));
            "(r0), ".to_string()
        }
        None => String::new(),
    };
    call.push_str(&format!("\tcall.uni {ret}{}, ({});\n", f.name, args.join(", ")));
    if !ty.store {
        for p in 0..parts {
            call.push_str(&format!("\tld.param.{part_ty} %v{p}, [r0+{o}];\n\tst.global.{part_ty} [%rd_at+{o}], %v{p};\n", o = p * part_bytes));
        }
    }
    Ok(format!(
        r#"
.extern .shared .align 16 .b8 __cufft_callback_shared[];
.visible .entry {ENTRY}(.param .u64 p_data, .param .u64 p_staged, .param .u64 p_offsets, .param .u64 p_count, .param .u64 p_info)
{{
	.reg .pred %p_done;
	.reg .b32 %r_ctaid, %r_ntid, %r_tid;
	.reg .b64 %rd_i, %rd_base, %rd_count, %rd_table, %rd_off, %rd_data, %rd_staged, %rd_at, %rd_info, %rd_shared, %rd_t;
	.reg .{part_ty} %v<2>;
	mov.u32 %r_ctaid, %ctaid.x;
	mov.u32 %r_ntid, %ntid.x;
	mov.u32 %r_tid, %tid.x;
	mul.wide.u32 %rd_base, %r_ctaid, %r_ntid;
	cvt.u64.u32 %rd_i, %r_tid;
	add.s64 %rd_i, %rd_i, %rd_base;
	ld.param.u64 %rd_count, [p_count];
	setp.ge.u64 %p_done, %rd_i, %rd_count;
	@%p_done bra DONE;
	ld.param.u64 %rd_table, [p_offsets];
	shl.b64 %rd_t, %rd_i, 3;
	add.s64 %rd_t, %rd_table, %rd_t;
	ld.global.u64 %rd_off, [%rd_t];
	ld.param.u64 %rd_data, [p_data];
	ld.param.u64 %rd_staged, [p_staged];
	mul.lo.u64 %rd_t, %rd_off, {bytes};
	add.s64 %rd_at, %rd_staged, %rd_t;
	ld.param.u64 %rd_info, [p_info];
	mov.u64 %rd_shared, __cufft_callback_shared;
	cvta.shared.u64 %rd_shared, %rd_shared;
	{{
{call}	}}
DONE:
	ret;
}}
"#
    ))
}

/// Loads `cb`'s kernel into the current context; `Err` says why it cannot be.
pub fn load(cb: &JitCallback, shared: u32) -> Result<Kernel, String> {
    if cb.code.starts_with(&[0xed, 0x43, 0x4e, 0x7f]) {
        return Err(
            "the LTO-IR is NVIDIA's (NVVM bitcode), which this cuFFT cannot compile; compile the callback with this stack's NVRTC (-dlto)".into()
        );
    }
    let text = cb.code.strip_suffix(&[0]).unwrap_or(&cb.code);
    let ptx = std::str::from_utf8(text).map_err(|_| "the LTO-IR is neither this stack's (PTX text) nor NVIDIA's".to_string())?;
    if !ptx.contains(".version") {
        return Err("the LTO-IR is neither this stack's (PTX text) nor NVIDIA's".into());
    }
    let defs = functions(ptx);
    let f = resolve(&defs, &cb.name)?;
    let image = CString::new(format!("{ptx}\n{}", wrapper_ptx(f, cb.ty)?)).map_err(|_| "the LTO-IR holds a NUL byte".to_string())?;
    let d = libcuda_client::driver().map_err(str::to_string)?;
    let mut module: CUmodule = std::ptr::null_mut();
    // SAFETY: a NUL-terminated PTX image and a writable out-pointer.
    let status = unsafe { (d.module_load_data)(&mut module, image.as_ptr().cast()) };
    if status != 0 {
        return Err(format!("loading the callback's module failed (CUresult {status}; LIBCUDA_LOG shows the compiler's message)"));
    }
    let mut function: CUfunction = std::ptr::null_mut();
    let entry = CString::new(ENTRY).expect("no NUL");
    // SAFETY: a live module and a NUL-terminated name.
    let status = unsafe { (d.module_get_function)(&mut function, module, entry.as_ptr()) };
    let kernel = Kernel { module, function, info: cb.info, shared };
    if status != 0 {
        return Err(format!("the callback's kernel is missing (CUresult {status})"));
    }
    Ok(kernel)
}

impl Kernel {
    /// Queues the kernel over `count` offsets on `stream` (a `CUstream`, as an address).
    pub fn launch(&self, stream: usize, data: u64, staged: u64, offsets: u64, count: u64) -> Result<(), CufftResult> {
        let d = libcuda_client::driver().map_err(|_| CUFFT_SETUP_FAILED)?;
        let mut values = [data, staged, offsets, count, self.info];
        let mut params: Vec<*mut c_void> = values.iter_mut().map(|v| (v as *mut u64).cast()).collect();
        let block = 256u64;
        let grid = count.div_ceil(block).max(1);
        let Ok(grid) = u32::try_from(grid) else {
            libcuda_client::log!("cufft", "{count} elements are too many for one callback launch");
            return Err(CUFFT_EXEC_FAILED);
        };
        // SAFETY: a live function, five u64 parameters as the kernel declares them.
        let status = unsafe {
            (d.launch_kernel)(
                self.function,
                grid,
                1,
                1,
                block as u32,
                1,
                1,
                self.shared,
                stream as libcuda_client::CUstream,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        if status != 0 {
            libcuda_client::log!("cufft", "launching a callback kernel failed (CUresult {status})");
            return Err(CUFFT_EXEC_FAILED);
        }
        Ok(())
    }
}

/// Device buffers of a plan with callbacks, for one placement (in place or not): the
/// staged input and output (laid out as the caller's) and the element offsets of each side.
pub struct Staging {
    pub input: u64,
    pub output: u64,
    pub input_offsets: u64,
    pub output_offsets: u64,
    pub input_count: u64,
    pub output_count: u64,
}

impl Staging {
    /// Allocates the buffers for sides `input` and `output` of `batch` batches whose
    /// extents are `input_bytes` and `output_bytes`, and writes the offset tables.
    pub fn new(input: &Side, output: &Side, batch: usize, input_bytes: usize, output_bytes: usize) -> Result<Staging, CufftResult> {
        let mut staging = Staging { input: 0, output: 0, input_offsets: 0, output_offsets: 0, input_count: 0, output_count: 0 };
        let input_offsets = offsets(input, batch);
        let output_offsets = offsets(output, batch);
        staging.input_count = input_offsets.len() as u64;
        staging.output_count = output_offsets.len() as u64;
        staging.input = alloc(input_bytes)?;
        staging.output = alloc(output_bytes)?;
        staging.input_offsets = alloc(input_offsets.len() * 8)?;
        staging.output_offsets = alloc(output_offsets.len() * 8)?;
        for (table, at) in [(&input_offsets, staging.input_offsets), (&output_offsets, staging.output_offsets)] {
            let host = libcuda_client::host_range(at, table.len() * 8).map_err(|e| {
                libcuda_client::log!("cufft", "callback offsets: {e}");
                CUFFT_NOT_SUPPORTED
            })?;
            // SAFETY: a fresh allocation of ours, host addressable for that many bytes, that
            // no queued work uses yet.
            unsafe { std::ptr::copy_nonoverlapping(table.as_ptr(), host.cast::<u64>(), table.len()) };
        }
        Ok(staging)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let Ok(d) = libcuda_client::driver() else { return };
        for p in [self.input, self.output, self.input_offsets, self.output_offsets] {
            if p != 0 {
                // SAFETY: an allocation of ours, freed once (the plan's stream was drained).
                unsafe { (d.mem_free)(p) };
            }
        }
    }
}

/// The element offsets of a side, batch by batch, row-major.
fn offsets(side: &Side, batch: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(batch * side.count());
    for b in 0..batch {
        for row in 0..side.rows() {
            let base = side.row_offset(b, row);
            out.extend((0..side.row_len()).map(|j| (base + j * side.stride) as u64));
        }
    }
    out
}

fn alloc(bytes: usize) -> Result<u64, CufftResult> {
    let d = libcuda_client::driver().map_err(|_| CUFFT_SETUP_FAILED)?;
    let mut p = 0u64;
    // SAFETY: a writable out-pointer.
    let status = unsafe { (d.mem_alloc)(&mut p, bytes.max(1)) };
    if status != 0 {
        libcuda_client::log!("cufft", "allocating {bytes} bytes for callback staging failed (CUresult {status})");
        return Err(CUFFT_ALLOC_FAILED);
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = "
.visible .func  (.param .align 4 .b8 func_retval0[8]) _Z3ldCPvyS_S_
(
	.param .b64 _Z3ldCPvyS_S__param_0,
	.param .b64 _Z3ldCPvyS_S__param_1,
	.param .b64 _Z3ldCPvyS_S__param_2,
	.param .b64 _Z3ldCPvyS_S__param_3
)
;
.extern .func (.param .b32 r) other(.param .b64 x);
.visible .func  (.param .align 4 .b8 func_retval0[8]) _Z3ldCPvyS_S_(
	.param .b64 _Z3ldCPvyS_S__param_0,
	.param .b64 _Z3ldCPvyS_S__param_1,
	.param .b64 _Z3ldCPvyS_S__param_2,
	.param .b64 _Z3ldCPvyS_S__param_3
)
{
	ret;
}
.visible .func _Z3stCPvy6float2S_S_(
	.param .b64 _Z3stCPvy6float2S_S__param_0,
	.param .b64 _Z3stCPvy6float2S_S__param_1,
	.param .align 8 .b8 _Z3stCPvy6float2S_S__param_2[8],
	.param .b64 _Z3stCPvy6float2S_S__param_3,
	.param .b64 _Z3stCPvy6float2S_S__param_4
)
{
	ret;
}
.func plain(.param .b64 a) { ret; }
";

    #[test]
    fn definitions_are_found_by_symbol_or_source_name() {
        let defs = functions(PTX);
        let names: Vec<&str> = defs.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["_Z3ldCPvyS_S_", "_Z3stCPvy6float2S_S_", "plain"], "prototypes and .extern declarations are skipped");
        assert_eq!(defs[0].ret.as_deref(), Some(".param .align 4 .b8 func_retval0[8]"));
        assert_eq!(defs[1].params[2], ".param .align 8 .b8 _Z3stCPvy6float2S_S__param_2[8]");
        for (name, found) in [("ldC", "_Z3ldCPvyS_S_"), ("_Z3ldCPvyS_S_", "_Z3ldCPvyS_S_"), ("stC", "_Z3stCPvy6float2S_S_"), ("plain", "plain")] {
            assert_eq!(resolve(&defs, name).unwrap().name, found, "{name}");
        }
        for missing in ["ld", "ldc", "st", "nope"] {
            assert!(resolve(&defs, missing).is_err(), "{missing}");
        }
        assert!(mangles("_ZN2ns3ldCEPvyS_S_", "ldC"));
    }

    #[test]
    fn offsets_follow_the_layout() {
        // The advanced layout measured on an H200: n = 4, stride 2, distance 10, 2 batches.
        let side = Side { dims: vec![4], embed: vec![5], stride: 2, dist: 10 };
        assert_eq!(offsets(&side, 2), [0, 2, 4, 6, 10, 12, 14, 16]);
        let side = Side { dims: vec![2, 3], embed: vec![2, 4], stride: 1, dist: 8 };
        assert_eq!(offsets(&side, 1), [0, 1, 2, 4, 5, 6]);
    }

    #[test]
    fn wrappers_declare_the_callees_parameters() {
        let defs = functions(PTX);
        let load = CallbackType::from_c(0).unwrap();
        let store = CallbackType::from_c(4).unwrap();
        let w = wrapper_ptx(&defs[0], load).unwrap();
        assert!(w.contains(".param .align 4 .b8 r0[8];") && w.contains("call.uni (r0), _Z3ldCPvyS_S_, (a0, a1, a2, a3);"), "{w}");
        assert!(w.contains("st.global.b32 [%rd_at+4], %v1;"), "{w}");
        let w = wrapper_ptx(&defs[1], store).unwrap();
        assert!(w.contains(".param .align 8 .b8 a2[8];") && w.contains("call.uni _Z3stCPvy6float2S_S_, (a0, a1, a2, a3, a4);"), "{w}");
        assert!(w.contains("ld.global.b32 %v1, [%rd_at+4];"), "{w}");
        assert!(wrapper_ptx(&defs[0], store).is_err(), "a load function is no store callback");
        assert!(wrapper_ptx(&defs[2], load).is_err(), "wrong arity");
        assert_eq!(CallbackType::from_c(8), None);
        assert_eq!(CallbackType::from_c(7), Some(CallbackType { store: true, value: Value::DoubleReal }));
    }
}
