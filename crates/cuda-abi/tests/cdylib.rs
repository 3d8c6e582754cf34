//! The built `libcuda.so`, loaded the way cudart loads it: `dlopen`, then `dlsym` of
//! `cuDriverGetVersion` and `cuGetProcAddress_v2`, then every request of both measured
//! request lists through `cuGetProcAddress_v2`, each answer compared with `dlsym` of the
//! symbol the list names (so every name is exported and the table points at it).

use std::ffi::{c_char, c_int, c_void, CStr, CString};

type GetProcAddress = unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> u32;
type DriverGetVersion = unsafe extern "C" fn(*mut c_int) -> u32;

/// The cdylib cargo built next to this test executable (`target/<profile>/deps/`).
fn library_path() -> CString {
    let exe = std::env::current_exe().expect("current_exe");
    let path = exe.parent().expect("deps dir").join("libcuda.so");
    assert!(path.exists(), "{} not built", path.display());
    CString::new(path.into_os_string().into_encoded_bytes()).unwrap()
}

struct Library(*mut c_void);

impl Library {
    fn open() -> Library {
        let path = library_path();
        // SAFETY: a valid path; the library's initializers are Rust statics only.
        let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        assert!(!handle.is_null(), "dlopen failed: {:?}", unsafe { CStr::from_ptr(libc::dlerror()) });
        Library(handle)
    }

    fn sym(&self, name: &str) -> *mut c_void {
        let name = CString::new(name).unwrap();
        // SAFETY: a live handle and a valid name.
        unsafe { libc::dlsym(self.0, name.as_ptr()) }
    }
}

fn requests() -> Vec<(String, c_int, u64, String)> {
    let mut out = Vec::new();
    for text in [
        include_str!("../data/cudart12-getprocaddress-requests.txt"),
        include_str!("../data/cudart13-getprocaddress-requests.txt"),
        include_str!("../data/extra-variants.txt"),
    ] {
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (request, symbol) = line.split_once("->").unwrap();
            let f: Vec<&str> = request.split_whitespace().collect();
            let name = if f[0] == "(empty)" { String::new() } else { f[0].to_string() };
            out.push((name, f[1].parse().unwrap(), f[2].parse().unwrap(), symbol.trim().to_string()));
        }
    }
    out
}

#[test]
fn cudart_can_resolve_every_request_through_the_shared_library() {
    let lib = Library::open();
    let version_sym = lib.sym("cuDriverGetVersion");
    assert!(!version_sym.is_null());
    // SAFETY: the exported function has this signature.
    let driver_get_version: DriverGetVersion = unsafe { std::mem::transmute(version_sym) };
    let mut version = 0;
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { driver_get_version(&mut version) }, 0);
    assert!(version >= 13000);

    let gpa_sym = lib.sym("cuGetProcAddress_v2");
    assert!(!gpa_sym.is_null());
    // SAFETY: the exported function has this signature.
    let get_proc_address: GetProcAddress = unsafe { std::mem::transmute(gpa_sym) };
    for (name, version, flags, expected) in requests() {
        let c_name = CString::new(name.clone()).unwrap();
        let (mut pfn, mut status) = (std::ptr::null_mut(), -1);
        // SAFETY: valid string and out-pointers.
        let res = unsafe { get_proc_address(c_name.as_ptr(), &mut pfn, version, flags, &mut status) };
        if name.is_empty() {
            // NVIDIA's driver 580 answers success with SYMBOL_NOT_FOUND (H200, 2026-11-28).
            assert_eq!((res, status), (0, 1), "the empty-name probe answers success and SYMBOL_NOT_FOUND");
            continue;
        }
        assert_eq!((res, status), (0, 0), "{name} {version} {flags}");
        let exported = lib.sym(&expected);
        assert!(!exported.is_null(), "{expected} is not exported");
        assert_eq!(pfn, exported, "{name} {version} {flags} should resolve to {expected}");
    }
}

#[test]
fn exports_exactly_the_table_and_nothing_else() {
    let lib = Library::open();
    for sym in cuda::proc_table::symbols() {
        assert!(!lib.sym(sym.name).is_null(), "{} is not exported", sym.name);
    }
    // Rust's own symbols stay hidden.
    assert!(lib.sym("rust_begin_unwind").is_null());
    assert!(lib.sym("__rust_alloc").is_null());
}

#[test]
fn a_stub_answers_not_supported() {
    let lib = Library::open();
    let sym = lib.sym("cuVDPAUGetDevice");
    assert!(!sym.is_null());
    // SAFETY: stubs ignore their arguments and return a CUresult.
    let stub: unsafe extern "C" fn(*mut c_void, u32) -> u32 = unsafe { std::mem::transmute(sym) };
    // SAFETY: as above.
    assert_eq!(unsafe { stub(std::ptr::null_mut(), 0) }, 801);
}
