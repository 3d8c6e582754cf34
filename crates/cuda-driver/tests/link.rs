//! `cuLink*` over the real CPU backend: relocatable PTX modules linked, loaded and run;
//! every expected value is computed on the host from the kernels' definitions.

use std::ffi::c_void;

use backend_api::LoadOptions;
use cuda_driver::link::input_type;
use cuda_driver::{init, CtxHandle, CuError, Driver, LinkHandle, StreamHandle};

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// `apply(out)`: out[i] = twice(i) + bias, with both defined elsewhere.
const MAIN: &str = r#"
.extern .func (.param .b32 r) twice(.param .b32 x);
.extern .global .align 4 .u32 bias;
.visible .entry apply(.param .u64 out)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call.uni (b), twice, (a);
    ld.param.b32 %r2, [b];
    }
    ld.global.u32 %r3, [bias];
    add.s32 %r4, %r2, %r3;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r4;
    ret;
}
"#;

/// Defines `twice(x) = 2x` and `bias = 5`.
const LIB: &str = r#"
.visible .global .align 4 .u32 bias = 5;
.visible .func (.param .b32 r) twice(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    add.s32 %r2, %r1, %r1;
    st.param.b32 [r], %r2;
    ret;
}
"#;

fn ptx(body: &str) -> Vec<u8> {
    format!("{HEAD}{body}\0").into_bytes()
}

fn driver() -> &'static Driver {
    let driver = init(0).expect("cuInit");
    // Each test thread retains the primary context (never released: the process ends).
    let ctx = driver.primary_ctx_retain(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();
    driver
}

/// Links `inputs` (type, bytes, name); the image (with its NUL) or the error and log.
fn link(driver: &Driver, inputs: &[(u32, Vec<u8>, &str)]) -> Result<Vec<u8>, (CuError, String)> {
    let h = driver.link_create(None).unwrap();
    let result = (|| {
        for (ty, bytes, name) in inputs {
            driver.link_add_data(h, *ty, bytes, name)?;
        }
        let (ptr, len) = driver.link_complete(h)?;
        // SAFETY: the image is `len` bytes owned by the live state `h`.
        Ok(unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec())
    })();
    let logs = driver.link_logs(h).unwrap();
    driver.link_destroy(h).unwrap();
    result.map_err(|e| (e, logs.error))
}

/// Loads `image` (NUL-terminated), runs `kernel(out)` on one block of `threads` threads
/// with `shared` bytes of dynamic shared memory, returns `out`.
fn run(driver: &Driver, image: &[u8], kernel: &str, threads: u32, shared: u32) -> Vec<u32> {
    assert_eq!(image.last(), Some(&0), "the linked image is NUL-terminated PTX");
    // SAFETY: NUL-terminated PTX.
    let (module, logs) = unsafe { driver.module_load_data(image.as_ptr().cast(), &LoadOptions::default()) };
    let module = module.unwrap_or_else(|e| panic!("loading the linked image: {e}\n{}", logs.error));
    let f = driver.module_get_function(module, kernel).unwrap();
    let bytes = threads as usize * 4;
    let out = driver.mem_alloc(bytes).unwrap();
    let mut out_arg = out;
    let mut args: [*mut c_void; 1] = [(&mut out_arg as *mut u64).cast()];
    // SAFETY: one pointer to a u64, the kernel's only parameter.
    unsafe { driver.launch_kernel(f.as_raw(), [1, 1, 1], [threads, 1, 1], shared, StreamHandle::NULL, args.as_mut_ptr(), std::ptr::null_mut()) }
        .unwrap();
    driver.ctx_synchronize(CtxHandle::NULL).unwrap();
    let mut host = vec![0u32; threads as usize];
    // SAFETY: `host` holds `bytes` bytes.
    unsafe { driver.memcpy_dtoh(host.as_mut_ptr().cast(), out, bytes) }.unwrap();
    driver.mem_free(out).unwrap();
    driver.module_unload(module).unwrap();
    host
}

#[test]
fn calls_and_globals_resolve_across_modules() {
    let driver = driver();
    let image = link(driver, &[(input_type::PTX, ptx(MAIN), "main.ptx"), (input_type::PTX, ptx(LIB), "lib.ptx")]).unwrap();
    let want: Vec<u32> = (0..32).map(|i| 2 * i + 5).collect();
    assert_eq!(run(driver, &image, "apply", 32, 0), want);
    // A second load of the same image (the kernel cache's hit path) runs the same.
    assert_eq!(run(driver, &image, "apply", 32, 0), want);
    // Our "cubin" is a valid input of a later link.
    let relinked = link(driver, &[(input_type::CUBIN, image.clone(), "linked")]).unwrap();
    assert_eq!(run(driver, &relinked, "apply", 32, 0), want);
}

#[test]
fn dynamic_shared_memory_is_one_window_across_modules() {
    // The kernel fills its dynamic shared array; a function of another module, which
    // declares the array under another name, reads a neighbour's slot.
    let kernel = r#"
.extern .func (.param .b32 r) neighbour(.param .b32 i);
.extern .shared .align 4 .b8 dyn_a[];
.visible .entry fill(.param .u64 out)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    mov.u32 %r1, %tid.x;
    mul.lo.u32 %r2, %r1, 3;
    shl.b32 %r3, %r1, 2;
    mov.u32 %r4, dyn_a;
    add.u32 %r4, %r4, %r3;
    st.shared.u32 [%r4], %r2;
    bar.sync 0;
    {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call.uni (b), neighbour, (a);
    ld.param.b32 %r5, [b];
    }
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
    ret;
}
"#;
    let reader = r#"
.extern .shared .align 4 .b8 dyn_b[];
.visible .func (.param .b32 r) neighbour(.param .b32 i)
{
    .reg .b32 %r<6>;
    ld.param.b32 %r1, [i];
    add.u32 %r2, %r1, 1;
    and.b32 %r2, %r2, 31;
    shl.b32 %r3, %r2, 2;
    mov.u32 %r4, dyn_b;
    add.u32 %r4, %r4, %r3;
    ld.shared.u32 %r5, [%r4];
    st.param.b32 [r], %r5;
    ret;
}
"#;
    let driver = driver();
    let image = link(driver, &[(input_type::PTX, ptx(kernel), "fill"), (input_type::PTX, ptx(reader), "reader")]).unwrap();
    let want: Vec<u32> = (0..32).map(|i| 3 * ((i + 1) % 32)).collect();
    assert_eq!(run(driver, &image, "fill", 32, 128), want);
}

/// `pick()` returning `value`, with the given linkage.
fn pick(linkage: &str, value: u32) -> Vec<u8> {
    ptx(&format!("{linkage} .func (.param .b32 r) pick()\n{{\n    st.param.b32 [r], {value};\n    ret;\n}}\n"))
}

const CALL_PICK: &str = r#"
.extern .func (.param .b32 r) pick();
.visible .entry use_pick(.param .u64 out)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    {
    .param .b32 b;
    call.uni (b), pick, ();
    ld.param.b32 %r1, [b];
    }
    st.global.u32 [%rd1], %r1;
    ret;
}
"#;

#[test]
fn weak_definitions_yield_to_strong_ones() {
    let driver = driver();
    // (inputs besides the caller, the value pick() must return)
    let cases: [(&[(&str, u32)], u32); 3] = [(&[(".weak", 1)], 1), (&[(".weak", 1), (".visible", 2)], 2), (&[(".weak", 1), (".weak", 3)], 1)];
    for (defs, want) in cases {
        let mut inputs = vec![(input_type::PTX, ptx(CALL_PICK), "caller")];
        inputs.extend(defs.iter().map(|&(linkage, v)| (input_type::PTX, pick(linkage, v), "pick")));
        let image = link(driver, &inputs).unwrap();
        assert_eq!(run(driver, &image, "use_pick", 1, 0), vec![want], "definitions {defs:?}");
    }
}

#[test]
fn module_local_names_stay_separate() {
    // Both modules have a local `counter` and a local `get`; each kernel sees its own.
    let module = |kernel: &str, value: u32| {
        ptx(&format!(
            ".global .align 4 .u32 counter = {value};\n\
             .func (.param .b32 r) get()\n{{\n .reg .b32 %r<2>;\n ld.global.u32 %r1, [counter];\n st.param.b32 [r], %r1;\n ret;\n}}\n\
             .visible .entry {kernel}(.param .u64 out)\n{{\n .reg .b32 %r<2>;\n .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [out];\n\
             {{\n .param .b32 b;\n call.uni (b), get, ();\n ld.param.b32 %r1, [b];\n }}\n st.global.u32 [%rd1], %r1;\n ret;\n}}\n"
        ))
    };
    let driver = driver();
    let image = link(driver, &[(input_type::PTX, module("ka", 10), "a"), (input_type::PTX, module("kb", 20), "b")]).unwrap();
    assert_eq!(run(driver, &image, "ka", 1, 0), vec![10]);
    assert_eq!(run(driver, &image, "kb", 1, 0), vec![20]);
}

/// A fatbin container holding `ptx` as one uncompressed PTX entry for compute_80.
fn fatbin(ptx: &[u8]) -> Vec<u8> {
    fatbin_entry(1, ptx)
}

/// A fatbin container with one uncompressed entry of `kind` (1 PTX, 2 ELF) for sm_80.
fn fatbin_entry(kind: u16, payload: &[u8]) -> Vec<u8> {
    let mut payload = payload.to_vec();
    payload.resize(payload.len().div_ceil(8) * 8, 0);
    let mut entry = Vec::new();
    entry.extend(kind.to_le_bytes());
    entry.extend(0x0101u16.to_le_bytes());
    entry.extend(0x40u32.to_le_bytes()); // header size
    entry.extend((payload.len() as u64).to_le_bytes());
    entry.extend(0u32.to_le_bytes()); // not compressed
    entry.extend(0u32.to_le_bytes()); // no options
    entry.extend(0x0008_0000u32.to_le_bytes()); // PTX ISA 8.0
    entry.extend(80u32.to_le_bytes());
    entry.extend([0u8; 8]); // no identifier
    entry.extend(0x11u64.to_le_bytes()); // 64-bit, Linux
    entry.extend(0u64.to_le_bytes());
    entry.extend((payload.len() as u64).to_le_bytes());
    entry.extend(payload);
    let mut container = Vec::new();
    container.extend(0xBA55_ED50u32.to_le_bytes());
    container.extend(1u16.to_le_bytes());
    container.extend(16u16.to_le_bytes());
    container.extend((entry.len() as u64).to_le_bytes());
    container.extend(entry);
    container
}

/// A Unix `ar` archive of `(name, bytes)` members.
fn archive(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut ar = b"!<arch>\n".to_vec();
    for (name, data) in members {
        ar.extend(format!("{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n", format!("{name}/"), 0, 0, 0, 644, data.len()).into_bytes());
        ar.extend_from_slice(data);
        if data.len() % 2 == 1 {
            ar.push(b'\n');
        }
    }
    ar
}

#[test]
fn fatbins_and_libraries_are_link_inputs() {
    let driver = driver();
    let want: Vec<u32> = (0..32).map(|i| 2 * i + 5).collect();
    let image = link(driver, &[(input_type::FATBINARY, fatbin(&ptx(MAIN)), "main.fatbin"), (input_type::PTX, ptx(LIB), "lib")]).unwrap();
    assert_eq!(run(driver, &image, "apply", 32, 0), want);

    // A library member is linked only when it resolves something: the member whose own
    // references could never resolve is left out.
    let unusable = ptx(".extern .func cnpMissing();\n.visible .func other() { call.uni cnpMissing, (); ret; }\n");
    let lib_fatbin = fatbin(&ptx(LIB));
    let lib = archive(&[("unusable.o", &unusable), ("twice.o", &lib_fatbin)]);
    let image = link(driver, &[(input_type::PTX, ptx(MAIN), "main"), (input_type::LIBRARY, lib.clone(), "libtwice.a")]).unwrap();
    assert_eq!(run(driver, &image, "apply", 32, 0), want);
    assert!(!String::from_utf8_lossy(&image).contains("cnpMissing"));
    // Without a reference, nothing of the library is linked.
    let image = link(
        driver,
        &[(input_type::PTX, ptx(CALL_PICK), "caller"), (input_type::PTX, pick(".visible", 4), "pick"), (input_type::LIBRARY, lib, "libtwice.a")],
    )
    .unwrap();
    assert!(!String::from_utf8_lossy(&image).contains("twice"));
    assert_eq!(run(driver, &image, "use_pick", 1, 0), vec![4]);
}

/// `out[0] = 7 + __cudaCDP2GetLastError() + cudaPeekAtLastError()`, as device code calling
/// the device runtime API compiles.
const CALLS_DEVICE_RUNTIME: &str = r#"
.extern .func (.param .b32 r) __cudaCDP2GetLastError();
.extern .func (.param .b32 r) cudaPeekAtLastError();
.visible .entry devrt_user(.param .u64 out)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    {
    .param .b32 a;
    call.uni (a), __cudaCDP2GetLastError, ();
    ld.param.b32 %r1, [a];
    }
    {
    .param .b32 b;
    call.uni (b), cudaPeekAtLastError, ();
    ld.param.b32 %r2, [b];
    }
    add.s32 %r3, %r1, %r2;
    add.s32 %r4, %r3, 7;
    st.global.u32 [%rd1], %r4;
    ret;
}
"#;

#[test]
fn the_driver_provides_device_side_error_queries() {
    let driver = driver();
    let image = link(driver, &[(input_type::PTX, ptx(CALLS_DEVICE_RUNTIME), "user")]).unwrap();
    assert_eq!(run(driver, &image, "devrt_user", 1, 0), vec![7], "no call failed before: cudaSuccess");
    // A function the runtime does not implement links, answers cudaErrorNotSupported (801)
    // and records it: `out[0] = cudaEventDestroy(0) + cudaGetLastError() + cudaGetLastError()`.
    let image = link(driver, &[(input_type::PTX, ptx(CALLS_UNSUPPORTED), "user")]).unwrap();
    assert_eq!(run(driver, &image, "unsupported", 1, 0), vec![801 + 801]);
    // The driver-internal calls of NVIDIA's libcudadevrt stay undefined.
    let internal = ".extern .func (.param .b32 r) cnpGetLastError();
                  .visible .entry internal() { .reg .b32 %r<2>; { .param .b32 r; call.uni (r), cnpGetLastError, (); ld.param.b32 %r1, [r]; } ret; }
";
    let (err, log) = link(driver, &[(input_type::PTX, ptx(internal), "internal")]).unwrap_err();
    assert_eq!((err, log.as_str()), (CuError::INVALID_SOURCE, "error   : Undefined reference to 'cnpGetLastError' in 'internal'"));
}

/// See `the_driver_provides_device_side_error_queries`.
const CALLS_UNSUPPORTED: &str = r#"
.extern .func (.param .b32 r) __cudaCDP2EventDestroy(.param .b64 e);
.extern .func (.param .b32 r) __cudaCDP2GetLastError();
.visible .entry unsupported(.param .u64 out)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [out];
    {
    .param .b64 e;
    st.param.b64 [e], 0;
    .param .b32 a;
    call.uni (a), __cudaCDP2EventDestroy, (e);
    ld.param.b32 %r1, [a];
    }
    {
    .param .b32 b;
    call.uni (b), __cudaCDP2GetLastError, ();
    ld.param.b32 %r2, [b];
    }
    {
    .param .b32 c;
    call.uni (c), __cudaCDP2GetLastError, ();
    ld.param.b32 %r3, [c];
    }
    add.s32 %r4, %r1, %r2;
    add.s32 %r5, %r4, %r3;
    st.global.u32 [%rd1], %r5;
    ret;
}
"#;

#[test]
fn nvidia_device_runtime_library_is_accepted() {
    // CuPy links every -rdc program with libcudadevrt.a; nothing of it is needed here.
    let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/lib");
    let Some(devrt) = std::fs::read_dir(venv)
        .into_iter()
        .flatten()
        .flatten()
        .map(|py| py.path().join("site-packages/nvidia/cu13/lib/libcudadevrt.a"))
        .find(|p| p.exists())
    else {
        eprintln!("skipped: no libcudadevrt.a under {venv} (scripts/bootstrap.sh installs it)");
        return;
    };
    let driver = driver();
    let h = driver.link_create(None).unwrap();
    driver.link_add_data(h, input_type::PTX, &ptx(MAIN), "main").unwrap();
    driver.link_add_data(h, input_type::PTX, &ptx(LIB), "lib").unwrap();
    driver.link_add_file(h, input_type::LIBRARY, &devrt).unwrap();
    let (ptr, len) = driver.link_complete(h).unwrap();
    // SAFETY: the image is `len` bytes owned by the live state `h`.
    let image = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
    driver.link_destroy(h).unwrap();
    assert!(!String::from_utf8_lossy(&image).contains("cnpGetParameterBuffer"));
    assert_eq!(run(driver, &image, "apply", 32, 0), (0..32).map(|i| 2 * i + 5).collect::<Vec<u32>>());
    // Device code calling the device runtime API gets this driver's functions, not the
    // library's (which need NVIDIA's driver-internal calls).
    let h = driver.link_create(None).unwrap();
    driver.link_add_data(h, input_type::PTX, &ptx(CALLS_DEVICE_RUNTIME), "user").unwrap();
    driver.link_add_file(h, input_type::LIBRARY, &devrt).unwrap();
    let (ptr, len) = driver.link_complete(h).unwrap();
    // SAFETY: the image is `len` bytes owned by the live state `h`.
    let image = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
    driver.link_destroy(h).unwrap();
    assert_eq!(run(driver, &image, "devrt_user", 1, 0), vec![7]);
}

#[test]
fn link_errors_have_nvidia_codes_and_log_lines() {
    let driver = driver();
    let sass_cubin = {
        let mut elf = vec![0x7f, b'E', b'L', b'F', 2, 1, 1, 0];
        elf.resize(0x40, 0);
        elf[0x12] = 190; // EM_CUDA
        elf
    };
    type Case<'a> = (Vec<(u32, Vec<u8>, &'a str)>, CuError, &'a str);
    let cases: Vec<Case> = vec![
        (
            vec![(input_type::PTX, ptx(MAIN), "main.ptx")],
            CuError::INVALID_SOURCE,
            "error   : Undefined reference to 'twice' in 'main.ptx'\nerror   : Undefined reference to 'bias' in 'main.ptx'",
        ),
        (
            vec![(input_type::PTX, ptx(MAIN), "main"), (input_type::PTX, ptx(LIB), "lib"), (input_type::PTX, ptx(LIB), "lib2")],
            CuError::INVALID_SOURCE,
            "error   : Multiple definition of 'bias' in 'lib2', first defined in 'lib'\nerror   : Multiple definition of 'twice' in 'lib2', first defined in 'lib'",
        ),
        (vec![(input_type::PTX, ptx("this is not ptx;"), "bad")], CuError::INVALID_PTX, "error   : 'bad': PTX does not compile"),
        (vec![(99, ptx(LIB), "odd")], CuError::INVALID_VALUE, "error   : 'odd': unknown CUjitInputType 99"),
        (vec![(input_type::NVVM, vec![0x42, 0x43, 0xC0, 0xDE], "lto")], CuError::JIT_COMPILER_NOT_FOUND, "error   : 'lto': LTO-IR input is not supported"),
        (vec![(input_type::CUBIN, sass_cubin.clone(), "sass.cubin")], CuError::NO_BINARY_FOR_GPU, "error   : 'sass.cubin': an NVIDIA cubin holds only SASS"),
        (vec![(input_type::FATBINARY, fatbin_entry(2, &sass_cubin), "sass.fatbin")], CuError::NO_BINARY_FOR_GPU, "error   : 'sass.fatbin': no binary for this device"),
        (vec![(input_type::LIBRARY, b"!<arch>\nbroken".to_vec(), "broken.a")], CuError::INVALID_IMAGE, "error   : 'broken.a': invalid kernel image: archive"),
    ];
    for (inputs, code, log) in cases {
        let (err, got) = link(driver, &inputs).expect_err(log);
        assert_eq!(err, code, "{log}");
        assert!(got.starts_with(log), "log {got:?} does not start with {log:?}");
    }
}

#[test]
fn bad_handles_and_missing_context() {
    let driver = driver();
    let h = driver.link_create(None).unwrap();
    driver.link_destroy(h).unwrap();
    assert_eq!(driver.link_add_data(h, input_type::PTX, &ptx(LIB), "x"), Err(CuError::INVALID_HANDLE));
    assert_eq!(driver.link_complete(h).map(|_| ()), Err(CuError::INVALID_HANDLE));
    assert_eq!(driver.link_destroy(h), Err(CuError::INVALID_HANDLE));
    assert_eq!(driver.link_destroy(LinkHandle::NULL), Err(CuError::INVALID_HANDLE));
    // A module handle is not a link state.
    assert_eq!(driver.link_destroy(LinkHandle(h.0 ^ (0x0A << 56))), Err(CuError::INVALID_HANDLE));

    let h = driver.link_create(None).unwrap();
    assert_eq!(driver.link_add_data(h, input_type::PTX, &[], "empty"), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.link_add_file(h, input_type::PTX, std::path::Path::new("/nonexistent/x.ptx")), Err(CuError::FILE_NOT_FOUND));
    driver.link_destroy(h).unwrap();

    // cuLinkCreate needs a current context; a fresh thread has none.
    let err = std::thread::spawn(|| init(0).unwrap().link_create(None).map(|_| ())).join().unwrap();
    assert_eq!(err, Err(CuError::INVALID_CONTEXT));
}

/// `rows(m)`, one thread per column of a ROWS x COLS matrix: row by row, each element is
/// one more than the previous row's element of the opposite column, with a grid barrier
/// of `libcudadevrt`'s cooperative-groups API between rows (numba-cuda's grid groups call
/// it). Also records each thread's grid rank and the grid's size from that API.
const GRID_ROWS: &str = r#"
.extern .func (.param .b64 r) cudaCGGetIntrinsicHandle(.param .b32 scope);
.extern .func (.param .b32 r) cudaCGSynchronize(.param .b64 handle, .param .b32 flags);
.extern .func (.param .b32 r) cudaCGGetRank(.param .b64 rank, .param .b64 grid, .param .b64 handle);
.extern .func (.param .b32 r) cudaCGGetSize(.param .b64 threads, .param .b64 grids, .param .b64 handle);
.visible .entry rows(.param .u64 m, .param .u64 ranks, .param .u32 nrows)
{
    .reg .pred %p<3>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<16>;
    ld.param.u64 %rd1, [m];
    ld.param.u64 %rd2, [ranks];
    ld.param.u32 %r10, [nrows];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.u32 %r4, %r1, %r2, %r3;
    mov.u32 %r5, %nctaid.x;
    mul.lo.u32 %r5, %r5, %r2;
    {
    .param .b32 s;
    .param .b64 h;
    st.param.b32 [s], 1;
    call.uni (h), cudaCGGetIntrinsicHandle, (s);
    ld.param.b64 %rd3, [h];
    }
    mul.wide.u32 %rd4, %r4, 8;
    add.u64 %rd5, %rd2, %rd4;
    add.u64 %rd6, %rd5, 4;
    {
    .param .b64 a;
    .param .b64 b;
    .param .b64 c;
    .param .b32 e;
    st.param.b64 [a], %rd5;
    st.param.b64 [b], 0;
    st.param.b64 [c], %rd3;
    call.uni (e), cudaCGGetRank, (a, b, c);
    }
    {
    .param .b64 a;
    .param .b64 b;
    .param .b64 c;
    .param .b32 e;
    st.param.b64 [a], %rd6;
    st.param.b64 [b], 0;
    st.param.b64 [c], %rd3;
    call.uni (e), cudaCGGetSize, (a, b, c);
    }
    sub.u32 %r6, %r5, %r4;
    sub.u32 %r6, %r6, 1;
    mov.u32 %r7, 1;
row:
    setp.ge.u32 %p1, %r7, %r10;
    @%p1 bra done;
    sub.u32 %r8, %r7, 1;
    mad.lo.u32 %r9, %r8, %r5, %r6;
    mul.wide.u32 %rd7, %r9, 4;
    add.u64 %rd8, %rd1, %rd7;
    ld.global.u32 %r11, [%rd8];
    add.u32 %r11, %r11, 1;
    mad.lo.u32 %r12, %r7, %r5, %r4;
    mul.wide.u32 %rd9, %r12, 4;
    add.u64 %rd10, %rd1, %rd9;
    st.global.u32 [%rd10], %r11;
    {
    .param .b64 h;
    .param .b32 f;
    .param .b32 e;
    st.param.b64 [h], %rd3;
    st.param.b32 [f], 0;
    call.uni (e), cudaCGSynchronize, (h, f);
    }
    add.u32 %r7, %r7, 1;
    bra row;
done:
    ret;
}
"#;

#[test]
fn device_runtime_grid_groups_synchronize_the_grid() {
    let driver = driver();
    let image = link(driver, &[(input_type::PTX, ptx(GRID_ROWS), "rows")]).unwrap();
    // SAFETY: NUL-terminated PTX.
    let (module, logs) = unsafe { driver.module_load_data(image.as_ptr().cast(), &LoadOptions::default()) };
    let module = module.unwrap_or_else(|e| panic!("loading: {e}\n{}", logs.error));
    let f = driver.module_get_function(module, "rows").unwrap();
    let (blocks, threads, nrows) = (8u32, 32u32, 64u32);
    let cols = (blocks * threads) as usize;
    let m = driver.mem_alloc(cols * nrows as usize * 4).unwrap();
    let ranks = driver.mem_alloc(cols * 8).unwrap();
    driver.memset(m, 0, 4, cols * nrows as usize).unwrap();
    let (mut m_arg, mut ranks_arg, mut rows_arg) = (m, ranks, nrows);
    let mut args: [*mut c_void; 3] = [(&mut m_arg as *mut u64).cast(), (&mut ranks_arg as *mut u64).cast(), (&mut rows_arg as *mut u32).cast()];
    // SAFETY: the kernel's three parameters, each pointed to.
    unsafe { driver.launch_cooperative_kernel(f.as_raw(), [blocks, 1, 1], [threads, 1, 1], 0, StreamHandle::NULL, args.as_mut_ptr()) }.unwrap();
    driver.ctx_synchronize(CtxHandle::NULL).unwrap();
    let mut got = vec![0u32; cols * nrows as usize];
    let mut rank_size = vec![0u32; cols * 2];
    // SAFETY: the buffers hold the bytes copied.
    unsafe {
        driver.memcpy_dtoh(got.as_mut_ptr().cast(), m, got.len() * 4).unwrap();
        driver.memcpy_dtoh(rank_size.as_mut_ptr().cast(), ranks, rank_size.len() * 4).unwrap();
    }
    // Without the barrier a thread reads a row its opposite thread has not written yet.
    for row in 0..nrows as usize {
        assert!(got[row * cols..(row + 1) * cols].iter().all(|&v| v == row as u32), "row {row}: {:?}", &got[row * cols..(row + 1) * cols]);
    }
    for t in 0..cols {
        assert_eq!((rank_size[2 * t], rank_size[2 * t + 1]), (t as u32, cols as u32), "thread {t}: rank, size");
    }
    driver.module_unload(module).unwrap();
}

/// A caller's prototype (a return value) that the definition in another input lacks, and
/// the reverse: NVIDIA's driver refuses the second input (H200, driver 580.159).
#[test]
fn mismatched_prototypes_across_inputs_are_refused() {
    let driver = driver();
    let caller = ".extern .func (.param .b64 r) consume(.param .b32 x);
        .extern .func produce(.param .b64 out);
        .visible .entry k(.param .u64 out) { .reg .b32 %r<2>; .reg .b64 %rd<3>; ld.param.u64 %rd1, [out]; mov.u32 %r1, %tid.x;
        { .param .b32 x; .param .b64 r; st.param.b32 [x], %r1; call.uni (r), consume, (x); ld.param.b64 %rd2, [r]; }
        { .param .b64 o; st.param.b64 [o], %rd1; call.uni produce, (o); } ret; }";
    let callee = ".visible .global .u32 seen;
        .visible .func consume(.param .b32 x) { .reg .b32 %r<2>; ld.param.b32 %r1, [x]; atom.global.add.u32 %r1, [seen], %r1; ret; }
        .visible .func (.param .b32 r) produce(.param .b64 out) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [out]; st.global.u32 [%rd1], 77; st.param.b32 [r], 5; ret; }";
    let (err, log) = link(driver, &[(input_type::PTX, ptx(caller), "caller"), (input_type::PTX, ptx(callee), "callee")]).unwrap_err();
    assert_eq!(err, CuError::INVALID_SOURCE);
    // NVIDIA's log had these two lines, `produce`'s first: the order is not checked.
    let mut lines: Vec<&str> = log.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "error   : Prototype doesn't match for 'consume' in 'callee', first defined in 'callee'",
            "error   : Prototype doesn't match for 'produce' in 'callee', first defined in 'callee'"
        ]
    );
    // Matching prototypes link (here: the same declarations twice).
    link(driver, &[(input_type::PTX, ptx(LIB), "lib"), (input_type::PTX, ptx(MAIN), "main")]).unwrap();
}
