//! The C API's answers, called as a client calls them. The expected codes are NVIDIA's
//! libnvJitLink 13.5's (`tools/probe.c`) except where `link.rs` documents ours.

use std::ffi::{c_char, CString};
use std::ptr::null_mut;

use super::*;

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";
/// `k(p)`: `*p = twice(*p)`, `twice` defined elsewhere.
const MAIN: &str = ".extern .func (.param .b32 r) twice(.param .b32 x);\n\
.visible .entry k(.param .u64 p) { .reg .b32 %r<3>; .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; ld.global.u32 %r1, [%rd1];\n\
{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 r; call.uni (r), twice, (a); ld.param.b32 %r2, [r]; }\n\
st.global.u32 [%rd1], %r2; ret; }\n";
const LIB: &str = ".visible .func (.param .b32 r) twice(.param .b32 x) { .reg .b32 %r<3>; ld.param.b32 %r1, [x]; add.s32 %r2, %r1, %r1; st.param.b32 [r], %r2; ret; }\n";

fn ptx(body: &str) -> Vec<u8> {
    format!("{HEAD}{body}\0").into_bytes()
}

/// `nvJitLinkCreate` with `options`: the code and the handle.
fn create(options: &[&str]) -> (NvJitLinkResult, NvJitLinkHandle) {
    let strings: Vec<CString> = options.iter().map(|o| CString::new(*o).unwrap()).collect();
    let pointers: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr()).collect();
    let mut h: NvJitLinkHandle = null_mut();
    // SAFETY: valid option strings and handle slot.
    let code = unsafe { nvJitLinkCreate(&mut h, pointers.len() as u32, pointers.as_ptr()) };
    (code, h)
}

fn add(h: NvJitLinkHandle, input_type: i32, data: &[u8], name: &str) -> NvJitLinkResult {
    let name = CString::new(name).unwrap();
    // SAFETY: `data` is readable, `name` NUL-terminated.
    unsafe { nvJitLinkAddData(h, input_type, data.as_ptr().cast(), data.len(), name.as_ptr()) }
}

fn destroy(mut h: NvJitLinkHandle) {
    // SAFETY: a handle slot.
    assert_eq!(unsafe { nvJitLinkDestroy(&mut h) }, NVJITLINK_SUCCESS);
    assert!(h.is_null());
}

/// Reads a log or output through its size and copy calls (`get` receives a buffer of the
/// size reported, at least one byte: the closures' unsafe calls rely on that).
fn read(
    h: NvJitLinkHandle,
    size: unsafe extern "C" fn(NvJitLinkHandle, *mut usize) -> NvJitLinkResult,
    get: impl FnOnce(NvJitLinkHandle, *mut c_char) -> NvJitLinkResult,
) -> Result<Vec<u8>, NvJitLinkResult> {
    let mut n = 0usize;
    // SAFETY: a writable size.
    let code = unsafe { size(h, &mut n) };
    if code != NVJITLINK_SUCCESS {
        return Err(code);
    }
    let mut buf = vec![0xAAu8; n.max(1)];
    let code = get(h, buf.as_mut_ptr().cast());
    if code != NVJITLINK_SUCCESS {
        return Err(code);
    }
    buf.truncate(n);
    Ok(buf)
}

fn error_log(h: NvJitLinkHandle) -> String {
    let bytes = read(h, nvJitLinkGetErrorLogSize, |h, p| unsafe { nvJitLinkGetErrorLog(h, p) }).unwrap();
    String::from_utf8(bytes).unwrap().trim_end_matches('\0').to_string()
}

fn cubin(h: NvJitLinkHandle) -> Result<Vec<u8>, NvJitLinkResult> {
    read(h, nvJitLinkGetLinkedCubinSize, |h, p| unsafe { nvJitLinkGetLinkedCubin(h, p.cast()) })
}

fn linked_ptx(h: NvJitLinkHandle) -> Result<Vec<u8>, NvJitLinkResult> {
    read(h, nvJitLinkGetLinkedPtxSize, |h, p| unsafe { nvJitLinkGetLinkedPtx(h, p) })
}

#[test]
fn links_two_modules_into_a_loadable_image() {
    let (code, h) = create(&["-arch=sm_80", "-O3", "-lineinfo"]);
    assert_eq!(code, NVJITLINK_SUCCESS);
    assert_eq!(add(h, input::PTX, &ptx(MAIN), "main.ptx"), NVJITLINK_SUCCESS);
    // Sizes are the caller's: a PTX input without its NUL links too.
    let lib = ptx(LIB);
    assert_eq!(add(h, input::ANY, &lib[..lib.len() - 1], "lib.ptx"), NVJITLINK_SUCCESS);
    // SAFETY: a live handle.
    assert_eq!(unsafe { nvJitLinkComplete(h) }, NVJITLINK_SUCCESS);
    let image = cubin(h).unwrap();
    assert_eq!(image.last(), Some(&0), "the cubin is NUL-terminated PTX");
    let text = std::str::from_utf8(&image[..image.len() - 1]).unwrap();
    assert!(text.contains(".visible .entry k") && text.contains("twice"), "{text}");
    assert!(!text.contains(".extern"), "{text}");
    assert_eq!(linked_ptx(h).unwrap(), image);
    assert_eq!(error_log(h), "");
    // The log calls write the NUL of an empty log.
    let mut b = [0x55 as c_char; 2];
    // SAFETY: a two-byte buffer.
    assert_eq!(unsafe { nvJitLinkGetErrorLog(h, b.as_mut_ptr()) }, NVJITLINK_SUCCESS);
    assert_eq!(b[0], 0);
    // Complete once only; no inputs after it.
    // SAFETY: a live handle.
    assert_eq!(unsafe { nvJitLinkComplete(h) }, NVJITLINK_ERROR_INTERNAL);
    assert_eq!(add(h, input::PTX, &lib, "late.ptx"), NVJITLINK_ERROR_INTERNAL);
    destroy(h);

    // The "cubin" is an input of a later link, as NVIDIA's driver takes PTX for a cubin.
    let (_, h2) = create(&["-arch=sm_80"]);
    assert_eq!(add(h2, input::CUBIN, &image, "linked.cubin"), NVJITLINK_SUCCESS);
    // SAFETY: a live handle.
    assert_eq!(unsafe { nvJitLinkComplete(h2) }, NVJITLINK_SUCCESS);
    destroy(h2);
}

/// LTO-IR from this stack's NVRTC (`-dlto`) is relocatable PTX: as `NVJITLINK_INPUT_LTOIR`,
/// or found by its `.ltoir` name, it links like PTX (`-lto` as a client passes it).
#[test]
fn our_lto_ir_links_as_ptx() {
    for (ty, name) in [(input::LTOIR, "lib"), (input::ANY, "lib.ltoir")] {
        let (code, h) = create(&["-arch=sm_80", "-lto"]);
        assert_eq!(code, NVJITLINK_SUCCESS);
        assert_eq!(add(h, input::LTOIR, &ptx(MAIN), "main.ltoir"), NVJITLINK_SUCCESS);
        assert_eq!(add(h, ty, &ptx(LIB), name), NVJITLINK_SUCCESS, "{}", error_log(h));
        // SAFETY: a live handle.
        assert_eq!(unsafe { nvJitLinkComplete(h) }, NVJITLINK_SUCCESS);
        let image = cubin(h).unwrap();
        let text = std::str::from_utf8(&image[..image.len() - 1]).unwrap();
        assert!(text.contains(".visible .entry k") && text.contains("twice") && !text.contains(".extern"), "{text}");
        destroy(h);
    }
}

#[test]
fn undefined_reference_is_internal_error_with_nvidias_line() {
    let (_, h) = create(&["-arch=sm_80"]);
    assert_eq!(add(h, input::PTX, &ptx(MAIN), "a.ptx"), NVJITLINK_SUCCESS);
    // SAFETY: a live handle.
    assert_eq!(unsafe { nvJitLinkComplete(h) }, NVJITLINK_ERROR_INTERNAL);
    let log = read(h, nvJitLinkGetErrorLogSize, |h, p| unsafe { nvJitLinkGetErrorLog(h, p) }).unwrap();
    assert_eq!(log, b"error   : Undefined reference to 'twice' in 'a.ptx'\n\0");
    assert_eq!(cubin(h), Err(NVJITLINK_ERROR_INTERNAL));
    assert_eq!(linked_ptx(h), Err(NVJITLINK_ERROR_INVALID_INPUT));
    destroy(h);
}

#[test]
fn options_are_checked_and_a_refused_handle_keeps_its_log() {
    let (code, h) = create(&["-arch=sm_80", "-frobnicate"]);
    assert_eq!(code, NVJITLINK_ERROR_UNRECOGNIZED_OPTION);
    assert!(!h.is_null(), "NVIDIA's library hands out a handle with the log");
    let log = read(h, nvJitLinkGetErrorLogSize, |h, p| unsafe { nvJitLinkGetErrorLog(h, p) }).unwrap();
    assert_eq!(log, b"unrecognized option: -frobnicate\n\0");
    assert_eq!(add(h, input::PTX, &ptx(LIB), "lib.ptx"), NVJITLINK_ERROR_INVALID_INPUT);
    destroy(h);
    let (code, h) = create(&["-O3"]);
    assert_eq!(code, NVJITLINK_ERROR_MISSING_ARCH);
    destroy(h);
    let (code, h) = create(&["-arch=sm_80", "-ptx"]);
    assert_eq!(code, NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS);
    assert_eq!(error_log(h), "ERROR: -ptx requires -lto\n");
    destroy(h);

    // NULL arguments.
    let arch = CString::new("-arch=sm_80").unwrap();
    let options = [arch.as_ptr()];
    let mut h: NvJitLinkHandle = null_mut();
    // SAFETY: NULL arguments are what is tested.
    unsafe {
        assert_eq!(nvJitLinkCreate(null_mut(), 1, options.as_ptr()), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkCreate(&mut h, 0, std::ptr::null()), NVJITLINK_ERROR_NULL_INPUT);
        assert!(h.is_null());
        let with_null = [arch.as_ptr(), std::ptr::null()];
        assert_eq!(nvJitLinkCreate(&mut h, 2, with_null.as_ptr()), NVJITLINK_ERROR_NULL_INPUT);
    }
    destroy(h);
}

#[test]
fn null_and_stale_handles() {
    let mut n = 0usize;
    let mut buf = [0 as c_char; 8];
    // SAFETY: NULL and stale handles are what is tested; outputs are valid.
    unsafe {
        assert_eq!(nvJitLinkComplete(null_mut()), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkGetErrorLogSize(null_mut(), &mut n), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkGetErrorLog(null_mut(), buf.as_mut_ptr()), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkGetInfoLogSize(null_mut(), &mut n), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkGetLinkedCubinSize(null_mut(), &mut n), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkGetLinkedPtxSize(null_mut(), &mut n), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkAddData(null_mut(), input::PTX, buf.as_ptr().cast(), 8, std::ptr::null()), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkDestroy(null_mut()), NVJITLINK_ERROR_NULL_INPUT);
        let mut null: NvJitLinkHandle = null_mut();
        assert_eq!(nvJitLinkDestroy(&mut null), NVJITLINK_ERROR_NULL_INPUT);
        let (_, h) = create(&["-arch=sm_80"]);
        assert_eq!(nvJitLinkGetErrorLogSize(h, null_mut()), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkGetErrorLog(h, null_mut()), NVJITLINK_ERROR_NULL_INPUT);
        assert_eq!(nvJitLinkAddData(h, input::PTX, std::ptr::null(), 10, std::ptr::null()), NVJITLINK_ERROR_INVALID_INPUT);
        assert_eq!(nvJitLinkAddData(h, input::PTX, buf.as_ptr().cast(), 0, std::ptr::null()), NVJITLINK_ERROR_INVALID_INPUT);
        assert_eq!(nvJitLinkAddFile(h, input::PTX, std::ptr::null()), NVJITLINK_ERROR_NULL_INPUT);
        let stale = h;
        destroy(h);
        assert_eq!(nvJitLinkComplete(stale), NVJITLINK_ERROR_INVALID_INPUT);
        let mut again = stale;
        assert_eq!(nvJitLinkDestroy(&mut again), NVJITLINK_ERROR_INVALID_INPUT);
        let (mut major, mut minor) = (0, 0);
        assert_eq!(nvJitLinkVersion(&mut major, &mut minor), NVJITLINK_SUCCESS);
        assert_eq!((major, minor), VERSION);
        assert_eq!(nvJitLinkVersion(null_mut(), &mut minor), NVJITLINK_ERROR_NULL_INPUT);
    }
}

#[test]
fn input_types_are_checked() {
    let (_, h) = create(&["-arch=sm_80"]);
    let lib = ptx(LIB);
    let garbage = b"garbage\0";
    assert_eq!(add(h, input::PTX, garbage, "bad.ptx"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
    assert_eq!(add(h, input::FATBIN, &lib, "x.fatbin"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
    assert_eq!(add(h, input::OBJECT, garbage, "x.o"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
    assert_eq!(add(h, input::LIBRARY, garbage, "x.a"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
    assert_eq!(add(h, input::CUBIN, garbage, "x.cubin"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
    assert_eq!(add(h, input::NONE, &lib, "none"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
    assert_eq!(add(h, 42, &lib, "t42"), NVJITLINK_ERROR_INCORRECT_INPUT_TYPE);
    assert_eq!(add(h, input::ANY, garbage, "x"), NVJITLINK_ERROR_UNRECOGNIZED_INPUT);
    // Not supported here: said in the log, with the code nvJitLinkAddData documents.
    assert_eq!(add(h, input::LTOIR, b"BC\xC0\xDE....", "k.ltoir"), NVJITLINK_ERROR_INVALID_INPUT);
    let mut sass = b"\x7fELF".to_vec();
    sass.resize(0x40, 0);
    sass[0x12] = 190; // EM_CUDA
    assert_eq!(add(h, input::CUBIN, &sass, "k.cubin"), NVJITLINK_ERROR_INVALID_INPUT);
    assert_eq!(add(h, input::ANY, &sass, "k.cubin"), NVJITLINK_ERROR_INVALID_INPUT);
    assert_eq!(add(h, input::INDEX, garbage, "x.idx"), NVJITLINK_ERROR_INVALID_INPUT);
    // A syntax error (what the PTX parser finds; an instruction the compiler does not know
    // surfaces when the driver loads the linked image).
    let syntax = ptx(".visible .func f( { ret; }");
    assert_eq!(add(h, input::PTX, &syntax, "syntax.ptx"), NVJITLINK_ERROR_PTX_COMPILE);
    let path = CString::new("/nonexistent/x.ptx").unwrap();
    // SAFETY: a live handle and a NUL-terminated path.
    assert_eq!(unsafe { nvJitLinkAddFile(h, input::PTX, path.as_ptr()) }, NVJITLINK_ERROR_INVALID_INPUT);
    let log = error_log(h);
    for line in [
        "error   : 'bad.ptx' does not match type NVJITLINK_INPUT_PTX\n",
        "unsupported input type: none\n",
        "unrecognized input type: x\n",
        "error   : 'k.ltoir': LTO-IR input is not supported",
        "error   : 'k.cubin': an NVIDIA cubin holds only SASS",
        "error   : 'syntax.ptx': PTX does not compile\n",
        "no such file: /nonexistent/x.ptx\n",
    ] {
        assert!(log.contains(line), "{line:?} not in\n{log}");
    }
    // A refused input leaves the link as it was; a second definition is refused.
    assert_eq!(add(h, input::PTX, &lib, "lib.ptx"), NVJITLINK_SUCCESS);
    assert_eq!(add(h, input::PTX, &lib, "lib2.ptx"), NVJITLINK_ERROR_INVALID_INPUT);
    assert!(error_log(h).contains("error   : Multiple definition of 'twice' in 'lib2.ptx', first defined in 'lib.ptx'\n"));
    assert_eq!(add(h, input::PTX, &ptx(MAIN), "main.ptx"), NVJITLINK_SUCCESS);
    // SAFETY: a live handle.
    assert_eq!(unsafe { nvJitLinkComplete(h) }, NVJITLINK_SUCCESS);
    destroy(h);
}

#[test]
fn ptx_only_output_with_lto_ptx() {
    let (code, h) = create(&["-arch=compute_80", "-lto", "-ptx"]);
    assert_eq!(code, NVJITLINK_SUCCESS);
    assert_eq!(add(h, input::PTX, &ptx(LIB), "lib.ptx"), NVJITLINK_SUCCESS);
    // SAFETY: a live handle.
    assert_eq!(unsafe { nvJitLinkComplete(h) }, NVJITLINK_SUCCESS);
    let text = linked_ptx(h).unwrap();
    assert_eq!(text.last(), Some(&0));
    assert!(String::from_utf8_lossy(&text).contains(".func (.param .b32 r) twice"));
    assert_eq!(cubin(h), Err(NVJITLINK_ERROR_INVALID_INPUT));
    let mut n = 0;
    // SAFETY: a live handle.
    assert_eq!(unsafe { nvJitLinkGetLinkedLTOIRSize(h, &mut n) }, NVJITLINK_ERROR_INVALID_INPUT);
    destroy(h);
}

#[test]
fn versioned_names_forward() {
    let arch = CString::new("-arch=sm_90").unwrap();
    let options = [arch.as_ptr()];
    let mut h: NvJitLinkHandle = null_mut();
    // SAFETY: valid arguments, through the names CUDA 12.8's and 13.0's headers bind.
    unsafe {
        assert_eq!(__nvJitLinkCreate_12_8(&mut h, 1, options.as_ptr()), NVJITLINK_SUCCESS);
        assert_eq!(__nvJitLinkComplete_13_0(h), NVJITLINK_SUCCESS);
        let mut n = 0;
        assert_eq!(__nvJitLinkGetLinkedCubinSize_13_5(h, &mut n), NVJITLINK_SUCCESS);
        assert!(n > 0);
        assert_eq!(__nvJitLinkDestroy_12_0(&mut h), NVJITLINK_SUCCESS);
    }
}
